import type { AgentModelEvent, AgentUsage, ModelError } from "@heddle/shared";

const USAGE_FIELDS = ["inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", "reasoningTokens"] as const;

/**
 * Usage as the server reported it, with every count a finite number >= 0: a server that sends `"lots"`, `null`,
 * `-5` or `1e400` gets 0 for that field, so no NaN or Infinity reaches costs, budgets or stored totals.
 */
export function sanitizeUsage(usage: Partial<AgentUsage>): Partial<AgentUsage> {
  let clean: Partial<AgentUsage> | undefined;
  for (const field of USAGE_FIELDS) {
    if (!(field in usage)) continue;
    const value = usage[field] as unknown;
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) continue;
    clean ??= { ...usage };
    clean[field] = 0;
  }
  return clean ?? usage;
}

const REDACTED = "[redacted]";

/**
 * The secrets to hide from error messages: the API key, and each line of a key that holds a line break (a client
 * that rejects such a header may quote either part); each also URL-encoded (a server that echoes the query string
 * or a form body quotes it so) and base64-encoded wherever it sits in a longer base64 text (`Basic` auth of
 * `user:key` or `key:`, a token that embeds it).
 */
export function secretsOf(apiKey: string | undefined): string[] {
  if (!apiKey) return [];
  const plain = new Set<string>([apiKey]);
  for (const part of apiKey.split(/[\r\n]+/)) if (part.trim().length >= 6) plain.add(part.trim());
  const secrets = new Set<string>(plain);
  for (const secret of plain) {
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) {
      secrets.add(encoded);
      // Some encoders write the hex digits in lower case.
      secrets.add(encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
    }
    for (const core of base64Cores(secret)) {
      secrets.add(core);
      secrets.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
    }
  }
  // Longest first, so a part never leaves a piece of the whole key behind.
  return [...secrets].sort((a, b) => b.length - a.length);
}

/** Shorter base64 runs could occur by chance in other text; a key this short is not looked for encoded. */
const MIN_BASE64_CORE = 8;

/**
 * The base64 characters that encode `secret` alone, for each of the 3 byte offsets it can start at in a longer
 * text: base64 maps 3 bytes to 4 characters, so the key's characters depend on where it starts, and the first and
 * last few (shared with the neighbouring bytes) are left out. Any base64 text containing the key contains one.
 */
function base64Cores(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    let binary = "\0".repeat(offset);
    for (const byte of bytes) binary += String.fromCharCode(byte);
    const encoded = btoa(binary);
    // Character i holds bits [6i, 6i + 6); keep those entirely inside the key's bits.
    const first = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    const core = encoded.slice(first, end);
    if (core.length >= MIN_BASE64_CORE) cores.push(core);
  }
  return cores;
}

/** The text with every secret replaced by `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

function redactError(error: ModelError, secrets: readonly string[]): ModelError {
  const message = redact(error.message, secrets);
  return message === error.message ? error : { ...error, message };
}

/** An event with its error message redacted (finish, retry); other events as they are. */
export function redactEvent(event: AgentModelEvent, secrets: readonly string[]): AgentModelEvent {
  if (secrets.length === 0) return event;
  if (event.type === "finish" && event.error) return { ...event, error: redactError(event.error, secrets) };
  if (event.type === "retry") return { ...event, error: redactError(event.error, secrets) };
  return event;
}
