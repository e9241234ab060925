import { describe, expect, it } from "vitest";
import { type EventStage, mapStream, pipeStage } from "./map-stream.js";

/** A family-like `mapStream` over `items` that records reads, closes and its `close` hook. */
function family(items: string[], throwAt?: number) {
  const log = { read: 0, sourceClosed: false, closes: 0 };
  const source: AsyncIterator<string> = {
    async next() {
      if (log.read === throwAt) throw new Error("source broke");
      if (log.read >= items.length) return { done: true, value: undefined };
      return { done: false, value: items[log.read++] as string };
    },
    async return() {
      log.sourceClosed = true;
      return { done: true, value: undefined };
    },
  };
  const stream = mapStream<string, string>({
    open: () => source,
    chunk(chunk, out) {
      out.push(chunk);
      if (chunk === "two") out.push("two-again");
    },
    end: () => {},
    fail: (error, out) => out.push(`inner-fail: ${(error as Error).message}`),
    close: () => log.closes++,
  });
  return { stream, log };
}

/** Upper-cases; "bad" throws; "FIN" is the last event. */
const stage: EventStage<string> = {
  map(event) {
    if (event === "bad") throw new Error("cannot map");
    return event.toUpperCase();
  },
  last: (event) => event === "FIN",
  end: () => "missing-end",
  fail: (error) => `fail: ${(error as Error).message}`,
};

/** The stream piped as `withRetries` does: after the first event was read (the hand-over), fused or not. */
async function piped(items: string[], fused: boolean, throwAt?: number) {
  const { stream, log } = family(items, throwAt);
  expect(await stream.next()).toEqual({ done: false, value: items[0] });
  // Not a `mapStream` any more (a plain delegating iterator): the stage runs as a `mapStream` of its own.
  const source = fused
    ? stream
    : {
        next: () => stream.next(),
        return: () => stream.return?.() ?? Promise.resolve({ done: true as const, value: undefined }),
      };
  const result = pipeStage(source, stage);
  expect(result === stream).toBe(fused);
  return { result, log };
}

async function drain(stream: AsyncIterableIterator<string>): Promise<string[]> {
  const seen: string[] = [];
  for await (const value of stream) seen.push(value);
  expect(await stream.next()).toEqual({ done: true, value: undefined });
  return seen;
}

describe.each([
  ["fused into a mapStream", true],
  ["over another iterator", false],
])("pipeStage %s", (_, fused) => {
  it("maps the events not yet handed out, ends at the last one, closes the source and reads nothing after", async () => {
    const { result, log } = await piped(["first", "two", "x", "fin", "never"], fused);
    expect(await drain(result)).toEqual(["TWO", "TWO-AGAIN", "X", "FIN"]);
    expect(log).toEqual({ read: 4, sourceClosed: true, closes: 1 });
  });

  it("ends a source that stops without a last event with the end event, once", async () => {
    const { result, log } = await piped(["first", "a"], fused);
    expect(await drain(result)).toEqual(["A", "missing-end"]);
    expect(log.closes).toBe(1);
  });

  it("turns a throw from map into the fail event, closing the source first", async () => {
    const { result, log } = await piped(["first", "a", "bad", "never"], fused);
    expect(await drain(result)).toEqual(["A", "fail: cannot map"]);
    expect(log).toEqual({ read: 3, sourceClosed: true, closes: 1 });
  });

  it("passes the inner stream's own failure events through the stage, then ends", async () => {
    const { result } = await piped(["first", "a", "b"], fused, 2);
    expect(await drain(result)).toEqual(["A", "INNER-FAIL: SOURCE BROKE", "missing-end"]);
  });

  it("closes the source when the consumer leaves", async () => {
    const { result, log } = await piped(["first", "a", "b"], fused);
    for await (const value of result) if (value === "A") break;
    expect(log).toEqual({ read: 2, sourceClosed: true, closes: 1 });
  });
});

it("pipeStage does not fuse into a mapStream a reader is still waiting on", async () => {
  const { stream } = family(["first", "a", "fin"]);
  const pending = stream.next();
  const result = pipeStage(stream, stage);
  expect(result).not.toBe(stream);
  expect(await pending).toEqual({ done: false, value: "first" });
  expect(await drain(result)).toEqual(["A", "FIN"]);
});
