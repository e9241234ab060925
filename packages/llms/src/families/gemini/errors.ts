import type { ModelError, ModelErrorKind } from "@heddle/shared";
import {
  classifyUnknownError,
  errorMessage,
  kindForStatus,
  looksLikeContextOverflow,
  modelError,
} from "../../errors.js";

/** The `error` object of a Gemini error body (`{"error": {code, message, status, details}}`). */
export interface GeminiErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ "@type"?: string; retryDelay?: string; reason?: string; [key: string]: unknown }>;
}

/**
 * `@google/genai` throws `ApiError {status, message}` where the message is the JSON error body, either bare
 * (non-OK HTTP response) or after a `got status: X. ` prefix (an error payload inside the stream).
 */
export function parseGeminiErrorBody(message: string): GeminiErrorBody | undefined {
  const start = message.indexOf("{");
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as { error?: unknown };
    const error = parsed?.error as GeminiErrorBody | undefined;
    if (!error || typeof error !== "object") return undefined;
    // A non-JSON content type (Gemini sends its stream errors as text/event-stream) makes the client wrap the raw
    // body text as the message of a synthetic error: the real error is inside.
    if (typeof error.message === "string" && error.message.trimStart().startsWith("{")) {
      return parseGeminiErrorBody(error.message) ?? error;
    }
    return error;
  } catch {
    // Not JSON: the caller falls back to the raw message.
  }
  return undefined;
}

/** `RetryInfo.retryDelay` is a protobuf Duration in JSON form: `"34s"`, `"0.5s"`. */
function retryDelayMs(body: GeminiErrorBody | undefined): number | undefined {
  for (const detail of body?.details ?? []) {
    if (!detail?.["@type"]?.endsWith("google.rpc.RetryInfo") || typeof detail.retryDelay !== "string") continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay.trim());
    if (match) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}

// gRPC status names Gemini puts in `error.status`; they refine what the HTTP status alone says.
const KIND_BY_VENDOR_STATUS: Record<string, ModelErrorKind> = {
  RESOURCE_EXHAUSTED: "rate_limit",
  UNAVAILABLE: "overloaded",
  UNAUTHENTICATED: "auth",
  PERMISSION_DENIED: "auth",
  INTERNAL: "server",
  DEADLINE_EXCEEDED: "server",
  INVALID_ARGUMENT: "invalid_request",
  FAILED_PRECONDITION: "invalid_request",
  NOT_FOUND: "invalid_request",
};

/**
 * An error event inside a Gemini stream (`data: {"error": {code, status, message}}`), read by Heddle's own reader:
 * classified like the client's `ApiError` for the same payload.
 */
export class GeminiStreamError extends Error {
  readonly status: number;
  constructor(status: number, payload: unknown) {
    // The client's own wording, which `parseGeminiErrorBody` reads back.
    super(`got status: ${status}. ${JSON.stringify(payload)}`);
    this.name = "GeminiStreamError";
    this.status = status;
  }
}

function isApiError(error: unknown): error is Error & { status: number } {
  if (error instanceof GeminiStreamError) return true;
  return (
    error instanceof Error && error.name === "ApiError" && typeof (error as { status?: unknown }).status === "number"
  );
}

/** Classifies anything `@google/genai` threw: its `ApiError` by status and vendor status first, text last. */
export function classifyGeminiError(error: unknown, signal?: AbortSignal): ModelError {
  if (signal?.aborted) return modelError("aborted", "The request was aborted.");
  if (isApiError(error)) {
    const body = parseGeminiErrorBody(error.message);
    const status = typeof body?.code === "number" && body.code >= 400 ? body.code : error.status;
    const vendorStatus = body?.status;
    let kind: ModelErrorKind = (vendorStatus && KIND_BY_VENDOR_STATUS[vendorStatus]) || kindForStatus(status);
    const text = body?.message ?? error.message;
    // A bad key is a 400 INVALID_ARGUMENT whose ErrorInfo reason says so.
    if (body?.details?.some((detail) => detail?.reason === "API_KEY_INVALID")) kind = "auth";
    else if (kind === "invalid_request" && looksLikeContextOverflow(text)) kind = "context_overflow";
    const label = vendorStatus ? `${status} ${vendorStatus}` : String(status);
    const extras: { status: number; retryAfterMs?: number } = { status };
    const retryAfterMs = retryDelayMs(body);
    if (retryAfterMs !== undefined) extras.retryAfterMs = retryAfterMs;
    return modelError(kind, `Gemini API error ${label}: ${text}`, extras);
  }
  const message = errorMessage(error);
  // The client's own words for a body that ended mid-event (the connection closed early).
  if (/^Incomplete JSON segment/.test(message)) {
    return modelError("network", `Network error: the stream ended mid-event (${message}).`);
  }
  if (/^exception parsing stream chunk/.test(message)) {
    return modelError("server", `Gemini sent a stream chunk that is not JSON: ${message}`);
  }
  return classifyUnknownError(error, signal);
}
