/**
 * The whole public model of Heddle in one file: messages, the model seam, tools, runtime events, hooks,
 * plugins, run configuration and results. Every other package speaks these shapes; vendors are converted
 * at the edge, in `@heddle/llms`.
 */

// ───────────────────────────── JSON ─────────────────────────────

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON Schema document (draft 2020-12 as produced by `z.toJSONSchema`, or hand-written). */
export type JsonSchema = { [key: string]: unknown };

// ─────────────────────────── Messages ───────────────────────────

/** Who wrote a message: the user, the model, or the loop reporting tool results. */
export type MessageRole = "user" | "assistant" | "tool";

/**
 * Vendor-bound data attached to a part, keyed by the wire family that produced it
 * (`anthropic`, `openai`, `openai-chat`, `gemini`), so it is only ever sent back to that family.
 */
export type ProviderMetadata = { [family: string]: { [key: string]: unknown } };

/** Plain text. */
export interface TextPart {
  type: "text";
  text: string;
}

/** An image, inline as base64. */
export interface ImagePart {
  type: "image";
  /** IANA media type, e.g. `image/png`. */
  mediaType: string;
  /** Base64 data without a `data:` prefix. */
  data: string;
}

/** The model's reasoning, with the vendor's signature or encrypted payload kept for the next request. */
export interface ReasoningPart {
  type: "reasoning";
  text: string;
  /** Anthropic `signature`, Gemini `thoughtSignature`, ...: opaque, sent back verbatim to its own vendor. */
  signature?: string;
  /** True when the vendor hid the reasoning (Anthropic `redacted_thinking`); `providerMetadata` holds the data. */
  redacted?: boolean;
  providerMetadata?: ProviderMetadata;
}

/** A call the model asked for. `input` is the parsed arguments. */
export interface ToolCallPart {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  input: unknown;
  providerMetadata?: ProviderMetadata;
}

/** What a tool result carries: text, or text and images for vendors that accept images in results. */
export type ToolResultOutput = string | Array<TextPart | ImagePart>;

/** The result of one tool call, matched to its call by `toolCallId`. */
export interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: ToolResultOutput;
  /** True when the call failed: bad input, unknown tool, a throw, a timeout, a denial. */
  isError?: boolean;
}

/** Any part of a message's content. */
export type ContentPart = TextPart | ImagePart | ReasoningPart | ToolCallPart | ToolResultPart;

/** Why a model response ended, the same for every vendor. */
export type FinishReason = "stop" | "tool-calls" | "max-tokens" | "content-filter" | "aborted" | "error";

/** Which provider and model produced an assistant message. */
export interface ModelRef {
  provider: string;
  id: string;
}

/**
 * One message in the neutral shape. A `tool` message carries the results of one assistant turn, in call order.
 */
export interface AgentMessage {
  id: string;
  role: MessageRole;
  content: ContentPart[];
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** The provider/model that produced an assistant message. */
  model?: ModelRef;
  /** Usage of the model response that produced an assistant message. */
  usage?: AgentUsage;
  finishReason?: FinishReason;
  metadata?: { [key: string]: unknown };
}

/** Token counts and cost. `inputTokens` excludes cache reads and writes: the prompt size is their sum. */
export interface AgentUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  /** USD from the model catalog; 0 when the model's prices are unknown. */
  costUsd: number;
}

// ─────────────────────────── The model seam ───────────────────────────

/** A tool as the model sees it. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** How the model may use tools on this request. */
export type ToolChoice = "auto" | "none" | "required" | { type: "tool"; toolName: string };

/** One knob for reasoning: a named effort, or a token budget, or off. */
export type ReasoningOption =
  | "off"
  | { effort: "minimal" | "low" | "medium" | "high"; budgetTokens?: number }
  | { budgetTokens: number; effort?: "minimal" | "low" | "medium" | "high" };

/** Per-request options, mapped to each vendor's own parameters. */
export interface ModelCallOptions {
  maxTokens?: number;
  temperature?: number;
  stopSequences?: string[];
  toolChoice?: ToolChoice;
  reasoning?: ReasoningOption;
  /** Prompt caching: Anthropic breakpoints on system, tools and last user turn; automatic elsewhere. */
  cacheRetention?: "none" | "short" | "long";
  /** Extra HTTP headers for this request. */
  headers?: { [name: string]: string };
  /** Raw vendor parameters merged into the request body, keyed by family. Escape hatch; not portable. */
  providerOptions?: { [family: string]: { [key: string]: unknown } };
}

/** What the loop asks of a model. */
export interface AgentModelRequest {
  systemPrompt?: string;
  messages: AgentMessage[];
  tools: ToolDefinition[];
  options?: ModelCallOptions;
  signal?: AbortSignal;
}

/** The kinds of model failure, classified from status codes and error types (text only as a last resort). */
export type ModelErrorKind =
  | "rate_limit"
  | "overloaded"
  | "context_overflow"
  | "auth"
  | "invalid_request"
  | "network"
  | "server"
  | "aborted"
  | "unknown";

/** A model failure, as data. `stream()` never throws: it ends with `finish {reason:"error", error}`. */
export interface ModelError {
  kind: ModelErrorKind;
  message: string;
  /** HTTP status, when there was one. */
  status?: number;
  retryable: boolean;
  retryAfterMs?: number;
}

/** Streamed text. */
export interface TextDeltaEvent {
  type: "text-delta";
  text: string;
}

/** Streamed reasoning; `signature` may arrive on a delta of its own. */
export interface ReasoningDeltaEvent {
  type: "reasoning-delta";
  text: string;
  signature?: string;
  redacted?: boolean;
  metadata?: ProviderMetadata;
}

/**
 * A fragment of a tool call. The first fragment of a call carries its id and name; later ones may carry only
 * its index. `inputText` fragments are appended; a complete `input` object wins over text.
 */
export interface ToolCallDeltaEvent {
  type: "tool-call-delta";
  index?: number;
  toolCallId?: string;
  toolName?: string;
  inputText?: string;
  input?: unknown;
  metadata?: ProviderMetadata;
}

/** Usage of one model response: emitted once, at its end, with that response's totals. */
export interface UsageEvent {
  type: "usage";
  usage: Partial<AgentUsage>;
}

/** A retry the gateway is about to make (before any output was produced), so a UI can show it. */
export interface RetryEvent {
  type: "retry";
  attempt: number;
  delayMs: number;
  error: ModelError;
}

/** The end of a model response. Always the last event. */
export interface FinishEvent {
  type: "finish";
  reason: FinishReason;
  error?: ModelError;
}

/** Everything a model stream can emit. */
export type AgentModelEvent =
  | TextDeltaEvent
  | ReasoningDeltaEvent
  | ToolCallDeltaEvent
  | UsageEvent
  | RetryEvent
  | FinishEvent;

/** Prices in USD per million tokens. */
export interface ModelPricing {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** What the catalog knows about a model. */
export interface ModelInfo {
  provider: string;
  id: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** Absent when no published price was found. */
  pricing?: ModelPricing;
  supports: { tools: boolean; reasoning: boolean; images: boolean };
}

/** The only thing the loop needs from a provider. `stream()` never throws. */
export interface AgentModel {
  provider: string;
  modelId: string;
  info?: ModelInfo;
  stream(request: AgentModelRequest): AsyncIterable<AgentModelEvent>;
}

// ─────────────────────────── Tools ───────────────────────────

/** What a tool's `execute` receives besides its input. */
export interface ToolContext {
  toolCallId: string;
  /** Aborted when the run is aborted or the tool's timeout passes. */
  signal: AbortSignal;
  metadata: { [key: string]: unknown };
  /** Report progress; becomes a `tool-updated` event. */
  emitUpdate(update: unknown): void;
}

/** The outcome of validating a tool's input before `execute`. */
export type ToolInputValidation<I> = { ok: true; value: I } | { ok: false; error: string };

/** A tool the model can call. */
export interface AgentTool<I = any, O = unknown> {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  execute(input: I, ctx: ToolContext): O | Promise<O>;
  /** Checks input before `execute`; `createTool` fills it from the zod schema. Without it, JSON Schema is used. */
  validate?(input: unknown): ToolInputValidation<I>;
  /** The loop cuts the call after this long and reports a timeout to the model. */
  timeoutMs?: number;
  /** Extra attempts after a thrown error (not after a validation error). */
  maxRetries?: number;
  lifecycle?: { completesRun?: boolean };
  /** Does not change anything outside the run; safe to run in parallel and to auto-approve. */
  readOnly?: boolean;
}

/** Whether a tool may run, and whether it runs without asking. Keyed by tool name or `"*"`. */
export interface ToolPolicy {
  enabled?: boolean;
  autoApprove?: boolean;
}

/** What `requestToolApproval` is asked. */
export interface ToolApprovalRequest {
  toolCall: { toolCallId: string; toolName: string; input: unknown };
  tool: AgentTool;
  input: unknown;
}

/** The host's answer to an approval request. `updatedInput` replaces the input when approved. */
export interface ToolApprovalDecision {
  approved: boolean;
  reason?: string;
  updatedInput?: unknown;
}

/** A tool call that was not allowed to run. */
export interface PermissionDenial {
  toolCallId: string;
  toolName: string;
  input: unknown;
  reason?: string;
}

// ─────────────────────────── Run results ───────────────────────────

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

// ─────────────────────────── Runtime events ───────────────────────────

/** Fields every runtime event carries. */
export interface AgentEventBase {
  agentId: string;
  runId: string;
  iteration: number;
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
  runId?: string;
  running: boolean;
  iteration: number;
  messages: AgentMessage[];
  usage: AgentUsage;
}

// ─────────────────────────── Hooks ───────────────────────────

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

// ─────────────────────────── Plugins ───────────────────────────

/** What a plugin's `setup` receives. */
export interface PluginSetupContext {
  agentId: string;
  sessionId?: string;
  conversationId?: string;
  /** Host-provided values (a workspace root, a logger, ...). */
  metadata: { [key: string]: unknown };
}

/** What a plugin contributes. */
export interface PluginSetupResult {
  tools?: AgentTool[];
  hooks?: AgentHooks;
}

/** A plugin: set up once, lazily, before the first run. */
export interface AgentPlugin {
  name: string;
  setup(ctx: PluginSetupContext): PluginSetupResult | Promise<PluginSetupResult>;
}

// ─────────────────────────── Run configuration ───────────────────────────

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

/** What `prepareTurn` sees. */
export interface PrepareTurnContext {
  iteration: number;
  messages: readonly AgentMessage[];
  systemPrompt?: string;
  modelInfo?: ModelInfo;
  /** True on the one retry after a `context_overflow` error: shrink the request. */
  overflowRecovery: boolean;
  signal: AbortSignal;
}

/** The projected request for this turn. The transcript itself is never touched. */
export interface PrepareTurnResult {
  messages?: AgentMessage[];
  systemPrompt?: string;
}

/** Ask the model to finish through a completion tool instead of simply stopping. */
export interface CompletionPolicy {
  requireCompletionTool: boolean;
  /** Text of the one reminder sent when the model stops without calling it. */
  reminder?: string;
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
export interface AgentRuntimeConfig extends Partial<ProviderModelConfig> {
  model?: AgentModel;
  /** Default request options (max tokens, temperature, reasoning, caching, ...). */
  options?: ModelCallOptions;
  systemPrompt?: string;
  tools?: AgentTool[];
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
  prepareTurn?(ctx: PrepareTurnContext): PrepareTurnResult | void | Promise<PrepareTurnResult | void>;
  /** Polled between turns; a returned message is injected before the next model call. */
  consumePendingUserMessage?(): string | AgentMessage | undefined | Promise<string | AgentMessage | undefined>;
  agentId?: string;
  conversationId?: string;
  sessionId?: string;
  parentAgentId?: string;
  agentRole?: string;
  /** Passed to every tool's `ctx.metadata` and every plugin's setup. */
  metadata?: { [key: string]: unknown };
}
