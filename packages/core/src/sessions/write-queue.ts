/**
 * The store writes of one session, run one after another in the order they were queued, so the transcript is
 * stored in the order the runtime added the messages. The first failure stops every later write (a gap in the
 * transcript would make the rest invalid) and is reported once, through `onFailure` and `takeError`.
 */
export class WriteQueue {
  #tail: Promise<void> = Promise.resolve();
  #failed = false;
  #error: unknown;
  readonly #onFailure: (error: unknown) => void;

  constructor(onFailure: (error: unknown) => void) {
    this.#onFailure = onFailure;
  }

  /** Queues a write; it runs after every write queued before it, and not at all after a failure. */
  enqueue(task: () => Promise<void>): void {
    this.#tail = this.#tail.then(async () => {
      if (this.#failed) return;
      try {
        await task();
      } catch (error) {
        this.#failed = true;
        this.#error = error;
        this.#onFailure(error);
      }
    });
  }

  /** Resolves once every write queued so far has run (or been dropped after a failure); never rejects. */
  settled(): Promise<void> {
    return this.#tail;
  }

  /** The failure that stopped the queue, if any; taking it lets later writes run again (a new turn). */
  takeError(): { error: unknown } | undefined {
    if (!this.#failed) return undefined;
    const error = this.#error;
    this.#failed = false;
    this.#error = undefined;
    return { error };
  }
}
