/** Runtime events: part of Heddle's public contract (see `index.ts`). */
import type { AgentMessage, AgentUsage, FinishReason, ToolCallPart, ToolResultPart } from "./messages.js";
import type { AgentRunResult } from "./results.js";

/** Fields every runtime event carries. */
export interface AgentEventBase {
  agentId: string;
  runId: string;
  iteration: number;
  /** The agent that started this one (a sub-agent's parent), when the config names it. */
  parentAgentId?: string;
  /** The agent's role in a team, when the config names it. */
  agentRole?: string;
}

/** Everything the loop reports. No event carries a copy of the history; `snapshot()` gives it on demand. */
export type AgentRuntimeEvent = AgentEventBase &
  (
    | { type: "run-started" }
    | { type: "message-added"; message: AgentMessage }
    | { type: "turn-started" }
    | { type: "assistant-text-delta"; text: string }
    | { type: "assistant-reasoning-delta"; text: string }
    | { type: "assistant-message"; message: AgentMessage; finishReason: FinishReason }
    | { type: "tool-started"; toolCall: ToolCallPart }
    | { type: "tool-updated"; toolCall: ToolCallPart; update: unknown }
    | { type: "tool-finished"; toolCall: ToolCallPart; result: ToolResultPart; durationMs: number }
    | { type: "usage-updated"; usage: AgentUsage; delta: AgentUsage }
    | { type: "turn-finished" }
    | { type: "status-notice"; message: string; code?: string }
    | { type: "run-finished"; result: AgentRunResult }
  );

/** The `type` of a runtime event. */
export type AgentRuntimeEventType = AgentRuntimeEvent["type"];

/** The full state of an agent, on demand. */
export interface AgentSnapshot {
  agentId: string;
  parentAgentId?: string;
  agentRole?: string;
  conversationId?: string;
  sessionId?: string;
  runId?: string;
  running: boolean;
  iteration: number;
  messages: AgentMessage[];
  usage: AgentUsage;
}
