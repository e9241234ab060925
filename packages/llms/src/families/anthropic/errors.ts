import type { ModelError, ModelErrorKind } from "@heddle/shared";
import {
  classifyUnknownError,
  errorMessage,
  kindForStatus,
  looksLikeContextOverflow,
  modelError,
  retryAfterMsFromHeaders,
} from "../../errors.js";

/** The error classes of `@anthropic-ai/sdk` we classify by; taken from the loaded module. */
export interface AnthropicErrorClasses {
  APIError: abstract new (...args: any[]) => Error;
  APIUserAbortError: abstract new (...args: any[]) => Error;
  APIConnectionError: abstract new (...args: any[]) => Error;
}

/**
 * An `error` event inside a Messages stream (an overload mid-response, say), as Heddle's own reader finds it:
 * classified by its `error.type` like an HTTP error's body. It never reaches a caller: the call ends with a `finish`.
 */
export class AnthropicStreamError extends Error {
  override readonly name = "AnthropicStreamError";
  constructor(
    /** The event's data, parsed; the raw text when it is not JSON. */
    readonly body: unknown,
  ) {
    super(typeof body === "string" ? body : JSON.stringify(body));
  }
}

/** The fields of an `APIError` we read. */
interface ApiErrorFields {
  status?: number;
  type?: string | null;
  apiMessage?: string | null;
  headers?: Headers;
  message: string;
}

/** Anthropic's `error.type` values and what they mean, whatever the status (in-stream errors have none). */
const TYPE_KINDS: Record<string, ModelErrorKind> = {
  overloaded_error: "overloaded",
  rate_limit_error: "rate_limit",
  authentication_error: "auth",
  permission_error: "auth",
  api_error: "server",
  timeout_error: "server",
  request_too_large: "context_overflow",
  invalid_request_error: "invalid_request",
  not_found_error: "invalid_request",
  billing_error: "invalid_request",
};

/**
 * Classifies a failure of the Anthropic client: the SDK's error class first, then the vendor's `error.type`, then
 * the HTTP status, and the message text only to tell a context overflow from another invalid request (the API has
 * no distinct type for it: "prompt is too long: N tokens > M maximum").
 */
export function classifyAnthropicError(
  error: unknown,
  signal: AbortSignal | undefined,
  sdk: AnthropicErrorClasses | undefined,
): ModelError {
  if (signal?.aborted || (sdk && error instanceof sdk.APIUserAbortError)) {
    return modelError("aborted", "The request was aborted.");
  }
  if (sdk && error instanceof sdk.APIConnectionError) {
    return modelError("network", `Network error: ${describeCause(error)}`);
  }
  if (error instanceof AnthropicStreamError) return classifyApiError(streamErrorFields(error));
  if (!sdk || !(error instanceof sdk.APIError)) return classifyUnknownError(error, signal);
  return classifyApiError(error as unknown as ApiErrorFields);
}

/** What the SDK's `APIError` holds for an in-stream error: no status, the vendor's type and message. */
function streamErrorFields(error: AnthropicStreamError): ApiErrorFields {
  const inner = (error.body as { error?: { type?: unknown; message?: unknown } } | null)?.error;
  return {
    type: typeof inner?.type === "string" ? inner.type : null,
    apiMessage: typeof inner?.message === "string" ? inner.message : null,
    message: error.message,
  };
}

function classifyApiError(api: ApiErrorFields): ModelError {
  const status = typeof api.status === "number" ? api.status : undefined;
  const message = api.apiMessage ?? api.message;
  const statusKind = status ? kindForStatus(status) : undefined;
  let kind: ModelErrorKind = (api.type && TYPE_KINDS[api.type]) || statusKind || "unknown";
  // A 529/503 is the API saying it is overloaded even when the body names a generic api_error.
  if (kind === "server" && statusKind === "overloaded") kind = "overloaded";
  if (kind === "invalid_request" && looksLikeContextOverflow(message)) kind = "context_overflow";
  const retryAfterMs = retryAfterMsFromHeaders(api.headers);
  const prefix = api.type ? `Anthropic ${api.type}` : "Anthropic error";
  return modelError(kind, `${prefix}${status ? ` (HTTP ${status})` : ""}: ${message}`, {
    ...(status !== undefined && { status }),
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  });
}

/** A connection error's message names only "Connection error."; the cause says what broke. */
function describeCause(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause ? `${error.message} (${errorMessage(cause)})` : error.message;
}
