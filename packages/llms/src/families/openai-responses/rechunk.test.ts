import { readFileSync } from "node:fs";
import type { AgentModelEvent } from "@heddle/shared";
import { APIConnectionError, APIError, APIUserAbortError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chunksJsonlResponse,
  frameSse,
  type MockProviderServer,
  type MockResponse,
  startMockProviderServer,
} from "../../testing/mock-server.js";
import { convertSseBody, family } from "./index.js";
import { collect, randomChunkSizes, seededRandom, splitResponses } from "./test-support.js";

const dir = new URL("../../../test/fixtures/openai-responses/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, dir), "utf8");

/** Exact splits are cheap (in process); over loopback fewer cases, as each is a real request. */
const CASES = 30;
const NETWORK_CASES = 10;
const TIMEOUT_MS = 30_000;

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());

async function replay(response: MockResponse): Promise<AgentModelEvent[]> {
  server.enqueue("openai", response);
  return collect(
    family.streamOnce({
      providerId: "openai",
      modelId: "gpt-5",
      apiKey: "test-key",
      baseUrl: server.baseUrl("openai"),
      request: { messages: [], tools: [] },
      signal: new AbortController().signal,
    }),
  );
}

const multistep = splitResponses(fixture("reasoning-encrypted-multistep.chunks.jsonl"));
const bodies: Array<[string, MockResponse]> = [
  ...[
    "text.i0.sse",
    "function-call.i0.sse",
    "function-call.i1.sse",
    "parallel-function-calls-with-reasoning.i0.sse",
    "parallel-function-calls-with-reasoning.i1.sse",
    "reasoning-summary-function-call.i0.sse",
    "reasoning-summary-function-call.i1.sse",
  ].map((name): [string, MockResponse] => [name, { sse: fixture(name) }]),
  ...multistep.map((text, i): [string, MockResponse] => [
    `reasoning-encrypted-multistep #${i}`,
    chunksJsonlResponse(text),
  ]),
  ["error-insufficient-quota.chunks.jsonl", chunksJsonlResponse(fixture("error-insufficient-quota.chunks.jsonl"))],
];

describe("openai responses: any re-chunking of a body gives the same events", () => {
  it.each(bodies)(
    "%s",
    async (name, response) => {
      const expected = await replay(response);
      expect(expected[expected.length - 1]?.type).toBe("finish");
      // The size of the framed body decides how many split points to draw; the seed makes a failure replayable.
      const length = Buffer.byteLength(response.sse ?? JSON.stringify(response.events), "utf8");
      for (let seed = 1; seed <= NETWORK_CASES; seed++) {
        const chunkSizes = randomChunkSizes(seededRandom(seed * 7919 + name.length), length);
        const events = await replay({ ...response, chunkSizes });
        expect(events, `${name}, seed ${seed}`).toEqual(expected);
      }
    },
    TIMEOUT_MS,
  );
});

/** The exact bytes the server sends for a response. */
function wireBytes(response: MockResponse): Uint8Array {
  return new TextEncoder().encode(response.sse ?? frameSse("openai", response.events ?? []).join(""));
}

/**
 * Over loopback the kernel may merge small writes, so the test above cannot promise which splits reach the
 * client. Here the `openai` client's own SSE parser gets exactly the chunks drawn, one-byte ones included.
 */
async function parseSplit(bytes: Uint8Array, sizes: number[]): Promise<AgentModelEvent[]> {
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
  const classes = { APIError, APIUserAbortError, APIConnectionError };
  return collect(convertSseBody(body as unknown as AsyncIterable<Uint8Array>, new AbortController().signal, classes));
}

describe("openai responses: exact splits through Heddle's SSE reader give the same events", () => {
  it.each(bodies)(
    "%s",
    async (name, response) => {
      const bytes = wireBytes(response);
      const expected = await parseSplit(bytes, [bytes.length]);
      expect(expected).toEqual(await replay(response));
      for (let seed = 1; seed <= CASES; seed++) {
        const sizes = randomChunkSizes(seededRandom(seed * 104729 + name.length), bytes.length);
        expect(await parseSplit(bytes, sizes), `${name}, seed ${seed}`).toEqual(expected);
      }
    },
    TIMEOUT_MS,
  );
});
