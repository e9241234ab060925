/** How `mapStream` turns a source of chunks into events. */
export interface StreamMapping<C, E> {
  /** Starts the source (sends the request, say); runs on the first `next()`. A throw goes to `fail`. */
  open(): AsyncIterable<C> | AsyncIterator<C> | Promise<AsyncIterable<C> | AsyncIterator<C>>;
  /** Maps one chunk to zero or more events pushed on `out`; returns true to stop after them (the source is closed). */
  chunk(chunk: C, out: E[]): boolean | undefined | void;
  /** Pushes the events that follow the source's last chunk. */
  end(out: E[]): void;
  /** Pushes the events that end the stream after a throw from `open`, the source or `chunk`. */
  fail(error: unknown, out: E[]): void;
  /** Runs once, when the source is done with: ended, failed, stopped by `chunk`, or left by the consumer. */
  close?(): void;
}

/**
 * A synchronous last step over a stream's events (`withRetries` uses one to price usage and end the stream at its
 * `finish`). Applied by `pipeStage`.
 */
export interface EventStage<E> {
  /** Maps one event; a throw ends the stream with `fail(error)` (the source is closed first). */
  map(event: E): E;
  /** Whether the stream ends after this (mapped) event; the source is closed before it is handed out. */
  last(event: E): boolean;
  /** The event that ends a stream whose source ended without a `last` event. */
  end(): E;
  /** The event that ends a stream whose source failed, or whose `map` threw. */
  fail(error: unknown): E;
}

/**
 * `source` with `stage` applied to each event it has not yet handed out, ended by exactly one `last`, `end` or
 * `fail` event, nothing read after it. When `source` is a `mapStream` no reader is waiting on, the stage is fused
 * into it (no extra `await` per event) and `source` itself is returned; otherwise the result is one more
 * `mapStream` over it.
 */
export function pipeStage<E>(source: AsyncIterator<E>, stage: EventStage<E>): AsyncIterableIterator<E> {
  if (source instanceof MappedStream && source.adopt(stage)) return source as AsyncIterableIterator<E>;
  return mapStream<E, E>({
    open: () => source,
    chunk(raw, out) {
      const event = stage.map(raw);
      out.push(event);
      return stage.last(event);
    },
    end: (out) => out.push(stage.end()),
    fail: (error, out) => out.push(stage.fail(error)),
  });
}

/** A fresh end-of-stream result (a generator gives a new object each time, and callers may keep it). */
export const done = (): IteratorReturnResult<undefined> => ({ done: true, value: undefined });

function iteratorOf<C>(source: AsyncIterable<C> | AsyncIterator<C>): AsyncIterator<C> {
  return Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source;
}

async function closeQuietly(source: AsyncIterator<unknown>): Promise<void> {
  try {
    await source.return?.();
  } catch {
    // The stream already has its ending; a failing close must not replace it.
  }
}

/**
 * The same stream as this async generator:
 *
 *     try { for await (const c of await open()) { if (chunk(c, out)) break; yield* out } end(out) }
 *     catch (e) { fail(e, out) } finally { close() }  yield* out
 *
 * but without its cost: every value an async generator yields takes a promise and several microtask hops, and a
 * model stream is hundreds of events per call passing through several layers. Here a `next()` costs one `await`
 * on the source. Calls to `next()` made before the last one settled wait their turn, as with a generator.
 */
export function mapStream<C, E>(mapping: StreamMapping<C, E>): AsyncIterableIterator<E> {
  return new MappedStream(mapping);
}

class MappedStream<C, E> implements AsyncIterableIterator<E> {
  private source: AsyncIterator<C> | undefined;
  private readonly out: E[] = [];
  private head = 0;
  private ended = false;
  private outstanding = 0;
  private last: Promise<IteratorResult<E>> | undefined;
  // A fused `pipeStage` stage, and whether it has handed out its ending event.
  private stage: EventStage<E> | undefined;
  private stageEnded = false;

  constructor(private readonly mapping: StreamMapping<C, E>) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<E>> {
    const queued = this.outstanding > 0 && this.last !== undefined;
    this.outstanding++;
    const step = queued ? (this.last as Promise<unknown>).then(this.stepBound, this.stepBound) : this.step();
    this.last = step;
    return step;
  }

  private readonly stepBound = () => this.step();

  /** Takes `stage` as its last step; false (nothing changed) when a reader is waiting or a stage is already set. */
  adopt(stage: EventStage<E>): boolean {
    if (this.stage || this.outstanding > 0) return false;
    this.stage = stage;
    return true;
  }

  private async step(): Promise<IteratorResult<E>> {
    try {
      while (this.head === this.out.length) {
        if (this.ended) {
          if (!this.stage || this.stageEnded) return done();
          this.stageEnded = true;
          return { done: false, value: this.stage.end() };
        }
        this.out.length = 0;
        this.head = 0;
        // Inlined rather than a helper method: another async call per chunk would add a promise and a hop.
        let result: IteratorResult<C>;
        try {
          this.source ??= iteratorOf(await this.mapping.open());
          result = await this.source.next();
        } catch (error) {
          this.finish();
          this.mapping.fail(error, this.out);
          continue;
        }
        if (result.done) {
          this.finish();
          this.mapping.end(this.out);
          continue;
        }
        let stop: boolean | undefined | void;
        try {
          stop = this.mapping.chunk(result.value, this.out);
        } catch (error) {
          // As when the body of a `for await` throws: what the chunk half-mapped is dropped and the source is
          // closed before the failure is reported.
          this.out.length = 0;
          await closeQuietly(this.source);
          this.finish();
          this.mapping.fail(error, this.out);
          continue;
        }
        if (stop) {
          await closeQuietly(this.source);
          this.finish();
        }
      }
      const value = this.out[this.head++] as E;
      const stage = this.stage;
      if (!stage) return { done: false, value };
      // The fused stage, inline: its last event (or a throw from map) closes the source and drops the rest.
      let event: E;
      try {
        event = stage.map(value);
        if (!stage.last(event)) return { done: false, value: event };
      } catch (error) {
        event = stage.fail(error);
      }
      await this.endStage();
      return { done: false, value: event };
    } finally {
      this.outstanding--;
    }
  }

  private async endStage(): Promise<void> {
    this.stageEnded = true;
    this.out.length = 0;
    this.head = 0;
    if (this.ended) return;
    this.ended = true;
    try {
      if (this.source) await closeQuietly(this.source);
    } finally {
      this.mapping.close?.();
    }
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.mapping.close?.();
  }

  async return(): Promise<IteratorResult<E>> {
    this.stageEnded = true;
    this.out.length = 0;
    this.head = 0;
    if (!this.ended) {
      this.ended = true;
      try {
        if (this.source) await this.source.return?.();
      } finally {
        this.mapping.close?.();
      }
    }
    return done();
  }
}
