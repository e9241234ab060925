/** An async iterable of events that also carries the promise of the work's result. */
export type EventStream<E, R> = AsyncGenerator<E> & { readonly result: Promise<R> };

/**
 * Turns push-style events into an async iterable: listens with `subscribe`, starts the work, yields each event in
 * order, ends when the work settles (re-throwing its error), and calls `stopEarly` when the consumer stops reading
 * before the end. Events are never dropped; a slow consumer only delays itself.
 */
export function eventStream<E, R>(
  subscribe: (listener: (event: E) => void) => () => void,
  start: () => Promise<R>,
  stopEarly: () => void,
): EventStream<E, R> {
  const queue: (E | undefined)[] = [];
  let head = 0;
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
        if (head < queue.length) {
          const event = queue[head] as E;
          queue[head++] = undefined; // let a long stream's delivered events be collected
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
