import type { AgentModelEvent } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockProviderServer, startMockProviderServer } from "../../testing/mock-server.js";
import { assemble, fixture, fixtureResponse, runFamily, userText } from "./test-helpers.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function replay(name: string): Promise<AgentModelEvent[]> {
  server.enqueue("anthropic", fixtureResponse(name));
  return runFamily(server, { messages: [userText("hi")], tools: [] });
}

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  type: "usage",
  usage: { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens: 0 },
});

/** The signature of a fixture's `signature_delta`, read from the file so the comparison is byte for byte. */
function signatureIn(name: string): string {
  return /"signature_delta","signature":"([^"]+)"/.exec(fixture(name))![1]!;
}

describe("anthropic replay of recorded streams", () => {
  it("text.sse: text deltas in order, usage from message_start plus the cumulative message_delta", async () => {
    expect(await replay("text.sse")).toEqual([
      { type: "text-delta", text: "Hello" },
      { type: "text-delta", text: " there" },
      { type: "text-delta", text: "!" },
      usage(11, 6),
      { type: "finish", reason: "stop" },
    ]);
  });

  it("text.chunks.jsonl: the Vercel payload-per-line recording", async () => {
    const events = await replay("text.chunks.jsonl");
    expect(events.map((e) => (e.type === "text-delta" ? e.text : e.type))).toEqual([
      "Hello",
      "! I",
      "'m doing well, thank you for asking",
      ". How are you doing today?",
      " Is",
      " there anything I can help you with?",
      "usage",
      "finish",
    ]);
    expect(events.slice(-2)).toEqual([usage(12, 30), { type: "finish", reason: "stop" }]);
  });

  it("text-then-tool-use.sse: text, then one call as a block: start, argument deltas, parsed end", async () => {
    const id = "toolu_01NRLabsLyVHZPKxbKvkfSMn";
    expect(await replay("text-then-tool-use.sse")).toEqual([
      { type: "text-delta", text: "I" },
      { type: "text-delta", text: "'ll check the current weather in Paris for you." },
      { type: "tool-call-start", id, name: "get_weather" },
      { type: "tool-call-delta", id, text: '{"locati' },
      { type: "tool-call-delta", id, text: 'on": "P' },
      { type: "tool-call-delta", id, text: "ar" },
      { type: "tool-call-delta", id, text: 'is"}' },
      { type: "tool-call-end", id, input: { location: "Paris" } },
      usage(377, 65),
      { type: "finish", reason: "tool-calls" },
    ]);
  });

  it("tool-use-no-args.chunks.jsonl: a call with only an empty fragment gets input {}", async () => {
    const events = await replay("tool-use-no-args.chunks.jsonl");
    const id = "toolu_01QE1WLsSVp5hy5Q3GmGTmjP";
    expect(events.filter((e) => e.type.startsWith("tool-call"))).toEqual([
      { type: "tool-call-start", id, name: "updateIssueList" },
      { type: "tool-call-end", id, input: {} },
    ]);
    const message = assemble(events);
    expect(message.content).toEqual([
      { type: "text", text: "I'll update the issue list for you." },
      { type: "tool-call", toolCallId: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", toolName: "updateIssueList", input: {} },
    ]);
    expect(message.usage).toEqual(usage(565, 48).usage);
    expect(message.finish).toEqual({ type: "finish", reason: "tool-calls" });
  });

  it("max-tokens-mid-tool-use.sse: a call cut by max_tokens finishes max-tokens, never tool-calls", async () => {
    const events = await replay("max-tokens-mid-tool-use.sse");
    const message = assemble(events);
    expect(message.content).toEqual([
      {
        type: "text",
        text: "I'll create a comprehensive tax guide for someone with multiple W2s and save it in a file called taxes.txt. Let me do that for you now.",
      },
      { type: "tool-call", toolCallId: "toolu_01EKqbqmZrGRXy18eN7m9kvY", toolName: "make_file", input: undefined },
    ]);
    const id = "toolu_01EKqbqmZrGRXy18eN7m9kvY";
    expect(events.find((e) => e.type === "tool-call-start")).toEqual({
      type: "tool-call-start",
      id,
      name: "make_file",
    });
    const text = events.map((e) => (e.type === "tool-call-delta" ? e.text : "")).join("");
    expect(text.startsWith('{"filename": "taxes.txt", "lines_of_text": [')).toBe(true);
    // No input is ever claimed for the half-written call: it ends with its raw text and why it cannot run.
    const ends = events.filter((e) => e.type === "tool-call-end");
    expect(ends).toEqual([
      {
        type: "tool-call-end",
        id,
        rawText: text,
        error: "the response ended before the call's arguments were complete",
      },
    ]);
    expect(events.slice(-2)).toEqual([usage(450, 124), { type: "finish", reason: "max-tokens" }]);
  });

  it("parallel-tool-use.i0.sse: two calls keyed by block index, each with its own parsed input", async () => {
    const message = assemble(await replay("parallel-tool-use.i0.sse"));
    expect(message.content).toEqual([
      { type: "text", text: "I'll add and multiply the numbers 2 and 3 for you." },
      { type: "tool-call", toolCallId: "toolu_01UYxUYC2zRPY8wiutnF48eP", toolName: "add", input: { a: 2, b: 3 } },
      { type: "tool-call", toolCallId: "toolu_01VaRx1jpWCvPhi7L4kywAcd", toolName: "multiply", input: { a: 2, b: 3 } },
    ]);
    expect(message.inputTexts).toEqual(['{"a": 2, "b": 3}', '{"a": 2, "b": 3}']);
    expect(message.usage).toEqual(usage(502, 137).usage);
    expect(message.finish.reason).toBe("tool-calls");
  });

  it("parallel-tool-use.i1.sse: the final answer", async () => {
    const message = assemble(await replay("parallel-tool-use.i1.sse"));
    expect(message.content).toEqual([{ type: "text", text: "The results are:\n- 2 + 3 = 5\n- 2 × 3 = 6" }]);
    expect(message.usage).toEqual(usage(700, 31).usage);
    expect(message.finish.reason).toBe("stop");
  });

  it("thinking-signature.chunks.jsonl: thinking text, then the signature on its own delta with metadata", async () => {
    const events = await replay("thinking-signature.chunks.jsonl");
    const signature = signatureIn("thinking-signature.chunks.jsonl");
    const reasoning = events.filter((e) => e.type === "reasoning-delta");
    expect(reasoning.at(-1)).toEqual({
      type: "reasoning-delta",
      text: "",
      signature,
      metadata: { anthropic: { signature } },
    });
    // The empty thinking_delta before the signature carries nothing and is not emitted.
    expect(reasoning.every((e) => e.text !== "" || e.signature)).toBe(true);
    const message = assemble(events);
    expect(message.content).toEqual([
      {
        type: "reasoning",
        text: "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185",
        signature,
        providerMetadata: { anthropic: { signature } },
      },
      { type: "text", text: "925 ÷ 5 = 185" },
    ]);
    expect(message.usage).toEqual(usage(69, 53).usage);
    expect(message.finish.reason).toBe("stop");
  });

  it("thinking-then-tool-use.i0.sse: signed thinking, then a tool call", async () => {
    const message = assemble(await replay("thinking-then-tool-use.i0.sse"));
    const signature = signatureIn("thinking-then-tool-use.i0.sse");
    expect(message.content).toEqual([
      {
        type: "reasoning",
        text: 'The user is asking for weather information for Florence, Italy. I have access to a weather function that takes a location parameter. The user has provided the location as "Florence, Italy" which is specific enough for the weather function. I have all the required parameters to make the function call.',
        signature,
        providerMetadata: { anthropic: { signature } },
      },
      {
        type: "tool-call",
        toolCallId: "toolu_01Js4AMfx5qpTLhwTusnvT68",
        toolName: "weather",
        input: { location: "Florence, Italy" },
      },
    ]);
    expect(message.usage).toEqual(usage(424, 119).usage);
    expect(message.finish.reason).toBe("tool-calls");
  });

  it("thinking-then-tool-use.i1.sse: the answer after the tool result", async () => {
    const message = assemble(await replay("thinking-then-tool-use.i1.sse"));
    expect(message.content).toEqual([
      {
        type: "text",
        text: "The current weather in Florence, Italy is 40°C (104°F). That's quite hot! If you're planning to visit or are currently there, make sure to stay hydrated and seek shade or air conditioning when possible.",
      },
    ]);
    expect(message.usage).toEqual(usage(558, 51).usage);
  });

  it("redacted-thinking.i0.sse: each redacted block is one delta with its data, then the text", async () => {
    const events = await replay("redacted-thinking.i0.sse");
    const data = [...fixture("redacted-thinking.i0.sse").matchAll(/"redacted_thinking","data":"([^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(data).toHaveLength(2);
    expect(events.slice(0, 2)).toEqual(
      data.map((redactedData) => ({
        type: "reasoning-delta",
        text: "",
        redacted: true,
        metadata: { anthropic: { redactedData } },
      })),
    );
    const message = assemble(events);
    expect(message.content).toHaveLength(3);
    expect(message.content[2]).toEqual({
      type: "text",
      text: "I notice that you've sent what appears to be some kind of test string or command. I don't have any special \"magic string\" triggers or backdoor commands that would expose internal systems or change my behavior.\n\nI'm Claude, an AI assistant created by Anthropic to be helpful, harmless, and honest. How can I assist you today with a legitimate task or question?",
    });
    expect(message.usage).toEqual(usage(92, 189).usage);
    expect(message.finish.reason).toBe("stop");
  });

  it("cache-write-max-tokens.chunks.jsonl: cache writes counted apart from input", async () => {
    expect(await replay("cache-write-max-tokens.chunks.jsonl")).toEqual([
      { type: "text-delta", text: "OK" },
      usage(3, 1, 0, 18639),
      { type: "finish", reason: "max-tokens" },
    ]);
  });

  it("cache-read.chunks.jsonl: cache reads counted apart from input", async () => {
    expect(await replay("cache-read.chunks.jsonl")).toEqual([
      { type: "text-delta", text: "OK" },
      usage(3, 1, 18639, 0),
      { type: "finish", reason: "max-tokens" },
    ]);
  });

  it("stop-sequence.i0.sse: stop_sequence finishes stop", async () => {
    const message = assemble(await replay("stop-sequence.i0.sse"));
    expect(message.content).toEqual([
      {
        type: "text",
        text: '\ndef pelican():\n    return "A large waterbird with a long bill and a throat pouch for catching fish."\n',
      },
    ]);
    expect(message.usage).toEqual(usage(16, 28).usage);
    expect(message.finish.reason).toBe("stop");
  });

  it("refusal.i0.sse: a refusal with no content blocks finishes content-filter", async () => {
    expect(await replay("refusal.i0.sse")).toEqual([usage(97, 0), { type: "finish", reason: "content-filter" }]);
  });
});
