import { readFileSync } from "node:fs";
import type { AgentModelEvent, AgentModelRequest } from "@heddle/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StreamAssembler } from "../../../../agents/src/stream-assembler.js";
import {
  chunksJsonlResponse,
  type MockProviderServer,
  type MockResponse,
  startMockProviderServer,
} from "../../testing/mock-server.js";
import { family } from "./index.js";
import { assembleAssistant, collect, condense, splitResponses } from "./test-support.js";

const dir = new URL("../../../test/fixtures/openai-responses/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, dir), "utf8");

/** The `data:` payloads of a raw SSE fixture, to read the vendor's own final values from. */
function payloads(sse: string): any[] {
  return sse
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)));
}

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());

const request: AgentModelRequest = { messages: [], tools: [] };

async function replay(response: MockResponse): Promise<AgentModelEvent[]> {
  server.enqueue("openai", response);
  return collect(
    family.streamOnce({
      providerId: "openai",
      modelId: "gpt-5",
      apiKey: "test-key",
      baseUrl: server.baseUrl("openai"),
      request,
      signal: new AbortController().signal,
    }),
  );
}

const zeroCache = { cacheReadTokens: 0, cacheWriteTokens: 0 };

describe("openai responses: recorded streams", () => {
  it("text.i0.sse: streamed text, usage, stop", async () => {
    const events = await replay({ sse: fixture("text.i0.sse") });
    expect(events).toEqual([
      { type: "text-delta", text: "Olá" },
      { type: "text-delta", text: "!" },
      { type: "usage", usage: { inputTokens: 20, outputTokens: 3, reasoningTokens: 0, ...zeroCache } },
      { type: "finish", reason: "stop" },
    ]);
  });

  it("function-call.i0.sse: one call as a block: start with id and name, argument fragments, parsed end", async () => {
    const events = await replay({ sse: fixture("function-call.i0.sse") });
    expect(events.filter((event) => event.type === "tool-call-delta")).toHaveLength(8);
    expect(condense(events)).toEqual([
      {
        type: "tool-call-start",
        id: "call_PRiJm2RVAvt7IoRvjxIXxFVF",
        name: "weather",
        metadata: { openai: { itemId: "fc_08e0d5fe24768fbd016a3c120112e481928ab6e9c900d449e6" } },
      },
      { type: "tool-call-delta", id: "call_PRiJm2RVAvt7IoRvjxIXxFVF", text: '{"location":"Florence, Italy"}' },
      { type: "tool-call-end", id: "call_PRiJm2RVAvt7IoRvjxIXxFVF", input: { location: "Florence, Italy" } },
      { type: "usage", usage: { inputTokens: 58, outputTokens: 17, reasoningTokens: 0, ...zeroCache } },
      { type: "finish", reason: "tool-calls" },
    ]);
    const call = assembleAssistant(new StreamAssembler(), events).content[0];
    expect(call).toMatchObject({ type: "tool-call", input: { location: "Florence, Italy" } });
  });

  it("function-call.i1.sse: the answer after the tool result", async () => {
    const events = await replay({ sse: fixture("function-call.i1.sse") });
    expect(condense(events)).toEqual([
      { type: "text-delta", text: "The current temperature in Florence, Italy is 40°C." },
      { type: "usage", usage: { inputTokens: 81, outputTokens: 14, reasoningTokens: 0, ...zeroCache } },
      { type: "finish", reason: "stop" },
    ]);
  });

  it("parallel-function-calls-with-reasoning.i0.sse: a reasoning item without summary, then two calls", async () => {
    const events = await replay({ sse: fixture("parallel-function-calls-with-reasoning.i0.sse") });
    expect(condense(events)).toEqual([
      {
        type: "reasoning-delta",
        text: "",
        signature: "rs_0a7836d50cf181dd016a3c122e5e1881a1b60647835c2c9ab0",
        metadata: { openai: { itemId: "rs_0a7836d50cf181dd016a3c122e5e1881a1b60647835c2c9ab0", summary: [] } },
      },
      {
        type: "tool-call-start",
        id: "call_inViAUr9eV0GDtyOywkCxp59",
        name: "add",
        metadata: { openai: { itemId: "fc_0a7836d50cf181dd016a3c12307fa481a1a06adb8b03345a43" } },
      },
      { type: "tool-call-delta", id: "call_inViAUr9eV0GDtyOywkCxp59", text: '{"a":2,"b":3}' },
      { type: "tool-call-end", id: "call_inViAUr9eV0GDtyOywkCxp59", input: { a: 2, b: 3 } },
      {
        type: "tool-call-start",
        id: "call_Op66UUnzuOoKmgGeFJQJFTUY",
        name: "multiply",
        metadata: { openai: { itemId: "fc_0a7836d50cf181dd016a3c12307fc081a1affc9e4960f41492" } },
      },
      { type: "tool-call-delta", id: "call_Op66UUnzuOoKmgGeFJQJFTUY", text: '{"a":2,"b":3}' },
      { type: "tool-call-end", id: "call_Op66UUnzuOoKmgGeFJQJFTUY", input: { a: 2, b: 3 } },
      { type: "usage", usage: { inputTokens: 109, outputTokens: 223, reasoningTokens: 128, ...zeroCache } },
      { type: "finish", reason: "tool-calls" },
    ]);
  });

  it("parallel-function-calls-with-reasoning.i1.sse: final text", async () => {
    const events = await replay({ sse: fixture("parallel-function-calls-with-reasoning.i1.sse") });
    const done = payloads(fixture("parallel-function-calls-with-reasoning.i1.sse")).find(
      (payload) => payload.type === "response.output_text.done",
    );
    expect(condense(events)).toEqual([
      { type: "text-delta", text: done.text },
      { type: "usage", usage: { inputTokens: 167, outputTokens: 30, reasoningTokens: 0, ...zeroCache } },
      { type: "finish", reason: "stop" },
    ]);
  });

  it("reasoning-summary-function-call.i0.sse: summary deltas, then the complete encrypted content from .done", async () => {
    const sse = fixture("reasoning-summary-function-call.i0.sse");
    const events = await replay({ sse });
    const summary = payloads(sse).find((payload) => payload.type === "response.reasoning_summary_text.done").text;
    const doneItem = payloads(sse).find(
      (payload) => payload.type === "response.output_item.done" && payload.item.type === "reasoning",
    ).item;
    expect(doneItem.encrypted_content).toHaveLength(1572); // the copy on .added is shorter (932): not the one to keep
    expect(condense(events)).toEqual([
      { type: "reasoning-delta", text: summary },
      {
        type: "reasoning-delta",
        text: "",
        // The item id signs the item's part closed, so the loop keeps each reasoning item as its own part.
        signature: "rs_017e85da2ae23b69016a3c1251dcec819daf72930a854fd4d1",
        metadata: {
          openai: {
            itemId: "rs_017e85da2ae23b69016a3c1251dcec819daf72930a854fd4d1",
            summary: [{ type: "summary_text", text: summary }],
            encryptedContent: doneItem.encrypted_content,
          },
        },
      },
      {
        type: "tool-call-start",
        id: "call_zgUaIBRPTwxxOusyyKw5NVMH",
        name: "weather",
        // Only the call's own id: its reasoning is the part before it, stored once.
        metadata: { openai: { itemId: "fc_017e85da2ae23b69016a3c12560820819db3b6e8a38dddad65" } },
      },
      { type: "tool-call-delta", id: "call_zgUaIBRPTwxxOusyyKw5NVMH", text: '{"location":"Florence, Italy"}' },
      { type: "tool-call-end", id: "call_zgUaIBRPTwxxOusyyKw5NVMH", input: { location: "Florence, Italy" } },
      { type: "usage", usage: { inputTokens: 63, outputTokens: 121, reasoningTokens: 64, ...zeroCache } },
      { type: "finish", reason: "tool-calls" },
    ]);
    expect(summary.startsWith("**Getting weather info**")).toBe(true);
  });

  it("reasoning-summary-function-call.i1.sse: reasoning then the answer", async () => {
    const sse = fixture("reasoning-summary-function-call.i1.sse");
    const events = await replay({ sse });
    const all = payloads(sse);
    const summary = all.find((payload) => payload.type === "response.reasoning_summary_text.done")?.text ?? "";
    const answer = all.find((payload) => payload.type === "response.output_text.done").text;
    const reasoningItem = all.find(
      (payload) => payload.type === "response.output_item.done" && payload.item.type === "reasoning",
    ).item;
    const condensed = condense(events);
    expect(condensed.slice(-3)).toEqual([
      { type: "text-delta", text: answer },
      { type: "usage", usage: { inputTokens: 92, outputTokens: 456, reasoningTokens: 384, ...zeroCache } },
      { type: "finish", reason: "stop" },
    ]);
    const message = assembleAssistant(new StreamAssembler(), events);
    expect(message.content[0]).toEqual({
      type: "reasoning",
      text: reasoningItem.summary.map((part: { text: string }) => part.text).join("\n\n"),
      signature: reasoningItem.id,
      providerMetadata: {
        openai: {
          itemId: reasoningItem.id,
          summary: reasoningItem.summary,
          encryptedContent: reasoningItem.encrypted_content,
        },
      },
    });
    if (summary) expect((message.content[0] as { text: string }).text.startsWith(summary)).toBe(true);
    expect(message.content[1]).toEqual({ type: "text", text: answer });
  });

  it("reasoning-encrypted-multistep.chunks.jsonl: four responses of one agent loop", async () => {
    const responses = splitResponses(fixture("reasoning-encrypted-multistep.chunks.jsonl"));
    expect(responses).toHaveLength(4);
    const calls = [
      ["call_AB6AaRZ1FYZB2RwS6A5vbdqn", { a: 12, b: 7, op: "add" }],
      ["call_Q6pW65MUgW9vF59BmItYGos3", { a: 19, b: 3, op: "multiply" }],
      ["call_Zl5vIMnD7dVAjgU6FkhmiCZh", { a: 57, b: 10, op: "multiply" }],
    ] as const;
    const usage = [
      [134, 28],
      [221, 26],
      [260, 26],
      [299, 12],
    ];
    for (const [step, text] of responses.entries()) {
      const events = await replay(chunksJsonlResponse(text));
      const message = assembleAssistant(new StreamAssembler(), events);
      const [inputTokens, outputTokens] = usage[step]!;
      expect(events.slice(-2)).toEqual([
        { type: "usage", usage: { inputTokens, outputTokens, reasoningTokens: 0, ...zeroCache } },
        { type: "finish", reason: step < 3 ? "tool-calls" : "stop" },
      ]);
      if (step < 3) {
        const [id, input] = calls[step]!;
        const call = message.content.find((part) => part.type === "tool-call");
        expect(call).toMatchObject({ toolCallId: id, toolName: "calculator", input });
      } else {
        expect(message.content).toEqual([{ type: "text", text: "The final result is **570**." }]);
      }
    }
    const first = assembleAssistant(new StreamAssembler(), await replay(chunksJsonlResponse(responses[0]!)));
    expect(first.content.map((part) => part.type)).toEqual(["reasoning", "tool-call"]);
    expect(first.content[0]).toMatchObject({
      text: expect.stringMatching(/^\*\*Calculating step-by-step using calculator\*\*\n\nI'll compute 12 plus 7/),
      providerMetadata: {
        openai: {
          itemId: "rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9",
          encryptedContent: expect.stringMatching(/^gAAAAABpPDIVOKrsHNZ0/),
        },
      },
    });
  });

  it("error-insufficient-quota.chunks.jsonl: the nested in-stream error ends the response, not retryable", async () => {
    const events = await replay(chunksJsonlResponse(fixture("error-insufficient-quota.chunks.jsonl")));
    expect(events).toEqual([
      {
        type: "finish",
        reason: "error",
        error: {
          kind: "rate_limit",
          retryable: false,
          message: expect.stringMatching(/^You exceeded your current quota.*\(insufficient_quota\)$/),
        },
      },
    ]);
  });
});
