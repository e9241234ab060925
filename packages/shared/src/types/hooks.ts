/** Hooks: part of Heddle's public contract (see `index.ts`). */

import type { AgentRuntimeEvent } from "./events.js";
import type { AgentMessage, FinishReason, ToolCallPart, ToolResultPart } from "./messages.js";
import type { AgentModelRequest, ModelError } from "./model.js";
import type { AgentRunResult } from "./results.js";
import type { AgentTool } from "./tools.js";

/** A hook may end the run. A `reason` that is a run reason code is carried through; other text gives `hook_stop`. */
export interface HookStop {
  stop?: boolean;
  reason?: string;
}

/** Text a hook adds to the next model request, as one delimited user message. */
export interface HookAppendContext {
  appendContext?: string;
}

/** What every hook receives. */
export interface HookContextBase {
  agentId: string;
  runId: string;
  iteration: number;
  signal: AbortSignal;
  sessionId?: string;
  conversationId?: string;
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

/** `beforeTool` may rewrite the input, skip the call (the reason is its error result), stop, or add context. */
export interface BeforeToolResult extends HookStop, HookAppendContext {
  skip?: boolean;
  input?: unknown;
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
  beforeModel?: HookList<(ctx: BeforeModelContext) => MaybePromise<(HookStop & HookAppendContext) | void>>;
  afterModel?: HookList<(ctx: AfterModelContext) => MaybePromise<HookStop | void>>;
  beforeTool?: HookList<(ctx: BeforeToolContext) => MaybePromise<BeforeToolResult | void>>;
  afterTool?: HookList<(ctx: AfterToolContext) => MaybePromise<AfterToolResult | void>>;
  /** Called for every event, not awaited on deltas: a slow listener never stalls the stream. */
  onEvent?: HookList<(event: AgentRuntimeEvent) => MaybePromise<HookStop | void>>;
}
