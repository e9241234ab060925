import type { ModelError, ModelErrorKind } from "@heddle/shared";

/** Kinds worth another attempt (before any output was produced): `modelError`'s default and the retry stage's rule. */
export const RETRYABLE_KINDS: ReadonlySet<ModelErrorKind> = new Set(["rate_limit", "overloaded", "server", "network"]);

/** A `ModelError` with `retryable` set from its kind unless given. */
export function modelError(
  kind: ModelErrorKind,
  message: string,
  extras: { status?: number; retryAfterMs?: number; retryable?: boolean } = {},
): ModelError {
  const error: ModelError = { kind, message, retryable: extras.retryable ?? RETRYABLE_KINDS.has(kind) };
  if (extras.status !== undefined) error.status = extras.status;
  if (extras.retryAfterMs !== undefined) error.retryAfterMs = extras.retryAfterMs;
  return error;
}

/** The kind an HTTP status means on its own (vendor error types refine it). */
export function kindForStatus(status: number): ModelErrorKind {
  if (status === 429) return "rate_limit";
  if (status === 529 || status === 503) return "overloaded";
  if (status === 401 || status === 403) return "auth";
  if (status === 413) return "context_overflow";
  if (status === 408) return "network";
  if (status >= 500) return "server";
  if (status >= 400) return "invalid_request";
  return "unknown";
}

type HeaderSource = Headers | Record<string, string | string[] | undefined | null> | undefined | null;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined | null>;
  const value = record[name] ?? record[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : (value ?? undefined);
}

/** `retry-after-ms`, or `retry-after` as seconds or an HTTP date, in milliseconds. */
export function retryAfterMsFromHeaders(headers: HeaderSource, now = Date.now()): number | undefined {
  const ms = header(headers, "retry-after-ms");
  if (ms !== undefined && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = header(headers, "retry-after");
  if (after === undefined || after.trim() === "") return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/**
 * Context-overflow wordings seen in real vendor errors, used only as a last resort when the status and the error
 * type do not decide (an OpenAI-compatible server's plain 400, say).
 */
const OVERFLOW_TEXT = [
  /prompt is too long/i, // Anthropic
  /context[_ ]length[_ ]exceeded/i, // OpenAI code
  /maximum context length/i, // OpenAI message
  /exceeds the (?:maximum|context) (?:number of tokens|window|length)/i, // Gemini, others
  /input token count .* exceeds/i, // Gemini
  /too many tokens/i,
  /context window/i,
  /reduce the length of the messages/i,
];

/** True when an error text reads as a context overflow. */
export function looksLikeContextOverflow(text: string): boolean {
  return OVERFLOW_TEXT.some((pattern) => pattern.test(text));
}

/** True for an abort, whatever shape the runtime or client gave it. */
export function isAbortError(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  if (!error || typeof error !== "object") return false;
  const name = (error as { name?: unknown }).name;
  return name === "AbortError" || name === "APIUserAbortError" || (error as { code?: unknown }).code === "ABORT_ERR";
}

const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** True for a transport failure: a refused or cut connection, a socket timeout, `fetch failed`, `terminated`. */
export function isNetworkError(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const { code, name, message } = current as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
    if (name === "APIConnectionError" || name === "APIConnectionTimeoutError") return true;
    if (typeof message === "string" && /^(fetch failed|terminated|other side closed|socket hang up)/i.test(message))
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/**
 * Classifies what a family could not classify itself: aborts, transport failures, a bare status. Families check
 * their vendor's error classes and error types first, and call this for the rest.
 */
export function classifyUnknownError(error: unknown, signal?: AbortSignal): ModelError {
  if (isAbortError(error, signal)) return modelError("aborted", "The request was aborted.");
  if (isNetworkError(error)) return modelError("network", `Network error: ${errorMessage(error)}`);
  const status = (error as { status?: unknown } | null)?.status;
  const message = errorMessage(error);
  if (typeof status === "number") {
    const kind = looksLikeContextOverflow(message) ? "context_overflow" : kindForStatus(status);
    return modelError(kind, message, { status });
  }
  if (looksLikeContextOverflow(message)) return modelError("context_overflow", message);
  return modelError("unknown", message);
}
