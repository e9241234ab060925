import type { ModelError, ModelErrorKind } from "@heddle/shared";
import {
  classifyUnknownError,
  errorMessage,
  isAbortError,
  kindForStatus,
  looksLikeContextOverflow,
  modelError,
  retryAfterMsFromHeaders,
} from "../../errors.js";

/** OpenAI error codes and types (HTTP bodies, in-stream `error` events, `response.failed`) and what they mean. */
const KIND_BY_CODE: Record<string, ModelErrorKind> = {
  context_length_exceeded: "context_overflow",
  rate_limit_exceeded: "rate_limit",
  insufficient_quota: "rate_limit",
  server_is_overloaded: "overloaded",
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

/** An OpenAI error body, as the HTTP error, the in-stream `error` event (flat or nested) or `response.failed` give it. */
export interface OpenAIErrorBody {
  code?: string | null;
  type?: string | null;
  message?: string | null;
  param?: string | null;
}

/**
 * Classifies an OpenAI error from its status, then its code, then its type; the message text only when neither
 * decides (an OpenAI-compatible server's bare 400, say). `status` is undefined for in-stream errors.
 */
export function classifyOpenAIErrorBody(
  body: OpenAIErrorBody | undefined,
  extras: { status?: number; retryAfterMs?: number; fallbackMessage?: string } = {},
): ModelError {
  const { status, retryAfterMs } = extras;
  const message = body?.message || extras.fallbackMessage || "The OpenAI Responses API reported an error.";
  const code = body?.code ?? undefined;
  const type = body?.type ?? undefined;
  let kind: ModelErrorKind | undefined = (code && KIND_BY_CODE[code]) || undefined;
  // A status that names a transient condition outranks a generic type such as `invalid_request_error`.
  if (!kind && status !== undefined && status !== 400) kind = kindForStatus(status);
  // Last resort, before the generic type: compatible servers report an overflow as a bare 400 with its wording.
  if (!kind && looksLikeContextOverflow(message)) kind = "context_overflow";
  kind ??= (type && KIND_BY_CODE[type]) || undefined;
  kind ??= status !== undefined ? kindForStatus(status) : "server";
  const retryable = code && NOT_RETRYABLE.has(code) ? false : undefined;
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

/**
 * Classifies anything the `openai` client threw. Its `APIError` carries the status, headers and the vendor's
 * error body (for HTTP errors and for the in-stream `error` events it throws on); aborts and connection errors
 * are its subclasses without a status.
 */
export function classifyOpenAIError(error: unknown, signal: AbortSignal, classes?: OpenAIErrorClasses): ModelError {
  if (isAbortError(error, signal) || (classes && error instanceof classes.APIUserAbortError)) {
    return modelError("aborted", "The request was aborted.");
  }
  if (classes && error instanceof classes.APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    return modelError("network", `Network error: ${errorMessage(cause ?? error)}`);
  }
  if (!classes || !(error instanceof classes.APIError)) return classifyUnknownError(error, signal);
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
