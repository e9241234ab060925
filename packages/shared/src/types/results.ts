/** Run results: part of Heddle's public contract (see `index.ts`). */
import type { AgentMessage, AgentUsage } from "./messages.js";
import type { ModelError } from "./model.js";
import type { PermissionDenial } from "./tools.js";

/** How a run ended. */
export type AgentRunStatus = "completed" | "aborted" | "failed";

/** Why a run ended; the last two come from core's safety layer. */
export type AgentRunReason =
  | "end_turn"
  | "completion_tool"
  | "max_iterations"
  | "max_budget"
  | "stop_condition"
  | "hook_stop"
  | "aborted"
  | "model_error"
  | "max_tokens"
  | "loop_detected"
  | "circuit_breaker";

/** Every run reason code, for validating a hook's `{stop, reason}`. */
export const AGENT_RUN_REASONS: readonly AgentRunReason[] = [
  "end_turn",
  "completion_tool",
  "max_iterations",
  "max_budget",
  "stop_condition",
  "hook_stop",
  "aborted",
  "model_error",
  "max_tokens",
  "loop_detected",
  "circuit_breaker",
];

/** What a run returns. Limits end a run with a result, never with an exception. */
export interface AgentRunResult {
  status: AgentRunStatus;
  reason: AgentRunReason;
  /** Free text behind the reason: a hook's stop text, an abort reason, a stop condition's name. */
  reasonDetail?: string;
  /** The last assistant text, or a completion tool's output. */
  outputText: string;
  /** The whole transcript after the run. */
  messages: AgentMessage[];
  /** The messages this run added. */
  newMessages: AgentMessage[];
  usage: AgentUsage;
  /** Model calls made. */
  iterations: number;
  durationMs: number;
  modelDurationMs: number;
  /** Tool calls executed or attempted. */
  toolCalls: number;
  permissionDenials: PermissionDenial[];
  error?: ModelError | { kind: "hook" | "tool" | "internal"; message: string };
}
