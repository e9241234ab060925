import type { ModelError, ModelErrorKind } from "@heddle/shared";
import {
  classifyUnknownError,
  errorMessage,
  isAbortError,
  isNetworkError,
  kindForStatus,
  looksLikeContextOverflow,
  modelError,
  retryAfterMsFromHeaders,
} from "../../errors.js";
import { lazyModule } from "../../lazy-module.js";
import { type OpenAIErrorBody, OpenAIStreamError } from "./events.js";

export type { OpenAIErrorBody };

/**
 * OpenAI error codes and types (HTTP bodies, in-stream `error` events, `response.failed`) and what they mean: one
 * table for both OpenAI families (Chat Completions and Responses) and every OpenAI-compatible server.
 */
const KIND_BY_CODE: Record<string, ModelErrorKind> = {
  context_length_exceeded: "context_overflow",
  string_above_max_length: "context_overflow",
  rate_limit_exceeded: "rate_limit",
  rate_limit_error: "rate_limit",
  tokens: "rate_limit",
  insufficient_quota: "rate_limit",
  server_is_overloaded: "overloaded",
  service_unavailable_error: "overloaded",
  overloaded: "overloaded",
  slow_down: "overloaded",
  server_error: "server",
  invalid_api_key: "auth",
  invalid_authentication: "auth",
  authentication_error: "auth",
  permission_denied: "auth",
  invalid_request_error: "invalid_request",
  invalid_prompt: "invalid_request",
  model_not_found: "invalid_request",
};

/** Codes that name a real failure but where another attempt cannot help. */
const NOT_RETRYABLE = new Set(["insufficient_quota"]);

/**
 * Classifies an OpenAI error from its status, then its code, then its type; the message text only when neither
 * decides (an OpenAI-compatible server's bare 400, say). `status` is undefined for in-stream errors.
 */
export function classifyOpenAIErrorBody(
  body: OpenAIErrorBody | undefined,
  extras: { status?: number; retryAfterMs?: number; fallbackMessage?: string } = {},
): ModelError {
  const { status, retryAfterMs } = extras;
  const message = body?.message || extras.fallbackMessage || "The OpenAI API reported an error.";
  const code = body?.code ?? undefined;
  const type = body?.type ?? undefined;
  let kind: ModelErrorKind | undefined = (code && KIND_BY_CODE[code]) || undefined;
  // A status that names a transient condition outranks a generic type such as `invalid_request_error`.
  if (!kind && status !== undefined && status !== 400) kind = kindForStatus(status);
  // Last resort, before the generic type: compatible servers report an overflow as a bare 400 with its wording.
  if (!kind && looksLikeContextOverflow(message)) kind = "context_overflow";
  kind ??= (type && KIND_BY_CODE[type]) || undefined;
  kind ??= status !== undefined ? kindForStatus(status) : "server";
  const retryable = (code && NOT_RETRYABLE.has(code)) || (type && NOT_RETRYABLE.has(type)) ? false : undefined;
  const tag = code ?? type;
  return modelError(kind, tag ? `${message} (${tag})` : message, {
    ...(status !== undefined ? { status } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(retryable !== undefined ? { retryable } : {}),
  });
}

/** The `openai` module's error classes (the module is loaded lazily, so they are handed in). */
export interface OpenAIErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
}

/** True for what looks like the `openai` client's `APIError` (duck-typed when the classes are not at hand). */
function isApiError(error: unknown, classes: OpenAIErrorClasses | undefined): boolean {
  if (classes) return error instanceof classes.APIError;
  return !!error && typeof error === "object" && ("headers" in error || "status" in error || "error" in error);
}

/**
 * Classifies anything the `openai` client threw, for both OpenAI families. Its `APIError` carries the status,
 * headers and the vendor's error body (for HTTP errors and for the in-stream `error` events it throws on); aborts
 * and connection errors are its subclasses without a status. Without `classes` the error is duck-typed.
 */
export function classifyOpenAIError(error: unknown, signal?: AbortSignal, classes?: OpenAIErrorClasses): ModelError {
  if (isAbortError(error, signal) || (classes && error instanceof classes.APIUserAbortError)) {
    return modelError("aborted", "The request was aborted.");
  }
  if ((classes && error instanceof classes.APIConnectionError) || isNetworkError(error)) {
    const cause = (error as { cause?: unknown }).cause;
    return modelError("network", `Network error: ${errorMessage(cause ?? error)}`);
  }
  if (error instanceof OpenAIStreamError)
    return classifyOpenAIErrorBody(error.body, { fallbackMessage: error.message });
  if (!isApiError(error, classes)) return classifyUnknownError(error, signal);
  const apiError = error as Error & {
    status?: number;
    headers?: Headers;
    error?: OpenAIErrorBody;
    code?: string | null;
    type?: string | null;
  };
  const body: OpenAIErrorBody = {
    code: apiError.code ?? apiError.error?.code,
    type: apiError.type ?? apiError.error?.type,
    message: apiError.error?.message ?? apiError.message,
  };
  const retryAfterMs = apiError.status !== undefined ? retryAfterMsFromHeaders(apiError.headers) : undefined;
  return classifyOpenAIErrorBody(body, {
    ...(apiError.status !== undefined ? { status: apiError.status } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    fallbackMessage: apiError.message,
  });
}

/** Usage as Heddle counts it from OpenAI's counts: the prompt count includes cached tokens, which are billed apart. */
export function openAIUsage(counts: {
  prompt?: number | null;
  completion?: number | null;
  cached?: number | null;
  cacheWrite?: number | null;
  reasoning?: number | null;
}): {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
} {
  const cacheRead = counts.cached ?? 0;
  const cacheWrite = counts.cacheWrite ?? 0;
  return {
    inputTokens: Math.max(0, (counts.prompt ?? 0) - cacheRead - cacheWrite),
    outputTokens: counts.completion ?? 0,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    reasoningTokens: counts.reasoning ?? 0,
  };
}

/**
 * The `openai` client, loaded once for both OpenAI families on the first request. The build ships it bundled
 * (`#vendor/openai`, docs/llms.md); tests run the package itself.
 */
export const loadOpenAI = lazyModule(() => import("../../vendor/openai.js"));
