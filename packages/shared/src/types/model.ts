/** The model seam: part of Heddle's public contract (see `index.ts`). */
import type { JsonSchema } from "./json.js";
import type { AgentMessage, AgentUsage, FinishReason, ProviderMetadata } from "./messages.js";

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
  /**
   * Whether the caller wants `tool-call-delta` events (a live preview of a call's arguments as they stream).
   * `false`: the model may leave them out; every call still comes as `tool-call-start` … `tool-call-end` with the
   * whole input. Default: wanted. The agent loop asks for none: it runs calls from their end events only.
   */
  toolCallDeltas?: boolean;
  /**
   * Whether the caller wants the vendor's response id and model on `finish` (`FinishEvent.response`), e.g. for a
   * trace. Default: left out. The agent loop asks for them when a run has telemetry.
   */
  responseInfo?: boolean;
  /**
   * Provider-side tools (a vendor's web search, code execution, ...) in the vendor's own shape: appended unchanged
   * to the request's tool list by the family that sends it. Calls the provider runs itself never come back as
   * tool calls to run locally.
   */
  modelTools?: unknown[];
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
 * A tool call begins. `id` is unique within the response (the gateway invents one where the vendor gives none,
 * as Gemini often does); every later event of this call names it. `metadata` is vendor data the call must carry
 * back on the next request (an OpenAI item id, a Gemini thought signature).
 */
export interface ToolCallStartEvent {
  type: "tool-call-start";
  id: string;
  name: string;
  metadata?: ProviderMetadata;
}

/**
 * A piece of a call's argument text, as the vendor streamed it, for display only (a live preview): the gateway
 * has already accumulated it, and `tool-call-end` carries the result. Vendors that send arguments whole (Gemini)
 * send no deltas.
 */
export interface ToolCallDeltaEvent {
  type: "tool-call-delta";
  id: string;
  text: string;
}

/** A call's arguments are complete and parsed (repaired where a slip lost nothing). */
export interface ToolCallEndInput {
  type: "tool-call-end";
  id: string;
  input: unknown;
  rawText?: undefined;
  error?: undefined;
}

/**
 * A call's arguments could not be read: not JSON, cut off (a truncated value is never completed), too deep or
 * too large. `rawText` is what the model sent; the loop answers the call with an error result.
 */
export interface ToolCallEndError {
  type: "tool-call-end";
  id: string;
  input?: undefined;
  rawText: string;
  error: string;
}

/** The end of a tool call: `input` when the arguments parsed, `rawText` and `error` when they did not. */
export type ToolCallEndEvent = ToolCallEndInput | ToolCallEndError;

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
  /**
   * What the vendor said about the response, when it said: its id (`msg_...`, `chatcmpl-...`, `resp_...`) and the
   * model that actually answered (often a dated version of the requested one). For tracing.
   */
  response?: ResponseInfo;
}

/** The vendor's own id of a response and the model that produced it. */
export interface ResponseInfo {
  id?: string;
  model?: string;
}

/**
 * Everything a model stream can emit (stream protocol 2). Tool calls are blocks: `tool-call-start`, any number of
 * `tool-call-delta`, then one `tool-call-end`, all keyed by `id`; blocks of different calls may interleave. Every
 * started call ends before a `finish` of reason `stop`, `tool-calls` or `max-tokens`; after an `error` or `aborted`
 * finish, calls left open are incomplete and must not run.
 */
export type AgentModelEvent =
  | TextDeltaEvent
  | ReasoningDeltaEvent
  | ToolCallStartEvent
  | ToolCallDeltaEvent
  | ToolCallEndEvent
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
  /** The endpoint the model is reached at, when known (the gateway sets it): for traces (`server.address`). */
  baseUrl?: string;
  stream(request: AgentModelRequest): AsyncIterable<AgentModelEvent>;
}
