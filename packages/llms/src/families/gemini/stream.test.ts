import type { AgentModelEvent, AgentModelRequest } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockProviderServer, startMockProviderServer } from "../../testing/mock-server.js";
import {
  collect,
  fixtureResponse,
  fixtureSignatures,
  fixtureSseText,
  seededRandom,
  stableIds,
  userText,
} from "./test-helpers.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const request: AgentModelRequest = { messages: [userText("hello")], tools: [] };

async function replay(name: string, modelId?: string): Promise<AgentModelEvent[]> {
  server.enqueue("gemini", fixtureResponse(name));
  return collect(server, request, modelId ? { modelId } : {});
}

function usage(inputTokens: number, outputTokens: number, reasoningTokens = 0, cacheReadTokens = 0) {
  return {
    type: "usage",
    usage: { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens: 0, reasoningTokens },
  } as const;
}

function expectInventedId(event: AgentModelEvent | undefined): string {
  expect(event?.type).toBe("tool-call-start");
  const id = (event as { id: string }).id;
  expect(id).toMatch(/^call_[0-9a-z]{16}$/);
  return id;
}

describe("gemini family: recorded streams", () => {
  it("text.i0.sse: text deltas, usage from the last chunk, stop", async () => {
    expect(await replay("text.i0.sse")).toEqual([
      { type: "text-delta", text: "The" },
      { type: "text-delta", text: " capital of France" },
      { type: "text-delta", text: " is Paris.\n" },
      usage(13, 8),
      { type: "finish", reason: "stop" },
    ]);
  });

  it("text-gemini3-signature: the signature on the empty last text part survives as a zero-text reasoning delta", async () => {
    const [signature] = fixtureSignatures("text-gemini3-signature.chunks.jsonl");
    expect(await replay("text-gemini3-signature.chunks.jsonl")).toEqual([
      { type: "text-delta", text: "There are **3**" },
      { type: "text-delta", text: ' "r"s in strawberry.\n\nst**r**awbe**rr**y' },
      {
        type: "reasoning-delta",
        text: "",
        signature,
        metadata: { gemini: { thoughtSignature: signature, onText: true } },
      },
      usage(9, 23 + 185, 185),
      { type: "finish", reason: "stop" },
    ]);
  });

  it("thought-parts: thoughts as reasoning, the signature on the first answer text, thoughts counted as output", async () => {
    const events = await replay("thought-parts.i0.sse");
    const reasoning = events.filter((event) => event.type === "reasoning-delta");
    expect(reasoning).toHaveLength(5);
    expect(reasoning.slice(0, 4).map((event) => event.text.split("\n")[0])).toEqual([
      "**Clarifying User Goals**",
      "**Developing a Safety Protocol**",
      "**Prioritizing Safe Crossing**",
      "**Crafting Safe Instructions**",
    ]);
    for (const event of reasoning.slice(0, 4)) expect(event).toMatchObject({ metadata: { gemini: { thought: true } } });
    const [signature] = fixtureSignatures("thought-parts.i0.sse");
    // The signature rode on the first answer text part: the text comes first, then its signature.
    expect(events[4]).toMatchObject({ type: "text-delta", text: expect.stringMatching(/^This is a great question!/) });
    expect(events[5]).toEqual({
      type: "reasoning-delta",
      text: "",
      signature,
      metadata: { gemini: { thoughtSignature: signature, onText: true } },
    });
    const text = events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");
    expect(text).toMatch(/most important rule is to \*\*stay alert/);
    expect(events.slice(-2)).toEqual([usage(34, 469 + 787, 787), { type: "finish", reason: "stop" }]);
  });

  it("thought-parts-function-call: thought, then a whole call with an invented id and its signature", async () => {
    const events = await replay("thought-parts-function-call.i0.sse");
    const [signature] = fixtureSignatures("thought-parts-function-call.i0.sse");
    expect(events).toHaveLength(5);
    expect(events[0]).toMatchObject({
      type: "reasoning-delta",
      text: expect.stringMatching(/^\*\*Determining the Weather Inquiry\*\*/),
      metadata: { gemini: { thought: true } },
    });
    const id = expectInventedId(events[1]);
    expect(events.slice(1)).toEqual([
      { type: "tool-call-start", id, name: "weather", metadata: { gemini: { thoughtSignature: signature } } },
      { type: "tool-call-end", id, input: { location: "Florence, Italy" } },
      usage(54, 14 + 62, 62),
      { type: "finish", reason: "tool-calls" },
    ]);
  });

  it("parallel calls in one chunk: two calls, distinct invented ids, the signature only on the first", async () => {
    const events = stableIds(await replay("parallel-function-calls-same-chunk.i0.sse"));
    const [signature] = fixtureSignatures("parallel-function-calls-same-chunk.i0.sse");
    expect(events).toEqual([
      { type: "tool-call-start", id: "invented_0", name: "add", metadata: { gemini: { thoughtSignature: signature } } },
      { type: "tool-call-end", id: "invented_0", input: { b: 3, a: 2 } },
      { type: "tool-call-start", id: "invented_1", name: "multiply" },
      { type: "tool-call-end", id: "invented_1", input: { a: 2, b: 3 } },
      usage(121, 36 + 38, 38),
      { type: "finish", reason: "tool-calls" },
    ]);
  });

  it("parallel calls with Gemini 3 ids: the vendor ids are kept; the trailing empty part adds nothing", async () => {
    const [signature] = fixtureSignatures("parallel-function-calls-with-ids.i0.sse");
    expect(await replay("parallel-function-calls-with-ids.i0.sse", "gemini-3.1-pro-preview")).toEqual([
      { type: "tool-call-start", id: "8hd01vsf", name: "add", metadata: { gemini: { thoughtSignature: signature } } },
      { type: "tool-call-end", id: "8hd01vsf", input: { a: 2, b: 3 } },
      { type: "tool-call-start", id: "k0srpqrc", name: "multiply" },
      { type: "tool-call-end", id: "k0srpqrc", input: { b: 3, a: 2 } },
      usage(157, 32 + 438, 438),
      { type: "finish", reason: "tool-calls" },
    ]);
  });

  it("second turns of the tool cassettes: plain text answers", async () => {
    const sameChunk = await replay("parallel-function-calls-same-chunk.i1.sse");
    expect(sameChunk.filter((event) => event.type === "text-delta").map((event) => event.text)).toEqual([
      "The sum of ",
      "2 and 3 is 5. The product of 2 and 3 is",
      " 6.",
    ]);
    expect(sameChunk.slice(-2)).toEqual([usage(218, 22), { type: "finish", reason: "stop" }]);

    const withIds = await replay("parallel-function-calls-with-ids.i1.sse");
    const [signature] = fixtureSignatures("parallel-function-calls-with-ids.i1.sse");
    expect(withIds.at(-3)).toEqual({
      type: "reasoning-delta",
      text: "",
      signature,
      metadata: { gemini: { thoughtSignature: signature, onText: true } },
    });
    expect(withIds.slice(-2)).toEqual([usage(646, 19 + 20, 20), { type: "finish", reason: "stop" }]);

    const florence = await replay("thought-parts-function-call.i1.sse");
    expect(florence).toEqual([
      { type: "text-delta", text: "The weather in Florence" },
      { type: "text-delta", text: ", Italy is 40 C." },
      usage(146, 12),
      { type: "finish", reason: "stop" },
    ]);
  });

  it("function-call-gemini3: a call without id gets one; the finish arrives on a later empty chunk", async () => {
    const events = await replay("function-call-gemini3.chunks.jsonl", "gemini-3-pro-preview");
    const [signature] = fixtureSignatures("function-call-gemini3.chunks.jsonl");
    const id = expectInventedId(events[0]);
    expect(events).toEqual([
      { type: "tool-call-start", id, name: "weather", metadata: { gemini: { thoughtSignature: signature } } },
      { type: "tool-call-end", id, input: { location: "San Francisco" } },
      usage(29, 15 + 804, 804),
      { type: "finish", reason: "tool-calls" },
    ]);
  });

  it("max-tokens.replay.json: MAX_TOKENS finishes max-tokens", async () => {
    const events = await replay("max-tokens.replay.json");
    expect(events.filter((event) => event.type === "text-delta")).toHaveLength(3);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "max-tokens" });
    expect(events.at(-2)).toMatchObject({ type: "usage", usage: { inputTokens: 7 } });
  });

  it("vertex partialArgs: each streamed call is announced, then its assembled input", async () => {
    const events = stableIds(await replay("vertex-streamed-function-call-args.chunks.jsonl", "gemini-3.1-pro-preview"));
    const [signature] = fixtureSignatures("vertex-streamed-function-call-args.chunks.jsonl");
    expect(events).toEqual([
      {
        type: "tool-call-start",
        id: "invented_0",
        name: "getWeather",
        metadata: { gemini: { thoughtSignature: signature } },
      },
      { type: "tool-call-end", id: "invented_0", input: { location: "Boston" } },
      { type: "tool-call-start", id: "invented_1", name: "getWeather" },
      { type: "tool-call-end", id: "invented_1", input: { location: "San Francisco" } },
      usage(26, 23 + 132, 132),
      { type: "finish", reason: "tool-calls" },
    ]);
  });

  it("vertex partialArgs in parallel after a whole no-argument call", async () => {
    const events = stableIds(await replay("vertex-streamed-function-call-args-parallel.chunks.jsonl"));
    const calls = events.filter((event) => event.type.startsWith("tool-call"));
    expect(calls).toEqual([
      {
        type: "tool-call-start",
        id: "invented_0",
        name: "read_theme",
        metadata: { gemini: { thoughtSignature: expect.any(String) } },
      },
      { type: "tool-call-end", id: "invented_0", input: {} },
      { type: "tool-call-start", id: "invented_1", name: "read_screen" },
      { type: "tool-call-end", id: "invented_1", input: { id: "A" } },
      { type: "tool-call-start", id: "invented_2", name: "read_screen" },
      { type: "tool-call-end", id: "invented_2", input: { id: "B" } },
      { type: "tool-call-start", id: "invented_3", name: "read_screen" },
      { type: "tool-call-end", id: "invented_3", input: { id: "C" } },
    ]);
    expect(events[0]).toMatchObject({ type: "reasoning-delta", metadata: { gemini: { thought: true } } });
    expect(events.slice(-2)).toEqual([usage(249, 58 + 183, 183), { type: "finish", reason: "tool-calls" }]);
  });
});

describe("gemini family: re-chunking", () => {
  const FIXTURES = [
    "text.i0.sse",
    "text-gemini3-signature.chunks.jsonl",
    "thought-parts.i0.sse",
    "thought-parts-function-call.i0.sse",
    "parallel-function-calls-same-chunk.i0.sse",
    "parallel-function-calls-with-ids.i0.sse",
    "function-call-gemini3.chunks.jsonl",
    "max-tokens.replay.json",
    "vertex-streamed-function-call-args-parallel.chunks.jsonl",
  ];

  for (const [fixtureIndex, name] of FIXTURES.entries()) {
    it(`${name}: 30 random splits (down to 1 byte) give the same events`, async () => {
      const sse = fixtureSseText(name);
      server.enqueue("gemini", { sse });
      const reference = stableIds(await collect(server, request));
      const random = seededRandom(1000 + fixtureIndex);
      for (let round = 0; round < 30; round++) {
        // Every round mixes 1-3 byte pieces (inside `data:`, inside `\r\n\r\n`, inside UTF-8) with larger ones;
        // the share of tiny pieces grows with the round.
        const tiny = 0.1 + (round / 30) * 0.5;
        const sizes = Array.from({ length: 97 }, () =>
          random() < tiny ? 1 + Math.floor(random() * 3) : 1 + Math.floor(random() * 400),
        );
        server.enqueue("gemini", { sse, chunkSizes: sizes });
        const events = stableIds(await collect(server, request));
        expect(events, `${name} round ${round} sizes ${sizes.slice(0, 8).join(",")}`).toEqual(reference);
      }
      // Thousands of 1-3 byte writes per round: generous on a shared 2-core machine.
    }, 60_000);
  }
});
