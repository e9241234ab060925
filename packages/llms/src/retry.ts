import { type AgentModelEvent, clampTimeoutMs, type ModelError } from "@heddle/shared";
import { classifyUnknownError, modelError, RETRYABLE_KINDS } from "./errors.js";
import { done, pipeStage } from "./map-stream.js";
import type { RetryPolicy } from "./types.js";

/** The defaults: 3 retries, 500 ms doubling, capped at 30 s, ±20 % jitter. */
export const DEFAULT_RETRY_POLICY: Required<Omit<RetryPolicy, "onRetry">> = {
  maxRetries: 3,
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  jitter: 0.2,
};

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
  return (
    event.type === "text-delta" ||
    event.type === "reasoning-delta" ||
    event.type === "tool-call-start" ||
    event.type === "tool-call-delta" ||
    event.type === "tool-call-end"
  );
}

/** Resolves after `ms`, or at once (with `false`) when the signal aborts. Removes its listener either way. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    // Clamped: a `maxDelayMs` or `retry-after` past 2^31-1 ms would otherwise turn a long wait into none.
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, clampTimeoutMs(ms));
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
 * It also holds each attempt to the family contract, so the gateway needs no extra layer per event: a throw, from
 * the attempt's setup or its stream, becomes a classified `finish`, exactly one `finish` ends the stream, and
 * nothing after it is read.
 *
 * The attempts up to the first output run in an async generator (`untilOutput`). The rest of the stream, nearly
 * all of its events, goes through `pipeStage`: fused into the family's own `mapStream` when it is one (no extra
 * `await` per event), else one more `mapStream` (one `await` per event, where a generator's `yield` costs a
 * promise and several microtask hops).
 */
export function withRetries(
  attempt: () => AsyncIterable<AgentModelEvent> | Promise<AsyncIterable<AgentModelEvent>>,
  ctx: RetryContext,
): AsyncIterable<AgentModelEvent> {
  return new RetryingStream(untilOutput(attempt, ctx), ctx);
}

class RetryingStream implements AsyncIterableIterator<AgentModelEvent> {
  private live: AsyncIterableIterator<AgentModelEvent> | undefined;

  constructor(
    private readonly setup: AsyncGenerator<AgentModelEvent, AsyncIterator<AgentModelEvent> | undefined>,
    private readonly ctx: RetryContext,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<AgentModelEvent>> {
    if (this.live) return this.live.next();
    return this.setup.next().then((step) => {
      if (!step.done) return step;
      // The attempt produced output and `untilOutput` handed over its stream.
      if (step.value && !this.live) this.live = passThrough(step.value, this.ctx);
      return this.live ? this.live.next() : done();
    });
  }

  async return(): Promise<IteratorResult<AgentModelEvent>> {
    if (this.live) await this.live.return?.();
    else await this.setup.return(undefined);
    return done();
  }
}

/**
 * An attempt's stream after its first output: mapped, and ended by exactly one `finish`. Fused into the family's
 * own `mapStream` when it is one, so the gateway adds no `await` per event.
 */
function passThrough(source: AsyncIterator<AgentModelEvent>, ctx: RetryContext) {
  const map = ctx.map;
  return pipeStage<AgentModelEvent>(source, {
    map: map ?? ((event) => event),
    last: (event) => event.type === "finish",
    end: missingFinish,
    fail: (error) => classifiedFinish(error, ctx.signal),
  });
}

const missingFinish = (): Extract<AgentModelEvent, { type: "finish" }> => ({
  type: "finish",
  reason: "error",
  error: modelError("unknown", "The model stream ended without a finish event."),
});

function classifiedFinish(error: unknown, signal: AbortSignal): Extract<AgentModelEvent, { type: "finish" }> {
  const classified = classifyUnknownError(error, signal);
  return { type: "finish", reason: classified.kind === "aborted" ? "aborted" : "error", error: classified };
}

/**
 * Yields what `withRetries` emits until an attempt's first output event (included), then returns that attempt's
 * stream, still open, for `passThrough` to read on. Returns undefined when the stream ended here.
 */
async function* untilOutput(
  attempt: () => AsyncIterable<AgentModelEvent> | Promise<AsyncIterable<AgentModelEvent>>,
  ctx: RetryContext,
): AsyncGenerator<AgentModelEvent, AsyncIterator<AgentModelEvent> | undefined> {
  const maxRetries = Math.max(0, ctx.policy.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries);
  const map = ctx.map;
  for (let retry = 0; ; retry++) {
    if (ctx.signal.aborted) {
      yield aborted();
      return undefined;
    }
    const held: AgentModelEvent[] = [];
    let finish: Extract<AgentModelEvent, { type: "finish" }> | undefined;
    try {
      // Read by hand, not with `for await`: leaving that loop would close the stream, and on the first output the
      // open stream is handed over instead. Where `for await` would close it (break, a throw in the body, the
      // consumer leaving), it is closed here too.
      const source = (await attempt())[Symbol.asyncIterator]();
      for (;;) {
        const step = await source.next();
        if (step.done) break;
        let event: AgentModelEvent;
        try {
          event = map ? map(step.value) : step.value;
        } catch (error) {
          await closeQuietly(source);
          throw error;
        }
        if (event.type === "finish") {
          finish = event;
          await source.return?.();
          break;
        }
        if (!isOutput(event)) {
          held.push(event);
          continue;
        }
        let handedOver = false;
        try {
          for (const earlier of held) yield earlier;
          yield event;
          handedOver = true;
          return source;
        } finally {
          if (!handedOver) await source.return?.();
        }
      }
    } catch (error) {
      finish = classifiedFinish(error, ctx.signal);
    }
    finish ??= missingFinish();

    const error = finish.error;
    const retryable =
      (finish.reason === "error" && error !== undefined && error.retryable && RETRYABLE_KINDS.has(error.kind)) ||
      finish.reason === "stop";
    if (!retryable || retry >= maxRetries || ctx.signal.aborted) {
      for (const event of held) yield event;
      yield ctx.signal.aborted && finish.reason !== "aborted" ? aborted() : finish;
      return undefined;
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
      return undefined;
    }
  }
}

async function closeQuietly(source: AsyncIterator<unknown>): Promise<void> {
  try {
    await source.return?.();
  } catch {
    // The error that made us leave wins over one from closing.
  }
}
