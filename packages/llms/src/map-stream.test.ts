import { describe, expect, it } from "vitest";
import { mapStream, type StreamMapping } from "./map-stream.js";

/** A source that records what was read and whether it was closed; `throwAt` makes next() reject there. */
function source(items: string[], throwAt?: number) {
  const log = { read: 0, closed: false };
  const iterator: AsyncIterableIterator<string> = {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (log.read === throwAt) throw new Error("source broke");
      if (log.read >= items.length) return { done: true, value: undefined };
      return { done: false, value: items[log.read++] as string };
    },
    async return() {
      log.closed = true;
      return { done: true, value: undefined };
    },
  };
  return { iterator, log };
}

/** Upper-cases each chunk; "two" makes two events, "none" none, "stop" stops, "bad" throws. */
function mapping(from: AsyncIterator<string>, calls: string[]): StreamMapping<string, string> {
  return {
    open: () => {
      calls.push("open");
      return from;
    },
    chunk(chunk, out) {
      if (chunk === "bad") {
        out.push("half");
        throw new Error("cannot map");
      }
      if (chunk === "none") return;
      out.push(chunk.toUpperCase());
      if (chunk === "two") out.push("TWO-AGAIN");
      return chunk === "stop";
    },
    end: (out) => out.push("end"),
    fail: (error, out) => out.push(`fail: ${(error as Error).message}`),
    close: () => calls.push("close"),
  };
}

async function drain(stream: AsyncIterable<string>): Promise<string[]> {
  const seen: string[] = [];
  for await (const value of stream) seen.push(value);
  return seen;
}

describe("mapStream", () => {
  it("maps every chunk to its events in order, then the end events, and closes once", async () => {
    const { iterator, log } = source(["a", "two", "none", "b"]);
    const calls: string[] = [];
    expect(await drain(mapStream(mapping(iterator, calls)))).toEqual(["A", "TWO", "TWO-AGAIN", "B", "end"]);
    expect(calls).toEqual(["open", "close"]);
    expect(log.closed).toBe(false);
  });

  it("stops reading after a chunk that says stop, and closes the source", async () => {
    const { iterator, log } = source(["a", "stop", "never"]);
    const calls: string[] = [];
    expect(await drain(mapStream(mapping(iterator, calls)))).toEqual(["A", "STOP"]);
    expect(log).toEqual({ read: 2, closed: true });
    expect(calls).toEqual(["open", "close"]);
  });

  it("turns a throw from open or the source into the fail events", async () => {
    const broken = mapStream<string, string>({
      open: () => Promise.reject(new Error("no connection")),
      chunk: () => undefined,
      end: (out) => out.push("end"),
      fail: (error, out) => out.push(`fail: ${(error as Error).message}`),
    });
    expect(await drain(broken)).toEqual(["fail: no connection"]);

    const { iterator } = source(["a", "b"], 1);
    const calls: string[] = [];
    expect(await drain(mapStream(mapping(iterator, calls)))).toEqual(["A", "fail: source broke"]);
    expect(calls).toEqual(["open", "close"]);
  });

  it("drops what a throwing chunk half-mapped and closes the source before failing", async () => {
    const { iterator, log } = source(["a", "bad", "never"]);
    const calls: string[] = [];
    expect(await drain(mapStream(mapping(iterator, calls)))).toEqual(["A", "fail: cannot map"]);
    expect(log).toEqual({ read: 2, closed: true });
  });

  it("closes the source when the consumer leaves, and opens nothing when it leaves before reading", async () => {
    const { iterator, log } = source(["a", "b", "c"]);
    const calls: string[] = [];
    for await (const value of mapStream(mapping(iterator, calls))) if (value === "A") break;
    expect(log).toEqual({ read: 1, closed: true });
    expect(calls).toEqual(["open", "close"]);

    const unread = source(["a"]);
    const untouched: string[] = [];
    const stream = mapStream(mapping(unread.iterator, untouched));
    await stream.return?.();
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(untouched).toEqual(["close"]);
    expect(unread.log.read).toBe(0);
  });

  it("answers next() calls made before the previous one settled in order, like a generator", async () => {
    const { iterator } = source(["a", "none", "two", "b"]);
    const stream = mapStream(mapping(iterator, []));
    const results = await Promise.all(Array.from({ length: 7 }, () => stream.next()));
    expect(results.map((result) => (result.done ? "done" : result.value))).toEqual([
      "A",
      "TWO",
      "TWO-AGAIN",
      "B",
      "end",
      "done",
      "done",
    ]);
  });
});
