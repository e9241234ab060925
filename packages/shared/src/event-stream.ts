/** An async iterable of events that also carries the promise of the work's result. */
export type EventStream<E, R> = AsyncGenerator<E> & { readonly result: Promise<R> };

/** Where events wait for the consumer: first in, first out. A caller may bound or coalesce it. */
export interface EventQueue<E> {
  push(event: E): void;
  /** The next event, or `undefined` when none is waiting. */
  shift(): E | undefined;
}

/** The default queue: every event, in order; delivered slots are released so a long stream can be collected. */
export class FifoQueue<E> implements EventQueue<E> {
  private items: (E | undefined)[] = [];
  private head = 0;

  push(event: E): void {
    this.items.push(event);
  }

  shift(): E | undefined {
    if (this.head >= this.items.length) return undefined;
    const event = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    return event;
  }
}

/**
 * Turns push-style events into an async iterable: listens with `subscribe`, starts the work, yields each event in
 * order, ends when the work settles (re-throwing its error), and calls `stopEarly` when the consumer stops reading
 * before the end. With the default queue events are never dropped and a slow consumer only delays itself; a
 * `queue` of the caller's may bound what waits (the agent's stream coalesces a flood of tool updates).
 */
export function eventStream<E, R>(
  subscribe: (listener: (event: E) => void) => () => void,
  start: () => Promise<R>,
  stopEarly: () => void,
  queue: EventQueue<E> = new FifoQueue<E>(),
): EventStream<E, R> {
  let done = false;
  let wake: (() => void) | undefined;
  const unsubscribe = subscribe((event) => {
    queue.push(event);
    wake?.();
  });
  const result = start().finally(() => {
    done = true;
    unsubscribe();
    wake?.();
  });
  result.catch(() => {});
  async function* events(): AsyncGenerator<E> {
    try {
      while (true) {
        const event = queue.shift();
        if (event !== undefined) {
          yield event;
          continue;
        }
        if (done) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      await result;
    } finally {
      if (!done) stopEarly();
    }
  }
  return Object.assign(events(), { result });
}
