import type { AgentModelEvent, ModelError } from "@heddle/shared";
import { classifyUnknownError, modelError } from "./errors.js";
import type { RetryPolicy } from "./types.js";

/** The defaults: 3 retries, 500 ms doubling, capped at 30 s, ±20 % jitter. */
export const DEFAULT_RETRY_POLICY: Required<Omit<RetryPolicy, "onRetry">> = {
  maxRetries: 3,
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  jitter: 0.2,
};

const RETRYABLE_KINDS = new Set<ModelError["kind"]>(["rate_limit", "overloaded", "server", "network"]);

/** The wait before retry number `attempt` (1-based): the server's `retry-after` if given, else backoff; capped. */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  error: ModelError | undefined,
  random: () => number = Math.random,
): number {
  const initial = policy.initialDelayMs ?? DEFAULT_RETRY_POLICY.initialDelayMs;
  const cap = policy.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs;
  const jitter = Math.min(1, Math.max(0, policy.jitter ?? DEFAULT_RETRY_POLICY.jitter));
  if (error?.retryAfterMs !== undefined) return Math.min(cap, Math.max(0, error.retryAfterMs));
  const base = initial * 2 ** (attempt - 1);
  const spread = base * jitter * (random() * 2 - 1);
  return Math.round(Math.min(cap, Math.max(0, base + spread)));
}

function isOutput(event: AgentModelEvent): boolean {
  return event.type === "text-delta" || event.type === "reasoning-delta" || event.type === "tool-call-delta";
}

/** Resolves after `ms`, or at once (with `false`) when the signal aborts. Removes its listener either way. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export interface RetryContext {
  policy: RetryPolicy;
  signal: AbortSignal;
  providerId: string;
  modelId: string;
  random?: () => number;
  /** Applied to every event the attempt yields (the gateway prices usage here). */
  map?: (event: AgentModelEvent) => AgentModelEvent;
}

const aborted = (): AgentModelEvent => ({
  type: "finish",
  reason: "aborted",
  error: modelError("aborted", "The request was aborted."),
});

/**
 * Runs `attempt` until it produces output or fails in a way not worth retrying. Events before the first output
 * event are held back, so a discarded attempt leaves no trace but a `retry` event; after the first output every
 * event passes straight through and a failure is reported, never retried (the caller has already seen output).
 * An empty response (`stop` with no output at all) is retried too.
 *
 * It also holds each attempt to the family contract, so the gateway needs no extra layer per event (each async
 * generator a streamed event passes through costs a promise and a microtask): a throw, from the attempt's setup
 * or its stream, becomes a classified `finish`, exactly one `finish` ends the stream, and nothing after it is read.
 */
export async function* withRetries(
  attempt: () => AsyncIterable<AgentModelEvent> | Promise<AsyncIterable<AgentModelEvent>>,
  ctx: RetryContext,
): AsyncIterable<AgentModelEvent> {
  const maxRetries = Math.max(0, ctx.policy.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries);
  const map = ctx.map;
  for (let retry = 0; ; retry++) {
    if (ctx.signal.aborted) {
      yield aborted();
      return;
    }
    const held: AgentModelEvent[] = [];
    let streaming = false;
    let finish: Extract<AgentModelEvent, { type: "finish" }> | undefined;
    try {
      for await (const raw of await attempt()) {
        const event = map ? map(raw) : raw;
        if (event.type === "finish") {
          finish = event;
          break;
        }
        if (streaming) {
          yield event;
          continue;
        }
        if (isOutput(event)) {
          streaming = true;
          for (const earlier of held) yield earlier;
          held.length = 0;
          yield event;
          continue;
        }
        held.push(event);
      }
    } catch (error) {
      const classified = classifyUnknownError(error, ctx.signal);
      finish = { type: "finish", reason: classified.kind === "aborted" ? "aborted" : "error", error: classified };
    }
    finish ??= {
      type: "finish",
      reason: "error",
      error: modelError("unknown", "The model stream ended without a finish event."),
    };
    if (streaming) {
      yield finish;
      return;
    }

    const error = finish.error;
    const retryable =
      (finish.reason === "error" && error !== undefined && error.retryable && RETRYABLE_KINDS.has(error.kind)) ||
      finish.reason === "stop";
    if (!retryable || retry >= maxRetries || ctx.signal.aborted) {
      for (const event of held) yield event;
      yield ctx.signal.aborted && finish.reason !== "aborted" ? aborted() : finish;
      return;
    }
    const reported = error ?? modelError("server", "The model returned an empty response.", { retryable: true });
    const delayMs = retryDelayMs(ctx.policy, retry + 1, error, ctx.random);
    yield { type: "retry", attempt: retry + 1, delayMs, error: reported };
    try {
      ctx.policy.onRetry?.({
        attempt: retry + 1,
        delayMs,
        error: reported,
        providerId: ctx.providerId,
        modelId: ctx.modelId,
      });
    } catch {
      // A failing observer must not turn a retry into a crash.
    }
    if (!(await sleep(delayMs, ctx.signal))) {
      yield aborted();
      return;
    }
  }
}
