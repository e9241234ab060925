import type { AgentModelEvent, AgentModelRequest, ModelCallOptions, ModelError, ModelInfo } from "@heddle/shared";
import type { StreamLimits } from "./call-link.js";

export type { StreamLimits } from "./call-link.js";

/** The wire formats Heddle speaks, each on the vendor's official client. */
export type WireFamilyId = "anthropic" | "openai" | "openai-chat" | "gemini";

/** How a user configures a provider: key, base URL and headers override the provider's defaults. */
export interface ProviderConfig {
  providerId: string;
  /** Falls back to the provider's usual environment variable (`ANTHROPIC_API_KEY`, ...). */
  apiKey?: string;
  /** Handed to the vendor client as its base URL (`…/v1` for the OpenAI families, the host root otherwise). */
  baseUrl?: string;
  headers?: Record<string, string>;
  /** Default request options for every model of this provider. */
  options?: ModelCallOptions;
  /** Idle timeout and response-size cap for every model of this provider (a model's own limits win). */
  limits?: StreamLimits;
}

/** A provider's own tool-call id rule (see `ProviderSpec.toolCallIds`). */
export type ToolCallIdRule = "nine-alphanumeric";

/** A provider the gateway knows: built in (a preset) or added with `registerProvider`. */
export interface ProviderSpec {
  id: string;
  /** Human-readable name for listings. */
  name: string;
  family: WireFamilyId;
  /** Default base URL; undefined means the vendor client's own default. */
  baseUrl?: string;
  /** Environment variables tried in order for the key. */
  apiKeyEnv?: string[];
  /** False for local servers (Ollama, LM Studio, ...) that take any key. */
  requiresApiKey?: boolean;
  /** True when the provider has no usable default base URL and every config must give one (`openai-compatible`). */
  requiresBaseUrl?: boolean;
  /**
   * The provider's own rule for tool-call ids, when stricter than its family's: `"nine-alphanumeric"` (Mistral:
   * exactly 9 characters of a-z, A-Z, 0-9). Ids in a transcript that break it are rewritten before each request.
   */
  toolCallIds?: ToolCallIdRule;
  /** Models this provider offers beyond the catalog's (or instead of it). */
  models?: ModelInfo[];
  headers?: Record<string, string>;
}

/** Everything one attempt at a model call needs. Built by the gateway; consumed by a wire family. */
export interface FamilyCallContext {
  providerId: string;
  modelId: string;
  apiKey?: string;
  baseUrl?: string;
  headers?: Record<string, string>;
  info?: ModelInfo;
  /** The request, already made valid for this family (handoff applied) and with options merged. */
  request: AgentModelRequest;
  /** Aborts this attempt: the caller's signal. */
  signal: AbortSignal;
  /** Idle timeout and size cap for this call; defaults apply to what is unset. */
  limits?: StreamLimits;
}

/**
 * One wire family. `streamOnce` makes a single attempt: it yields the neutral events and ends with `finish`.
 * It never throws: a failure is `finish {reason:"error", error}` with a classified `ModelError`. Retries, cost and
 * handoff are the gateway's, done once for every family. The `usage` event carries no `costUsd`.
 */
export interface WireFamily {
  id: WireFamilyId;
  streamOnce(ctx: FamilyCallContext): AsyncIterable<AgentModelEvent>;
}

/** When and how the gateway retries a failed call (only before the first output event). */
export interface RetryPolicy {
  /** Attempts after the first; 0 turns retries off. Default 3. */
  maxRetries?: number;
  /** First backoff delay; doubles each retry. Default 500 ms. */
  initialDelayMs?: number;
  /** Cap on one delay, `retry-after` included. Default 30 s. */
  maxDelayMs?: number;
  /** Share of random jitter, 0..1. Default 0.2. */
  jitter?: number;
  /** Called before each retry, as the `retry` event is emitted. */
  onRetry?(info: { attempt: number; delayMs: number; error: ModelError; providerId: string; modelId: string }): void;
}
