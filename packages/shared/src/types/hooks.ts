/** Hooks: part of Heddle's public contract (see `index.ts`). */

import type { AgentRuntimeEvent } from "./events.js";
import type { AgentIdentity } from "./identity.js";
import type { AgentMessage, FinishReason, ToolCallPart, ToolResultPart } from "./messages.js";
import type { AgentModelRequest, ModelCallOptions, ModelError, ToolDefinition } from "./model.js";
import type { AgentRunResult, AgentRunStatus } from "./results.js";
import type { AgentTool } from "./tools.js";

/**
 * A hook may end the run. A `reason` that is a code (lowercase snake_case, `RUN_REASON_CODE`) becomes the result's
 * `reason`; any other text gives `hook_stop` with the text as `reasonDetail`. `status` defaults to `"aborted"` for
 * codes the loop does not define (and to the built-in status for the loop's own codes).
 */
export interface HookStop {
  stop?: boolean;
  reason?: string;
  status?: AgentRunStatus;
  /** Why, in words: the result's `reasonDetail` when `reason` is a reason code. */
  detail?: string;
}

/** Text a hook adds to the next model request, as one delimited user message. */
export interface HookAppendContext {
  appendContext?: string;
}

/** What every hook receives. */
export interface HookContextBase extends AgentIdentity {
  runId: string;
  iteration: number;
  signal: AbortSignal;
}

export interface BeforeRunContext extends HookContextBase {
  messages: readonly AgentMessage[];
}
export interface AfterRunContext extends HookContextBase {
  result: AgentRunResult;
}
export interface BeforeModelContext extends HookContextBase {
  request: AgentModelRequest;
}
/** What `beforeModel` may return: a stop, context to add, and replacements for this request's fields. */
export interface BeforeModelResult extends HookStop, HookAppendContext {
  messages?: AgentMessage[];
  tools?: ToolDefinition[];
  options?: ModelCallOptions;
  systemPrompt?: string;
}
export interface AfterModelContext extends HookContextBase {
  message: AgentMessage;
  finishReason: FinishReason;
  error?: ModelError;
}
export interface BeforeToolContext extends HookContextBase {
  toolCall: ToolCallPart;
  tool: AgentTool;
  input: unknown;
}
export interface AfterToolContext extends HookContextBase {
  toolCall: ToolCallPart;
  /** Undefined for a call to an unknown tool. */
  tool?: AgentTool;
  input: unknown;
  result: ToolResultPart;
}

/** After a step (one model call): its assistant message and the results of its tool calls (empty when none). */
export interface AfterStepContext extends HookContextBase {
  message: AgentMessage;
  results: readonly ToolResultPart[];
}
/** @deprecated Use `AfterStepContext`. */
export type AfterTurnContext = AfterStepContext;

/**
 * `beforeTool` may rewrite the input, skip the call (the reason is its error result), stop, add context, or `ask`:
 * the call then needs the host's approval whatever its policy, through the one approval path
 * (`requestToolApproval`, which gets the hook's `reason`); with no approver it is denied.
 */
export interface BeforeToolResult extends HookStop, HookAppendContext {
  skip?: boolean;
  input?: unknown;
  ask?: boolean;
}
/** `afterTool` may replace the result, stop, or add context. */
export interface AfterToolResult extends HookStop, HookAppendContext {
  result?: ToolResultPart;
}

/** A hook value: one function or an array of them. */
export type HookList<F> = F | F[];
type MaybePromise<T> = T | Promise<T>;

/** The loop's hooks. Plugin hooks add to these, never replace them. */
export interface AgentHooks {
  beforeRun?: HookList<(ctx: BeforeRunContext) => MaybePromise<HookStop | void>>;
  afterRun?: HookList<(ctx: AfterRunContext) => MaybePromise<void>>;
  /** Each hook sees the request as the earlier ones left it; what it returns replaces those request fields. */
  beforeModel?: HookList<(ctx: BeforeModelContext) => MaybePromise<BeforeModelResult | void>>;
  afterModel?: HookList<(ctx: AfterModelContext) => MaybePromise<HookStop | void>>;
  beforeTool?: HookList<(ctx: BeforeToolContext) => MaybePromise<BeforeToolResult | void>>;
  afterTool?: HookList<(ctx: AfterToolContext) => MaybePromise<AfterToolResult | void>>;
  /** After each step (a model call), once its tools ran; may stop the run or add context to the next request. */
  afterStep?: HookList<(ctx: AfterStepContext) => MaybePromise<(HookStop & HookAppendContext) | void>>;
  /** @deprecated Use `afterStep`: it runs after each model call, not once per turn. Runs after `afterStep`. */
  afterTurn?: HookList<(ctx: AfterStepContext) => MaybePromise<(HookStop & HookAppendContext) | void>>;
  /** Called for every event, not awaited on deltas: a slow listener never stalls the stream. */
  onEvent?: HookList<(event: AgentRuntimeEvent) => MaybePromise<HookStop | void>>;
}
