import type { AgentModelEvent } from "@heddle/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sseChunks } from "../../sse.js";
import { frameSse, type MockProviderServer, startMockProviderServer } from "../../testing/mock-server.js";
import { AnthropicStreamMapper, decodeAnthropicEvent } from "./stream.js";
import { fixtureResponse, runFamily, userText } from "./test-helpers.js";

const FIXTURES = [
  "text.sse",
  "text-then-tool-use.sse",
  "max-tokens-mid-tool-use.sse",
  "text.chunks.jsonl",
  "tool-use-no-args.chunks.jsonl",
  "thinking-signature.chunks.jsonl",
  "cache-write-max-tokens.chunks.jsonl",
  "cache-read.chunks.jsonl",
  "redacted-thinking.i0.sse",
  "parallel-tool-use.i0.sse",
  "parallel-tool-use.i1.sse",
  "thinking-then-tool-use.i0.sse",
  "thinking-then-tool-use.i1.sse",
  "stop-sequence.i0.sse",
  "refusal.i0.sse",
];
const CASES_PER_FIXTURE = 30;
/** Each fixture makes 31 requests; generous for a 2-core machine shared with other suites. */
const TIMEOUT_MS = 30_000;

/** mulberry32: a small seeded generator, so a failing split can be reproduced from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Split sizes: mostly small (down to one byte, inside UTF-8 sequences and `data:` lines), sometimes large. */
function chunkSizes(next: () => number): number[] {
  const mode = next();
  return Array.from({ length: 64 }, () =>
    mode < 0.2 ? 1 : next() < 0.7 ? 1 + Math.floor(next() * 8) : 1 + Math.floor(next() * 400),
  );
}

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());

async function replay(name: string, sizes?: number[]): Promise<AgentModelEvent[]> {
  server.enqueue("anthropic", fixtureResponse(name, sizes ? { chunkSizes: sizes } : {}));
  return runFamily(server, { messages: [userText("hi")], tools: [] });
}

describe("anthropic: any re-chunking of a recorded SSE body yields the same events", () => {
  it.each(FIXTURES)(
    "%s",
    async (name) => {
      const expected = await replay(name);
      expect(expected.at(-1)).toMatchObject({ type: "finish" });
      expect(expected.at(-1)).not.toMatchObject({ reason: "error" });
      const seed = [...name].reduce((sum, ch) => (sum * 31 + ch.charCodeAt(0)) >>> 0, 7);
      const next = random(seed);
      for (let i = 0; i < CASES_PER_FIXTURE; i++) {
        const sizes = chunkSizes(next);
        const events = await replay(name, sizes);
        expect(events, `seed ${seed}, case ${i}, sizes ${sizes.slice(0, 8).join(",")}…`).toEqual(expected);
      }
    },
    TIMEOUT_MS,
  );
});

/** The SSE bytes a fixture puts on the wire, as the mock server frames them. */
function wireBytes(name: string): Uint8Array {
  const response = fixtureResponse(name);
  const text = response.sse ?? frameSse("anthropic", response.events ?? []).join("");
  return new TextEncoder().encode(text);
}

/** Feeds exact byte chunks (no TCP coalescing, no re-cut at line breaks) through Heddle's SSE reader and our mapper. */
async function mapExactChunks(bytes: Uint8Array, sizes: number[]): Promise<AgentModelEvent[]> {
  const chunks: Uint8Array[] = [];
  for (let offset = 0, i = 0; offset < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    chunks.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const mapper = new AnthropicStreamMapper();
  const events: AgentModelEvent[] = [];
  const batches = sseChunks(body as unknown as AsyncIterable<Uint8Array>, decodeAnthropicEvent);
  for (let batch = await batches.next(); !batch.done; batch = await batches.next())
    for (const event of batch.value) mapper.push(event, events);
  mapper.end(events);
  return events;
}

describe("anthropic: exact byte splits through Heddle's SSE reader give the same events as the whole body", () => {
  it.each(FIXTURES)(
    "%s",
    async (name) => {
      const bytes = wireBytes(name);
      const expected = await mapExactChunks(bytes, [bytes.length]);
      expect(await mapExactChunks(bytes, [1]), "one byte per chunk").toEqual(expected);
      const next = random(bytes.length);
      for (let i = 0; i < CASES_PER_FIXTURE; i++) {
        const sizes = chunkSizes(next);
        expect(await mapExactChunks(bytes, sizes), `case ${i}`).toEqual(expected);
      }
    },
    TIMEOUT_MS,
  );
});
