// Heddle's own reader of SSE response bodies (src/sse.ts), and each family's rules on top of it: what the
// Anthropic and OpenAI families see of a stream no longer depends on the vendor clients' readers.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AnthropicStreamError } from "./families/anthropic/errors.js";
import { decodeAnthropicEvent } from "./families/anthropic/stream.js";
import { OpenAIStreamError, openAIEventDecoder } from "./families/openai-shared/events.js";
import { type SseDecode, type SseEvent, sseChunks } from "./sse.js";

const numRuns = Number(process.env.HEDDLE_PROPERTY_RUNS ?? 200);
const encoder = new TextEncoder();

/** A body that hands out exactly these pieces and records what was read and whether it was cancelled. */
function body(pieces: Array<string | Uint8Array>) {
  const state = { reads: 0, cancelled: false };
  const iterable = {
    [Symbol.asyncIterator]: () => ({
      next: async (): Promise<IteratorResult<Uint8Array>> => {
        if (state.cancelled || state.reads >= pieces.length) return { done: true, value: undefined };
        const piece = pieces[state.reads++] as string | Uint8Array;
        return { done: false, value: typeof piece === "string" ? encoder.encode(piece) : piece };
      },
      return: async (): Promise<IteratorResult<Uint8Array>> => {
        state.cancelled = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return { iterable, state };
}

const asIs: SseDecode<SseEvent> = (event) => ({ event: event.event, data: event.data });

async function batchesOf<C>(pieces: Array<string | Uint8Array>, decode: SseDecode<C>): Promise<C[][]> {
  const out: C[][] = [];
  const reader = sseChunks(body(pieces).iterable, decode);
  for (let next = await reader.next(); !next.done; next = await reader.next()) out.push(next.value);
  return out;
}

/** Splits bytes at the given points (duplicates and out-of-range points ignored). */
function splitBytes(bytes: Uint8Array, points: number[]): Uint8Array[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of at) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

describe("sseChunks: the SSE reader under the Anthropic and OpenAI families", () => {
  it("gives one batch per piece of the body, however many events the piece completes", async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `event: delta\ndata: {"i":${i}}\n\n`).join("");
    const batches = await batchesOf([fifty, 'data: {"last":true}\n\n'], asIs);
    expect(batches.map((batch) => batch.length)).toEqual([50, 1]);
    expect(batches[0]?.[49]).toEqual({ event: "delta", data: '{"i":49}' });
    expect(batches[1]?.[0]).toEqual({ event: undefined, data: '{"last":true}' });
  });

  it("the same events however the bytes are split, inside lines and inside UTF-8 characters", async () => {
    const events = [
      { event: "message_start", data: '{"type":"message_start"}' },
      { event: "content_block_delta", data: '{"text":"héllo wörld ✓ 日本 🎉"}' },
      { event: undefined, data: "line one\nline two" },
      { event: "x", data: "" },
    ];
    // A comment, CRLF framing (Gemini frames its events so), a multi-line data field and an empty data line.
    const wire =
      ": keep-alive\r\n" +
      'event: message_start\r\ndata: {"type":"message_start"}\r\n\r\n' +
      'event: content_block_delta\ndata: {"text":"héllo wörld ✓ 日本 🎉"}\n\n' +
      "data: line one\ndata: line two\n\n" +
      "event: x\ndata:\n\n";
    const bytes = encoder.encode(wire);
    expect((await batchesOf([bytes], asIs)).flat()).toEqual(events);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: bytes.length }), { maxLength: 40 }), async (points) => {
        expect((await batchesOf(splitBytes(bytes, points), asIs)).flat()).toEqual(events);
      }),
      { numRuns },
    );
    // One byte at a time.
    expect((await batchesOf(splitBytes(bytes, [...bytes.keys()]), asIs)).flat()).toEqual(events);
  });

  it("drops an event the body ended before terminating, as the specification and the vendor clients do", async () => {
    const batches = await batchesOf(['data: {"a":1}\n\n', 'data: {"b":2}\n'], asIs);
    expect(batches.flat().map((event) => event.data)).toEqual(['{"a":1}']);
  });

  it("with unterminatedEnd, a body that ends inside an event fails after the events before it; a clean end does not", async () => {
    const cut = new Error("cut inside an event");
    const read = async (pieces: string[]) => {
      const out: SseEvent[] = [];
      const reader = sseChunks(body(pieces).iterable, asIs, { unterminatedEnd: () => cut });
      try {
        for (let next = await reader.next(); !next.done; next = await reader.next()) out.push(...next.value);
      } catch (error) {
        return { out, error };
      }
      return { out, error: undefined };
    };
    // The boundary split between pieces, CRLF framing, and trailing whitespace are all clean ends.
    expect(await read(["data: 1\r\n", "\r\n", "data: 2\r\n\r\n  \n"])).toEqual({
      out: [{ data: "1" }, { data: "2" }],
      error: undefined,
    });
    expect(await read(["data: 1\n\n", 'data: {"half'])).toEqual({ out: [{ data: "1" }], error: cut });
    expect(await read(["data: 1\n\ndata: 2\n"])).toEqual({ out: [{ data: "1" }], error: cut });
  });

  it("hands out the events before a failing one, then throws its error and stops reading the body", async () => {
    const { iterable, state } = body([
      'data: {"n":1}\n\ndata: {"n":2}\n\ndata: boom\n\ndata: {"n":3}\n\n',
      'data: {"n":4}\n\n',
    ]);
    const reader = sseChunks(iterable, (event) => {
      if (event.data === "boom") throw new Error("the vendor sent an error event");
      return JSON.parse(event.data) as { n: number };
    });
    expect(await reader.next()).toEqual({ done: false, value: [{ n: 1 }, { n: 2 }] });
    await expect(reader.next()).rejects.toThrow("the vendor sent an error event");
    expect(state).toEqual({ reads: 1, cancelled: true });
  });

  it("return() cancels the body; a missing body is an empty stream", async () => {
    const { iterable, state } = body(['data: {"n":1}\n\n', 'data: {"n":2}\n\n']);
    const reader = sseChunks(iterable, asIs);
    await reader.next();
    await reader.return?.();
    expect(state.cancelled).toBe(true);
    expect(await reader.next()).toEqual({ done: true, value: undefined });
    expect(await sseChunks(null, asIs).next()).toEqual({ done: true, value: undefined });
  });
});

describe("each family's rules for the events it reads", () => {
  it("anthropic, as @anthropic-ai/sdk reads them: pings, unnamed and empty events skipped, error events thrown", () => {
    expect(decodeAnthropicEvent({ event: "ping", data: '{"type":"ping"}' })).toBeUndefined();
    expect(decodeAnthropicEvent({ event: undefined, data: '{"type":"message_stop"}' })).toBeUndefined();
    expect(decodeAnthropicEvent({ event: "message_stop", data: "" })).toBeUndefined();
    expect(decodeAnthropicEvent({ event: "message_stop", data: '{"type":"message_stop"}' })).toEqual({
      type: "message_stop",
    });
    const body = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    expect(() => decodeAnthropicEvent({ event: "error", data: JSON.stringify(body) })).toThrow(
      expect.objectContaining({ name: "AnthropicStreamError", body }),
    );
    expect(() => decodeAnthropicEvent({ event: "error", data: "not json" })).toThrow(AnthropicStreamError);
    expect(() => decodeAnthropicEvent({ event: "content_block_delta", data: "{cut" })).toThrow(SyntaxError);
  });

  it("openai, as the openai client reads them: nothing from [DONE] on, an error field thrown, bad JSON thrown", () => {
    const decode = openAIEventDecoder<{ n: number }>();
    expect(decode({ event: undefined, data: '{"n":1}' })).toEqual({ n: 1 });
    expect(decode({ event: "response.output_text.delta", data: '{"n":2}' })).toEqual({ n: 2 });
    const error = { code: "server_error", message: "The server had an error" };
    expect(() => decode({ event: undefined, data: JSON.stringify({ error }) })).toThrow(
      expect.objectContaining({ name: "OpenAIStreamError", body: error }),
    );
    expect(() => decode({ event: undefined, data: "{cut" })).toThrow(SyntaxError);
    expect(decode({ event: undefined, data: "[DONE]" })).toBeUndefined();
    expect(decode({ event: undefined, data: '{"n":3}' })).toBeUndefined();
    expect(() => openAIEventDecoder()({ event: undefined, data: '{"error":{"message":"x"}}' })).toThrow(
      OpenAIStreamError,
    );
  });
});
