import type { SessionStore } from "../sessions/index.js";
import type { TeamMailbox } from "./mailbox.js";
import type { TeamRoster } from "./roster.js";
import type { AgentTeamManagerOptions } from "./team-manager.js";
import type { BuildTeammate } from "./teammate-spec.js";
import type { TeammateEvent, TeammateOptions, TeammateStopReason } from "./teammate-types.js";

/** One teammate a worker runs: its options, and the task its first turn takes (run once per session, ever). */
export interface TeamWorkerTeammate extends TeammateOptions {
  initialPrompt?: string;
}

/**
 * What `runTeamWorker` takes: the shared team (mailbox + store), and either a `roster` to lease teammates from, or
 * the fixed list of `teammates` this worker runs; a stop signal.
 */
export interface TeamWorkerOptions extends Omit<AgentTeamManagerOptions, "mailbox" | "store" | "roster"> {
  /** The team's shared mailbox (a `RedisTeamMailbox` for workers on several hosts). The worker never closes it. */
  mailbox: TeamMailbox;
  /** The team's shared session store (a `PostgresSessionStore` for several hosts). The worker never closes it. */
  store: SessionStore;
  /**
   * The team's roster (a `RedisTeamRoster` for several hosts). The worker leases the teammates the lead recorded,
   * up to `maxTeammates`, runs them, renews its leases, and gives them back when it stops; the teammates of a
   * worker that died are taken by another within `leaseMs` and a poll. The worker never closes it.
   */
  roster?: TeamRoster;
  /**
   * Without a roster: the teammates assigned to this worker (each agent id to exactly one worker at a time: two
   * workers running one teammate would both append to its session, and the second is refused with
   * `SessionConflictError`).
   */
  teammates?: TeamWorkerTeammate[];
  /** With a roster: this worker's id in leases and status (default `<hostname>:<pid>`). Unique per live worker. */
  workerId?: string;
  /**
   * With a roster: how long a lease lasts unless renewed, in ms (default 15 000). The worker renews every third of
   * it; a dead worker's teammates move after at most `leaseMs` plus one `pollIntervalMs`.
   */
  leaseMs?: number;
  /** With a roster: the most teammates this worker runs at once (default 16). */
  maxTeammates?: number;
  /** With a roster: how often the worker looks for teammates to take, in ms (default the smaller of 1 000 and `leaseMs / 3`). */
  pollIntervalMs?: number;
  /**
   * With a roster: the options of a teammate that its recorded spec cannot hold (a model, tools, hooks), from its
   * roster entry. Over the spec and the worker's defaults.
   */
  buildTeammate?: BuildTeammate;
  /** Aborting it stops every teammate (a running turn is cut, its message stays unread) and ends the worker. */
  signal?: AbortSignal;
  /** Every event of every teammate of this worker, as it happens (a throwing listener is ignored). */
  onEvent?: (event: TeammateEvent) => void;
}

/** How one teammate of a worker ended: why, after how many turns in this process, and its failure if it failed. */
export interface TeamWorkerTeammateResult {
  agentId: string;
  sessionId: string;
  reason: TeammateStopReason;
  turns: number;
  error?: unknown;
  /** With a roster: the lease ended under it (expired, or the lead stopped it), so another worker may run it. */
  leaseLost?: boolean;
}

/** How each teammate of a worker ended: in the order given, or with a roster in the order they stopped. */
export interface TeamWorkerResult {
  teammates: TeamWorkerTeammateResult[];
}
