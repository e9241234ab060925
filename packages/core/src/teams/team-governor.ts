/**
 * The rule this file keeps: a team is bounded. It has at most `maxTeammates` running teammates, `maxTurns` turns
 * and `maxBudgetUsd` of spend in all, no message over `maxMessageBytes`, and no reply chain between teammates
 * longer than `maxReplyChain` messages without the lead (or a user) speaking in between. What this process's
 * manager and its teammates do is counted here; a limit refuses with a `TeamLimitError` or stops teammates with
 * the non-error reason `"limit"`.
 */
import { LimitScope, type LimitStop } from "../host/index.js";
import { TeamError, TeamLimitError, type TeamLimitName } from "./errors.js";

/** `AgentTeamManagerOptions.limits`. */
export interface TeamLimits {
  /** Teammates running (not stopped) at once in this manager (default 64). */
  maxTeammates?: number;
  /** Turns all teammates of this manager may run together (default: no limit). */
  maxTurns?: number;
  /** Spend of all teammates' turns together, in USD (default: no limit). */
  maxBudgetUsd?: number;
  /** The largest message text `send` and the team tools accept, in UTF-8 bytes (default 1 MiB). */
  maxMessageBytes?: number;
  /**
   * Messages teammates may send one another in a chain started by one message of the lead (or a user) before the
   * chain is stopped and the lead told (default 8). Every message a teammate sends while on a turn of the chain
   * (a reply, or the notification that answers a teammate) is one more link, however the chain branches.
   */
  maxReplyChain?: number;
}

export const DEFAULT_TEAM_LIMITS = {
  maxTeammates: 64,
  maxMessageBytes: 1024 * 1024,
  maxReplyChain: 8,
};

/** Where a message stands in a reply chain: the chain (the lead's message that began it) and its link number. */
export interface ChainLink {
  chain: string;
  /** How many teammate messages the chain had when this one was sent, this one included (0: the lead's). */
  links: number;
}

/** Why a turn may not run. */
export interface TurnRefusal {
  limit: TeamLimitName;
  detail: string;
}

function checkLimit(value: unknown, name: string, min: number, integer = true): void {
  if (value === undefined) return;
  const ok =
    typeof value === "number" &&
    value >= min &&
    (!integer || Number.isInteger(value) || value === Number.POSITIVE_INFINITY);
  if (!ok)
    throw new TeamError(
      "team_invalid_input",
      `AgentTeamManager: limits.${name} must be ${integer ? "an integer" : "a number"} >= ${min}`,
    );
}

// Chains are remembered in memory; past this many, the oldest are forgotten (a forgotten link starts a new chain).
const MAX_REMEMBERED = 10_000;

/** The counters and limits of one manager's team. */
export class TeamGovernor {
  readonly limits: TeamLimits & Required<Pick<TeamLimits, keyof typeof DEFAULT_TEAM_LIMITS>>;
  /** The team's spend: every teammate turn's run counts into it. */
  readonly scope: LimitScope;
  turns = 0;
  readonly #links = new Map<string, ChainLink>();
  readonly #chainLengths = new Map<string, number>();
  readonly #stoppedChains = new Set<string>();

  constructor(limits: TeamLimits = {}) {
    if (typeof limits !== "object" || limits === null)
      throw new TeamError("team_invalid_input", "AgentTeamManager: limits must be an object");
    checkLimit(limits.maxTeammates, "maxTeammates", 1);
    checkLimit(limits.maxTurns, "maxTurns", 0);
    checkLimit(limits.maxBudgetUsd, "maxBudgetUsd", 0, false);
    checkLimit(limits.maxMessageBytes, "maxMessageBytes", 1);
    checkLimit(limits.maxReplyChain, "maxReplyChain", 0);
    this.limits = { ...DEFAULT_TEAM_LIMITS, ...stripUndefined(limits) };
    this.scope = new LimitScope({
      kind: "team",
      label: "the team",
      ...(limits.maxBudgetUsd !== undefined && { limits: { maxBudgetUsd: limits.maxBudgetUsd } }),
    });
  }

  /** Throws when `running` teammates already fill the team. */
  admitTeammate(running: number, agentId: string): void {
    if (running >= this.limits.maxTeammates)
      throw new TeamLimitError(
        "maxTeammates",
        `The team already has ${running} running teammates (limits.maxTeammates is ${this.limits.maxTeammates}): ` +
          `"${agentId}" was not created. Stop one first.`,
      );
  }

  /** Throws when a message text is over `maxMessageBytes`. */
  admitMessage(text: string): void {
    // Cheap first: a string of n UTF-16 units is at most 3n UTF-8 bytes.
    if (text.length * 3 <= this.limits.maxMessageBytes) return;
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > this.limits.maxMessageBytes)
      throw new TeamLimitError(
        "maxMessageBytes",
        `The message is ${bytes} bytes; a team message may have at most ${this.limits.maxMessageBytes} ` +
          "(limits.maxMessageBytes). Send a shorter one, or a path to a file.",
      );
  }

  /** A text cut to `maxMessageBytes` (for a teammate's own report), with a note when it was cut. */
  fitMessage(text: string): string {
    const max = this.limits.maxMessageBytes;
    if (text.length * 3 <= max || Buffer.byteLength(text, "utf8") <= max) return text;
    const note = "\n[... cut: the report was longer than the team's maxMessageBytes]";
    const bytes = Buffer.from(text, "utf8");
    let end = Math.max(0, max - Buffer.byteLength(note));
    // Back to the start of a character: a cut inside one would leave a U+FFFD behind.
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
    return bytes.subarray(0, end).toString("utf8") + note;
  }

  /** The limit that forbids another turn now (turns or budget used up), if any. */
  turnRefusal(): TurnRefusal | undefined {
    const { maxTurns } = this.limits;
    if (maxTurns !== undefined && this.turns >= maxTurns)
      return { limit: "maxTurns", detail: `the team ran its limit of ${maxTurns} turns (limits.maxTurns)` };
    const stop: LimitStop | undefined = this.scope.exhausted();
    if (stop) return { limit: "maxBudgetUsd", detail: `${stop.detail} (limits.maxBudgetUsd)` };
    return undefined;
  }

  countTurn(): void {
    this.turns++;
  }

  /** Records a message a teammate sends while on a turn of the chain `current` (nothing for the lead's). */
  recordMessage(messageId: string, current: ChainLink | undefined): void {
    if (!current) return;
    const links = Math.max(this.#chainLengths.get(current.chain) ?? 0, current.links) + 1;
    this.#chainLengths.set(current.chain, links);
    this.#links.set(messageId, { chain: current.chain, links });
    forgetOldest(this.#chainLengths);
    forgetOldest(this.#links);
  }

  /** The link of a message about to become a turn (a new chain when nothing recorded it), now forgotten here. */
  takeLink(messageId: string): ChainLink {
    const link = this.#links.get(messageId);
    this.#links.delete(messageId);
    return link ?? { chain: messageId, links: 0 };
  }

  /** True when `link` is past `maxReplyChain`; the first time for its chain, `first` is true (tell the lead once). */
  chainRefusal(link: ChainLink): { first: boolean } | undefined {
    if (link.links <= this.limits.maxReplyChain && !this.#stoppedChains.has(link.chain)) return undefined;
    const first = !this.#stoppedChains.has(link.chain);
    this.#stoppedChains.add(link.chain);
    forgetOldest(this.#stoppedChains);
    return { first };
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function forgetOldest(collection: Map<string, unknown> | Set<string>): void {
  if (collection.size <= MAX_REMEMBERED) return;
  const oldest = collection.keys().next().value;
  if (oldest !== undefined) collection.delete(oldest);
}
