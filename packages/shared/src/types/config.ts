/** Run configuration: part of Heddle's public contract (see `index.ts`). */

import type { Logger } from "../errors.js";
import type { AgentHooks } from "./hooks.js";
import type { AgentIdentity } from "./identity.js";
import type { AgentMessage, AgentUsage, ContentPart, ModelRef } from "./messages.js";
import type { AgentModel, ModelCallOptions, ModelInfo, ToolDefinition } from "./model.js";
import type { AgentPlugin } from "./plugins.js";
import type { AgentTool, ToolApprovalDecision, ToolApprovalRequest, ToolPolicy } from "./tools.js";

/** What a stop condition sees after each turn. */
export interface StopConditionContext {
  iteration: number;
  usage: AgentUsage;
  /** Messages added in this run so far. */
  newMessages: readonly AgentMessage[];
  /** The last assistant message. */
  lastMessage: AgentMessage;
}

/** A predicate that ends the run (reason `stop_condition`) when true. Compose several as an array (any). */
export type StopCondition = (ctx: StopConditionContext) => boolean | Promise<boolean>;

/** What `prepareStep` sees, before each model call. */
export interface PrepareStepContext extends Pick<AgentIdentity, "agentId" | "conversationId" | "parentAgentId"> {
  iteration: number;
  /** The tools offered to the model this turn. */
  tools: readonly ToolDefinition[];
  messages: readonly AgentMessage[];
  systemPrompt?: string;
  modelInfo?: ModelInfo;
  /** True on the one retry after a `context_overflow` error: shrink the request. */
  overflowRecovery: boolean;
  signal: AbortSignal;
}

/** The projected request for this model call. The transcript itself is never touched. */
export interface PrepareStepResult {
  messages?: AgentMessage[];
  systemPrompt?: string;
}

/** @deprecated Use `PrepareStepContext` (it runs before each model call, a step; a turn is a whole send). */
export type PrepareTurnContext = PrepareStepContext;
/** @deprecated Use `PrepareStepResult`. */
export type PrepareTurnResult = PrepareStepResult;

/** Ask the model to finish through a completion tool instead of simply stopping. */
export interface CompletionPolicy {
  requireCompletionTool?: boolean;
  /** Text of the one reminder sent when the model stops without calling it. */
  reminder?: string;
  /** Cline's name for the top-level `completionGuard` (give one or the other). */
  completionGuard?(ctx: CompletionGuardContext): string | undefined | void | Promise<string | undefined | void>;
}

/** What `completionGuard` sees when the run would end because the model stopped. */
export interface CompletionGuardContext {
  agentId: string;
  runId: string;
  iteration: number;
  /** The whole transcript, read-only. */
  messages: readonly AgentMessage[];
  /** The assistant message that ended without tool calls. */
  lastMessage: AgentMessage;
  /** Reminders this guard already sent in this run. */
  reminders: number;
  signal: AbortSignal;
}

/** The model to run: an `AgentModel`, or a provider and model id resolved by `@heddle/llms`. */
export interface ProviderModelConfig {
  providerId: string;
  modelId: string;
  apiKey?: string;
  baseUrl?: string;
  headers?: { [name: string]: string };
}

/** Input to `run`, `continue` and `stream`: text, parts, or whole messages. */
export type AgentRunInput = string | ContentPart[] | AgentMessage | AgentMessage[];

/** Configuration of an `AgentRuntime`. Give `model`, or `providerId` + `modelId`. */
export interface AgentRuntimeConfig extends Partial<ProviderModelConfig>, Partial<AgentIdentity> {
  model?: AgentModel;
  /** Default request options (max tokens, temperature, reasoning, caching, ...). */
  options?: ModelCallOptions;
  systemPrompt?: string;
  /**
   * The tools: an array, or a function called before each model call (a tool list that changes within one run,
   * like an MCP server's after `tools/list_changed`, reaches the next call).
   */
  tools?: AgentTool[] | AgentToolSource;
  /** Provider-side tools in the vendor's own shape, sent unchanged (see `AgentModelRequest.modelTools`). */
  modelTools?: unknown[];
  hooks?: AgentHooks;
  plugins?: AgentPlugin[];
  initialMessages?: AgentMessage[];
  maxIterations?: number;
  maxBudgetUsd?: number;
  stopWhen?: StopCondition | StopCondition[];
  toolExecution?: "sequential" | "parallel";
  maxParallelTools?: number;
  toolPolicies?: { [toolName: string]: ToolPolicy };
  requestToolApproval?(request: ToolApprovalRequest): ToolApprovalDecision | Promise<ToolApprovalDecision>;
  completionPolicy?: CompletionPolicy;
  /**
   * Called when the run would end because the model stopped (no tool calls). Text it returns is sent to the model
   * as a reminder and the run goes on, at most `maxCompletionReminders` times per run (default 3); nothing ends it.
   */
  completionGuard?(ctx: CompletionGuardContext): string | undefined | void | Promise<string | undefined | void>;
  /** How many reminders `completionGuard` may send per run (default 3). */
  maxCompletionReminders?: number;
  /** How long a plugin's `setup` may take before the run fails (default 10 000 ms). `abort()` always wins. */
  pluginSetupTimeoutMs?: number;
  /** Where the runtime reports what it cannot put in a result or event (listener and hook failures). */
  logger?: Logger;
  /** OpenTelemetry spans for the run, each model call and each tool call (see `TelemetryOption`). */
  telemetry?: TelemetryOption;
  /**
   * Called before each model call (a step) with the request's messages: what it returns is sent instead, for this
   * call only (compaction uses it). The transcript is untouched.
   */
  prepareStep?(ctx: PrepareStepContext): PrepareStepResult | void | Promise<PrepareStepResult | void>;
  /**
   * @deprecated Use `prepareStep`: it runs before each model call, not once per turn. Still works; giving both is a
   * `ConfigError`.
   */
  prepareTurn?(ctx: PrepareStepContext): PrepareStepResult | void | Promise<PrepareStepResult | void>;
  /** Polled between turns; a returned message is injected before the next model call. */
  consumePendingUserMessage?(): string | AgentMessage | undefined | Promise<string | AgentMessage | undefined>;
  /** Passed to every tool's `ctx.metadata` and every plugin's setup. */
  metadata?: { [key: string]: unknown };

  // Names Cline's SDK uses for the same things. Each works; giving both names of one thing is a ConfigError.
  /** Cline's name for `metadata`. */
  toolContextMetadata?: { [key: string]: unknown };
  /** Cline's name for `options`. */
  modelOptions?: ModelCallOptions;
  /** The model recorded on each assistant message (default: the model that answered). */
  messageModelInfo?: ModelRef;
  /** Who runs the agent, for telemetry: span attributes `heddle.distinct_id`, `heddle.client.*`. */
  distinctId?: string;
  clientName?: string;
  clientVersion?: string;
  clineCoreVersion?: string;
}

/**
 * Tracing (and metrics) of runs: give it (even `{}`) to get spans, leave it out for none, at no cost. The loop in
 * `@heddle/agents` reads it; its `AgentTelemetryOptions` types `tracer`, `meter` and `parentContext` as
 * OpenTelemetry's `Tracer`, `Meter` and `Context`. The contract keeps those three opaque so that it does not depend
 * on OpenTelemetry.
 */
export interface TelemetryOption {
  /** An OpenTelemetry `Tracer`. Default: the global tracer provider's tracer `@heddle/agents`. */
  tracer?: object;
  /** An OpenTelemetry `Meter`: when given, the GenAI client histograms. */
  meter?: object;
  /** Record prompts, outputs, tool arguments and results on the spans (default false: they can be secret). */
  recordContent?: boolean;
  /** The most characters of one recorded text (default 4096). */
  maxContentLength?: number;
  /** The OpenTelemetry `Context` the run's span is a child of. Default: the active context. */
  parentContext?: object;
}

/** Tools read before each model call. */
export type AgentToolSource = () => AgentTool[] | Promise<AgentTool[]>;
