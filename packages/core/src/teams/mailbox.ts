import { TeamError, TeamMessageTooLargeError } from "./errors.js";

/** What a mailbox message is for. */
export type TeamMessageKind = "user" | "shutdown_request" | "shutdown_approved" | "task_notification";

export const TEAM_MESSAGE_KINDS: readonly TeamMessageKind[] = [
  "user",
  "shutdown_request",
  "shutdown_approved",
  "task_notification",
];

/** One message between agents of a team. `readAt` is set once the recipient took it. */
export interface TeamMailboxMessage {
  id: string;
  teamId?: string;
  from: string;
  to: string;
  kind: TeamMessageKind;
  text: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  readAt?: number;
}

/** What `send` takes; `kind` defaults to `"user"`. */
export interface SendTeamMessageInput {
  to: string;
  from: string;
  kind?: TeamMessageKind;
  text: string;
  teamId?: string;
}

/**
 * Durable (or not) inboxes of the agents of a team, one per agent id. Every method is async so a server-backed
 * mailbox fits. Messages of one recipient come out oldest first, each to one reader: `dequeue` takes the oldest
 * unread and marks it read in one step; `peek` + `markRead` lets a reader mark it only after acting on it.
 */
export interface TeamMailbox {
  send(input: SendTeamMessageInput): Promise<TeamMailboxMessage>;
  /** The oldest unread message of `agentId`, now marked read; `undefined` when there is none. */
  dequeue(agentId: string): Promise<TeamMailboxMessage | undefined>;
  /** The oldest unread message of `agentId`, left unread. */
  peek(agentId: string): Promise<TeamMailboxMessage | undefined>;
  /** Every unread message of `agentId`, oldest first. */
  list(agentId: string): Promise<TeamMailboxMessage[]>;
  /** Marks one message read; `false` when it is not an unread message of `agentId`. */
  markRead(agentId: string, messageId: string): Promise<boolean>;
  /** Deletes every message addressed to `agentId` (read or not); resolves with how many were deleted. */
  clear(agentId: string): Promise<number>;
  /**
   * Resolves once `agentId` has an unread message (at once when it has one already). Rejects with the signal's
   * reason when `signal` aborts first, and with a `team_mailbox_closed` error when the mailbox closes.
   */
  wait(agentId: string, signal?: AbortSignal): Promise<void>;
  /** Ends pending `wait`s and releases what the mailbox holds (a database connection, a timer). */
  close(): Promise<void>;
  /**
   * For a mailbox whose readers hold messages they took but did not mark read (Redis consumers): makes this reader
   * the holder of every such message of `agentId`, whoever took it, so its next `peek` returns the oldest unread
   * message, in send order. Resolves with how many it took over. A worker calls it when it takes a teammate's lease,
   * before the teammate reads: only the lease holder reads that inbox, so no live reader loses a message it is on.
   * Mailboxes without such holdings (memory, SQLite: `peek` is always the oldest unread) leave it out.
   */
  takeOver?(agentId: string): Promise<number>;
}

/**
 * The largest message a mailbox stores by default, in UTF-8 bytes of its text and ids together: 2 MiB. Twice the
 * team's default `limits.maxMessageBytes` (1 MiB of text), so every message a team sends at its default limits fits,
 * a teammate's report included (cut to 1 MiB, then framed, with escaping that grows it by at most a quarter); yet a
 * raw `send` of 40 MB, which every `list` and `peek` would then carry, is refused.
 */
export const DEFAULT_MAILBOX_MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

/** Checks a mailbox's `maxMessageBytes` option (a positive integer, or `Infinity` for no cap) and applies the default. */
export function mailboxMaxMessageBytes(value: unknown, where: string): number {
  if (value === undefined) return DEFAULT_MAILBOX_MAX_MESSAGE_BYTES;
  if (typeof value !== "number" || !(Number.isInteger(value) || value === Number.POSITIVE_INFINITY) || value < 1)
    throw new TeamError("team_invalid_input", `${where}: maxMessageBytes must be a positive integer (or Infinity)`);
  return value;
}

/**
 * Checks `send`'s input; the same rules for every mailbox. Text and ids must be well-formed Unicode: a lone
 * surrogate cannot be stored as UTF-8, and SQLite and Redis would silently turn it into replacement characters, so
 * it is refused instead, alike in every mailbox. The message (text and ids, in UTF-8) may have at most
 * `maxMessageBytes` bytes.
 */
export function checkSendInput(
  input: SendTeamMessageInput,
  maxMessageBytes: number = DEFAULT_MAILBOX_MAX_MESSAGE_BYTES,
): Required<Omit<SendTeamMessageInput, "teamId">> & {
  teamId?: string;
} {
  if (typeof input !== "object" || input === null)
    throw new TeamError("team_invalid_input", "send(input): input must be an object");
  checkAgentId(input.to, "send: to");
  checkAgentId(input.from, "send: from");
  if (typeof input.text !== "string") throw new TeamError("team_invalid_input", "send: text must be a string");
  checkWellFormed(input.text, "send: text");
  const kind = input.kind ?? "user";
  if (!TEAM_MESSAGE_KINDS.includes(kind))
    throw new TeamError("team_invalid_input", `send: kind must be one of ${TEAM_MESSAGE_KINDS.join(", ")}`);
  if (input.teamId !== undefined && (typeof input.teamId !== "string" || input.teamId === ""))
    throw new TeamError("team_invalid_input", "send: teamId must be a non-empty string when given");
  if (input.teamId !== undefined) checkWellFormed(input.teamId, "send: teamId");
  checkSize([input.text, input.to, input.from, input.teamId ?? ""], maxMessageBytes);
  return {
    to: input.to,
    from: input.from,
    kind,
    text: input.text,
    ...(input.teamId !== undefined && { teamId: input.teamId }),
  };
}

export function checkAgentId(agentId: unknown, where: string): asserts agentId is string {
  if (typeof agentId !== "string" || agentId === "")
    throw new TeamError("team_invalid_input", `${where} must be a non-empty agent id`);
  checkWellFormed(agentId, where);
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no `u` flag).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `text` with each lone surrogate replaced by U+FFFD: `String.prototype.toWellFormed`, not in this project's ES2022 lib. */
export function toWellFormed(text: string): string {
  return text.replace(new RegExp(LONE_SURROGATE.source, "g"), "\ufffd");
}

function checkWellFormed(value: string, where: string): void {
  const lone = LONE_SURROGATE.exec(value);
  if (lone)
    throw new TeamError(
      "team_invalid_input",
      `${where} is not well-formed Unicode: a lone surrogate (\\u${lone[0].charCodeAt(0).toString(16)}) at index ` +
        `${lone.index} cannot be stored as UTF-8. Replace it (String.prototype.toWellFormed) before sending.`,
    );
}

function checkSize(parts: string[], maxBytes: number): void {
  // Cheap first: a string of n UTF-16 units is at most 3n UTF-8 bytes.
  if (parts.reduce((units, part) => units + part.length, 0) * 3 <= maxBytes) return;
  const bytes = parts.reduce((sum, part) => sum + Buffer.byteLength(part, "utf8"), 0);
  if (bytes > maxBytes) throw new TeamMessageTooLargeError(bytes, maxBytes);
}

/** The error a `wait` rejects with when its signal aborts: the signal's reason, as `AbortSignal` users expect. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

/** A set of pending `wait`s keyed by agent id; `settle` wakes every waiter of one agent. */
export class MailboxWaiters {
  readonly #waiters = new Map<string, Set<{ resolve(): void; reject(error: unknown): void }>>();

  get size(): number {
    let count = 0;
    for (const set of this.#waiters.values()) count += set.size;
    return count;
  }

  agents(): string[] {
    return [...this.#waiters.keys()];
  }

  /** A promise that `wake(agentId)` resolves; it rejects when `signal` aborts. */
  add(agentId: string, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const set = this.#waiters.get(agentId) ?? new Set();
      this.#waiters.set(agentId, set);
      const onAbort = () => {
        remove();
        reject(abortReason(signal!));
      };
      const remove = () => {
        set.delete(waiter);
        if (set.size === 0 && this.#waiters.get(agentId) === set) this.#waiters.delete(agentId);
        signal?.removeEventListener("abort", onAbort);
      };
      const waiter = {
        resolve: () => {
          remove();
          resolve();
        },
        reject: (error: unknown) => {
          remove();
          reject(error);
        },
      };
      set.add(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  wake(agentId: string): void {
    for (const waiter of [...(this.#waiters.get(agentId) ?? [])]) waiter.resolve();
  }

  rejectAll(error: unknown): void {
    for (const set of [...this.#waiters.values()]) for (const waiter of [...set]) waiter.reject(error);
  }
}
