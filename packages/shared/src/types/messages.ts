/** Messages: part of Heddle's public contract (see `index.ts`). */

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
