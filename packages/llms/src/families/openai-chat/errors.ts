import type { ModelError } from "@heddle/shared";
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

/** What we read of an `openai` `APIError` (duck-typed: the client module is loaded lazily). */
interface OpenAIErrorLike {
  status?: number;
  headers?: Headers;
  code?: string | null;
  type?: string;
  error?: { code?: string | null; type?: string; message?: string } | null;
  message?: string;
}

const OVERFLOW_CODES = new Set(["context_length_exceeded", "string_above_max_length"]);
const OVERLOADED_CODES = new Set(["server_is_overloaded", "service_unavailable_error", "overloaded"]);

/**
 * Classifies what the `openai` client threw, for Chat Completions: the error code and type first (so a 429 for an
 * exhausted quota is not retried), the status next, the text only when neither decides.
 */
export function classifyOpenAIError(error: unknown, signal?: AbortSignal): ModelError {
  if (isAbortError(error, signal)) return modelError("aborted", "The request was aborted.");
  if (isNetworkError(error)) return modelError("network", `Network error: ${errorMessage(error)}`);
  if (!error || typeof error !== "object" || !("headers" in error || "status" in error || "error" in error))
    return classifyUnknownError(error, signal);
  const e = error as OpenAIErrorLike;
  const code = e.code ?? e.error?.code ?? undefined;
  const type = e.type ?? e.error?.type ?? undefined;
  const message = e.error?.message ?? e.message ?? errorMessage(error);
  const status = typeof e.status === "number" ? e.status : undefined;
  const extras = { ...(status !== undefined && { status }), retryAfterMs: retryAfterMsFromHeaders(e.headers) };
  if (extras.retryAfterMs === undefined) delete extras.retryAfterMs;

  if (code === "insufficient_quota" || type === "insufficient_quota")
    return modelError("rate_limit", message, { ...extras, retryable: false });
  if ((code && OVERFLOW_CODES.has(code)) || (status !== undefined && status < 500 && looksLikeContextOverflow(message)))
    return modelError("context_overflow", message, extras);
  if ((code && OVERLOADED_CODES.has(code)) || (type && OVERLOADED_CODES.has(type)))
    return modelError("overloaded", message, extras);
  if (code === "rate_limit_exceeded" || type === "rate_limit_error" || type === "tokens")
    return modelError("rate_limit", message, extras);
  if (status !== undefined) return modelError(kindForStatus(status), message, extras);
  // No status: an error object sent inside a 200 stream (`data: {"error": ...}`).
  if (type === "invalid_request_error") {
    const kind = looksLikeContextOverflow(message) ? "context_overflow" : "invalid_request";
    return modelError(kind, message, extras);
  }
  if (looksLikeContextOverflow(message)) return modelError("context_overflow", message, extras);
  return modelError("server", message, extras);
}
