import type { AgentRunResult, AgentUsage } from "@heddle/shared";
import type { AgentHost } from "../host/index.js";
import type { SessionEvent, SessionOptions, SessionStore } from "../sessions/index.js";
import type { TeamLimitName } from "./errors.js";
import type { TeamMailbox, TeamMailboxMessage } from "./mailbox.js";
import type { TeamControlMessage } from "./protocol.js";
import type { TeammateState, TeammateStopReason, TeamUsage } from "./roster.js";
import type { TeamGovernor } from "./team-governor.js";

// Declared beside the roster (the contract backends build on); named here too, where the runner's types live.
export type { TeammateState, TeammateStopReason, TeamUsage };

/** How a teammate is made: a session's options plus its place in the team. */
export interface TeammateOptions
  extends Omit<SessionOptions, "store" | "id" | "agentId" | "parentAgentId" | "agentRole"> {
  agentId: string;
  role?: string;
  /** Answer a shutdown request with `shutdown_approved` and stop, without a turn (default false: the request
   * becomes a turn, and the model or the host decides). */
  autoApproveShutdown?: boolean;
  /** The teammate's session id in the store (default `teammate-<teamId>-<agentId>`, or `teammate-<agentId>`). */
  sessionId?: string;
}

/** A turn's outcome without its transcript (events never carry the history). */
export type TeammateTurnResult = Pick<
  AgentRunResult,
  "status" | "reason" | "reasonDetail" | "outputText" | "iterations" | "toolCalls"
> & { usage: AgentUsage };

/** What `TeammateRunner.run` yields; every event names the teammate. */
export type TeammateEvent = { agentId: string } & (
  | { type: "teammate-started"; sessionId: string; resumed: boolean }
  /** A turn starts for `message` (absent for the initial prompt); `resumed` when a crash had cut it. */
  | { type: "turn-started"; message?: TeamMailboxMessage; resumed: boolean }
  | { type: "session-event"; event: SessionEvent }
  | { type: "turn-finished"; message?: TeamMailboxMessage; result: TeammateTurnResult }
  /** The turn for `message` was already stored before a restart: the message is only marked read now. */
  | { type: "turn-recovered"; message?: TeamMailboxMessage }
  | { type: "control-received"; message: TeamMailboxMessage; control: TeamControlMessage }
  | { type: "shutdown-approved"; to: string }
  /** A message not taken as a turn: its reply chain is past `limits.maxReplyChain` (marked read, the lead told). */
  | { type: "message-refused"; message: TeamMailboxMessage; limit: TeamLimitName }
  | { type: "idle" }
  | { type: "stopped"; reason: TeammateStopReason; limit?: TeamLimitName; error?: unknown }
  /** From `runTeamWorker` with a roster: this worker took the teammate's lease (from `previousWorkerId`, if another held it). */
  | { type: "lease-taken"; workerId: string; previousWorkerId?: string }
  /** From `runTeamWorker` with a roster: the lease ended without this worker giving it back (expired, or the lead's stop). */
  | { type: "lease-lost"; workerId: string }
  /** From `runTeamWorker` with a roster: this worker gave the lease back (a clean stop), or recorded the teammate stopped. */
  | { type: "lease-released"; workerId: string }
);

/** A teammate as `status()` reports it. */
export interface TeammateStatus {
  agentId: string;
  role?: string;
  sessionId: string;
  state: TeammateState;
  /** Turns run by this runner (this process). */
  turns: number;
  /** The mailbox message of the running turn. */
  currentMessageId?: string;
  stopReason?: TeammateStopReason;
  /** With `stopReason: "limit"`: which team limit, and in words. */
  limit?: TeamLimitName;
  limitDetail?: string;
  /** With a roster: the worker that holds the teammate's lease now. */
  workerId?: string;
  /** With a roster: its usage across every worker that ran it (`turns` counts those too). */
  usage?: TeamUsage;
}

/** What a runner needs from its manager. */
export interface TeammateContext {
  mailbox: TeamMailbox;
  store: SessionStore;
  teamId?: string;
  leadId: string;
  /** Send a `task_notification` to whoever gave a task when its turn ends (default true). */
  notifyOnTurnEnd: boolean;
  /** The team's host: each teammate's session runs under it, so its policy can only narrow the team's. */
  host: AgentHost;
  /** The team's limits and counters. */
  governor: TeamGovernor;
  emit(event: TeammateEvent): void;
}
