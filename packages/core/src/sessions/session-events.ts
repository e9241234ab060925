import type { AgentRuntimeEvent } from "@heddle/shared";
import type { CompactionEvent } from "../compaction/index.js";
import type { CircuitBreakerSignal, LoopSignal } from "../safety/index.js";

/** Everything a session reports: the runtime's events re-emitted, plus its own. Each carries `sessionId`. */
export type SessionEvent = { sessionId: string } & (
  | AgentRuntimeEvent
  /** A message is durably in the store. */
  | { type: "session-saved"; messageId: string; seq: number }
  | CompactionEvent
  | ({ type: "loop-warning" } & LoopSignal)
  | ({ type: "circuit-breaker" } & CircuitBreakerSignal)
);

export type SessionEventType = SessionEvent["type"];

export type SessionListener = (event: SessionEvent) => void;

/** Session usage: the total and each model's share (keyed `provider/id`). */
export interface SessionUsage {
  total: import("@heddle/shared").AgentUsage;
  byModel: { [modelKey: string]: import("@heddle/shared").AgentUsage };
}
