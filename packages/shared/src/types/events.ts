/** Runtime events: part of Heddle's public contract (see `index.ts`). */
import type { AgentIdentity } from "./identity.js";
import type { AgentMessage, AgentUsage, FinishReason, ModelRef, ToolCallPart, ToolResultPart } from "./messages.js";
import type { AgentRunResult } from "./results.js";

/** Fields every runtime event carries. */
export interface AgentEventBase extends Pick<AgentIdentity, "agentId" | "parentAgentId" | "agentRole"> {
  /** Unique per event: the run's id and the event's number in the run. */
  id: string;
  runId: string;
  iteration: number;
}

/** Everything the loop reports. No event carries a copy of the history; `snapshot()` gives it on demand. */
export type AgentRuntimeEvent = AgentEventBase &
  /** `tools`: the names offered at the start of the run; `model`: the model that runs it. */
  (
    | { type: "run-started"; tools: string[]; model: ModelRef }
    | { type: "message-added"; message: AgentMessage }
    | { type: "turn-started" }
    /** `accumulatedText`: the text of this model response so far, this delta included. */
    | { type: "assistant-text-delta"; text: string; accumulatedText: string }
    | { type: "assistant-reasoning-delta"; text: string; accumulatedText: string }
    | { type: "assistant-message"; message: AgentMessage; finishReason: FinishReason }
    | { type: "tool-started"; toolCall: ToolCallPart }
    | { type: "tool-updated"; toolCall: ToolCallPart; update: unknown }
    | { type: "tool-finished"; toolCall: ToolCallPart; result: ToolResultPart; durationMs: number }
    | { type: "usage-updated"; usage: AgentUsage; delta: AgentUsage }
    /** After each round of tool calls: what ran and how it ended, with a one-line summary. */
    | { type: "tool-use-summary"; summary: string; toolCalls: ToolUseSummaryEntry[] }
    | { type: "turn-finished" }
    | { type: "status-notice"; message: string; code?: string }
    | { type: "run-finished"; result: AgentRunResult }
  );

/** One call of a tool round, as `tool-use-summary` reports it. */
export interface ToolUseSummaryEntry {
  toolCallId: string;
  toolName: string;
  isError: boolean;
}

/** The `type` of a runtime event. */
export type AgentRuntimeEventType = AgentRuntimeEvent["type"];
