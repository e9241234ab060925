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
 * that rejects such a header may quote either part).
 */
export function secretsOf(apiKey: string | undefined): string[] {
  if (!apiKey) return [];
  const secrets = new Set<string>([apiKey]);
  for (const part of apiKey.split(/[\r\n]+/)) if (part.trim().length >= 6) secrets.add(part.trim());
  // Longest first, so a part never leaves a piece of the whole key behind.
  return [...secrets].sort((a, b) => b.length - a.length);
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
