import { type AgentRunResult, type AgentRuntimeEvent, type EventQueue, eventStream } from "@heddle/shared";

/** Undelivered `tool-updated` events kept per tool call while a `stream()` consumer lags. */
export const MAX_PENDING_UPDATES_PER_CALL = 16;

/**
 * The events waiting for a `stream()` consumer. Every event is kept, except `tool-updated`: when a call already
 * has `MAX_PENDING_UPDATES_PER_CALL` updates waiting, a new one replaces the newest waiting one. A tool that
 * streams 600 MB of output to a slow consumer then holds a few chunks in memory, not all of them; the complete
 * output is in the call's `tool-finished` result, and `subscribe()` listeners still see every update.
 */
export class RunEventQueue implements EventQueue<AgentRuntimeEvent> {
  private items: (AgentRuntimeEvent | undefined)[] = [];
  private head = 0;
  /** Per tool call, the positions in `items` of its waiting updates, oldest first. */
  private readonly updates = new Map<string, number[]>();

  /** Events waiting to be read. */
  get size(): number {
    return this.items.length - this.head;
  }

  push(event: AgentRuntimeEvent): void {
    if (event.type === "tool-updated") {
      const id = event.toolCall.toolCallId;
      const waiting = this.updates.get(id);
      if (waiting && waiting.length >= MAX_PENDING_UPDATES_PER_CALL) {
        this.items[waiting[waiting.length - 1]!] = event;
        return;
      }
      if (waiting) waiting.push(this.items.length);
      else this.updates.set(id, [this.items.length]);
    }
    this.items.push(event);
  }

  shift(): AgentRuntimeEvent | undefined {
    if (this.head >= this.items.length) return undefined;
    const event = this.items[this.head];
    this.items[this.head++] = undefined; // let a long stream's delivered events be collected
    if (event?.type === "tool-updated") {
      const id = event.toolCall.toolCallId;
      const waiting = this.updates.get(id);
      waiting?.shift();
      if (waiting?.length === 0) this.updates.delete(id);
    }
    this.compact();
    return event;
  }

  // Drops the delivered slots once they are most of the array, so a long run's queue does not grow with its history.
  private compact(): void {
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
      return;
    }
    if (this.head < 1024 || this.head * 2 < this.items.length) return;
    const offset = this.head;
    this.items = this.items.slice(offset);
    this.head = 0;
    for (const positions of this.updates.values()) {
      for (let i = 0; i < positions.length; i++) positions[i]! -= offset;
    }
  }
}

/** The events of one run, then its result; leaving the loop early aborts the run. */
export interface AgentRunStream extends AsyncIterable<AgentRuntimeEvent> {
  /** Resolves with the run's result (also carried by the last event, `run-finished`). */
  readonly result: Promise<AgentRunResult>;
}

/**
 * The run's events as an async iterable: shared's `eventStream` over a `RunEventQueue`, so a lagging consumer
 * holds a bounded number of each call's `tool-updated` events.
 */
export function runEventStream(
  subscribe: (listener: (event: AgentRuntimeEvent) => void) => () => void,
  start: () => Promise<AgentRunResult>,
  stopEarly: () => void,
): AsyncGenerator<AgentRuntimeEvent> & AgentRunStream {
  return eventStream(subscribe, start, stopEarly, new RunEventQueue());
}
