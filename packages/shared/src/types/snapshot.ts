/** An agent's state on demand: part of Heddle's public contract (see `index.ts`). */
import type { AgentIdentity } from "./identity.js";
import type { AgentMessage, AgentUsage } from "./messages.js";
import type { ModelErrorKind } from "./model.js";

/**
 * Where an agent is: `idle` (no run), `streaming` (a model call is in flight), `awaiting_approval` (the approver is
 * deciding a call), `running` (anything else inside a run, a tool running included).
 */
export type AgentStatus = "idle" | "streaming" | "awaiting_approval" | "running";

/** The kind of the last error an agent met: the model's (its `ModelErrorKind`), a tool's, a hook's, or internal. */
export type AgentErrorClass = ModelErrorKind | "tool_error" | "hook_error" | "internal_error";

/** The full state of an agent, on demand. */
export interface AgentSnapshot extends AgentIdentity {
  runId?: string;
  running: boolean;
  status: AgentStatus;
  /** Ids of the tool calls of the current turn that have not finished. */
  pendingToolCalls: string[];
  /** The last error met (a failed model call, a tool's error result, a failed hook), and its class. */
  lastError?: string;
  lastErrorClass?: AgentErrorClass;
  iteration: number;
  messages: AgentMessage[];
  usage: AgentUsage;
}
