/** Run results: part of Heddle's public contract (see `index.ts`). */
import type { HeddleErrorCode } from "../error-codes.js";
import type { AgentMessage, AgentUsage } from "./messages.js";
import type { ModelError } from "./model.js";
import type { PermissionDenial } from "./tools.js";

/**
 * How a run ended: `completed` (the task ended as the model or a completion tool said), `incomplete` (a limit cut
 * the run short: `max_iterations`, `max_budget`, `max_tokens`), `aborted` (an abort or a stop asked by a hook) or
 * `failed` (a model error, a hook that threw, an internal failure).
 */
export type AgentRunStatus = "completed" | "incomplete" | "aborted" | "failed";

/** The reason codes the loop itself produces. */
export type BuiltInRunReason =
  | "end_turn"
  | "completion_tool"
  | "max_iterations"
  | "max_budget"
  | "stop_condition"
  | "hook_stop"
  | "aborted"
  | "model_error"
  | "max_tokens"
  | "internal_error";

/**
 * Why a run ended: a built-in code, or any code a hook gave with its stop (`{stop: true, reason: "loop_detected"}`).
 * Codes match `RUN_REASON_CODE` (lowercase snake_case); a hook's stop whose reason is free text gives `hook_stop`.
 */
export type AgentRunReason = BuiltInRunReason | (string & {});

/** Every built-in run reason code. */
export const AGENT_RUN_REASONS: readonly BuiltInRunReason[] = [
  "end_turn",
  "completion_tool",
  "max_iterations",
  "max_budget",
  "stop_condition",
  "hook_stop",
  "aborted",
  "model_error",
  "max_tokens",
  "internal_error",
];

/** What a reason code looks like: lowercase snake_case. Anything else a hook gives as its reason is free text. */
export const RUN_REASON_CODE = /^[a-z][a-z0-9_]*$/;

/** True when a hook's stop reason is a code (carried through as the result's reason), not free text. */
export function isRunReasonCode(reason: unknown): reason is AgentRunReason {
  return typeof reason === "string" && reason.length <= 64 && RUN_REASON_CODE.test(reason);
}

/**
 * The status a run ends with for a reason, when no hook chose one: limits are incomplete, model and internal
 * errors fail, aborts and stops asked for by a hook (any code not listed here) abort, the rest completes.
 */
export function statusForReason(reason: AgentRunReason): AgentRunStatus {
  switch (reason) {
    case "end_turn":
    case "completion_tool":
    case "stop_condition":
      return "completed";
    case "max_iterations":
    case "max_budget":
    case "max_tokens":
      return "incomplete";
    case "model_error":
    case "internal_error":
      return "failed";
    default:
      return "aborted";
  }
}

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
  /** The error behind a `failed` run; `code` is the `HeddleError` code when there is one. */
  error?: ModelError | { kind: "hook" | "tool" | "internal"; message: string; code?: HeddleErrorCode };
}
