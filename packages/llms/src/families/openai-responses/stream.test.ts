/**
 * Stream shapes no recording covers (cache tokens, `response.incomplete`, refusal, servers that skip deltas),
 * written as SYNTHETIC event scripts from the shapes in the SDK's types and research/vendor-streams.md §4, and
 * served through the real `openai` client.
 */
import type { AgentModelEvent } from "@heddle/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StreamAssembler } from "../../../../agents/src/stream-assembler.js";
import { type MockProviderServer, startMockProviderServer } from "../../testing/mock-server.js";
import { family } from "./index.js";
import { buildResponsesBody } from "./request.js";
import { assembleAssistant, collect, condense } from "./test-support.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());

async function run(events: unknown[]): Promise<AgentModelEvent[]> {
  server.enqueue("openai", { events });
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

const created = { type: "response.created", response: { id: "resp_1", status: "in_progress", usage: null } };
const usage = {
  input_tokens: 1200,
  input_tokens_details: { cached_tokens: 1000, cache_write_tokens: 0 },
  output_tokens: 50,
  output_tokens_details: { reasoning_tokens: 20 },
  total_tokens: 1250,
};
const terminal = (type: string, response: Record<string, unknown> = {}) => ({
  type,
  response: { id: "resp_1", status: type.slice("response.".length), usage, ...response },
});
const callAdded = (id: string, callId: string | undefined, name: string, outputIndex = 0) => ({
  type: "response.output_item.added",
  output_index: outputIndex,
  item: { type: "function_call", id, call_id: callId, name, arguments: "", status: "in_progress" },
});
const argsDelta = (id: string, delta: string, outputIndex = 0) => ({
  type: "response.function_call_arguments.delta",
  item_id: id,
  output_index: outputIndex,
  delta,
});
const textDelta = (delta: string) => ({
  type: "response.output_text.delta",
  item_id: "msg_1",
  content_index: 0,
  delta,
});

describe("openai responses stream: usage and finish", () => {
  it("reports cached tokens apart: input excludes them", async () => {
    const events = await run([created, textDelta("ok"), terminal("response.completed")]);
    expect(events.filter((event) => event.type === "usage")).toEqual([
      {
        type: "usage",
        usage: { inputTokens: 200, cacheReadTokens: 1000, cacheWriteTokens: 0, outputTokens: 50, reasoningTokens: 20 },
      },
    ]);
  });

  it("a response cut by max_output_tokens mid-call finishes max-tokens, never tool-calls", async () => {
    const events = await run([
      created,
      callAdded("fc_1", "call_1", "write_file"),
      argsDelta("fc_1", '{"path":"a.txt","content":"Lorem'),
      terminal("response.incomplete", { incomplete_details: { reason: "max_output_tokens" } }),
    ]);
    expect(events[events.length - 1]).toEqual({ type: "finish", reason: "max-tokens" });
  });

  it("incomplete for content_filter finishes content-filter", async () => {
    const events = await run([
      created,
      textDelta("Part"),
      terminal("response.incomplete", { incomplete_details: { reason: "content_filter" } }),
    ]);
    expect(events[events.length - 1]).toEqual({ type: "finish", reason: "content-filter" });
  });

  it("a refusal is shown as text and finishes content-filter", async () => {
    const events = await run([
      created,
      { type: "response.refusal.delta", item_id: "msg_1", content_index: 0, delta: "I can't help with that." },
      { type: "response.refusal.done", item_id: "msg_1", content_index: 0, refusal: "I can't help with that." },
      terminal("response.completed"),
    ]);
    expect(condense(events).filter((event) => event.type !== "usage")).toEqual([
      { type: "text-delta", text: "I can't help with that." },
      { type: "finish", reason: "content-filter" },
    ]);
  });
});

describe("openai responses stream: tolerance", () => {
  it("skips unknown events and item types", async () => {
    const events = await run([
      created,
      { type: "response.web_search_call.searching", item_id: "ws_1", output_index: 0 },
      { type: "response.output_item.added", output_index: 0, item: { type: "web_search_call", id: "ws_1" } },
      { type: "response.brand_new_event", payload: { anything: true } },
      textDelta("Found it."),
      terminal("response.completed"),
    ]);
    expect(condense(events).map((event) => event.type)).toEqual(["text-delta", "usage", "finish"]);
    expect(events[events.length - 1]).toEqual({ type: "finish", reason: "stop" });
  });

  it("invents a unique call id when a server gives none, and keys fragments by item or output index", async () => {
    const events = await run([
      created,
      callAdded("fc_a", undefined, "read", 0),
      { type: "response.function_call_arguments.delta", output_index: 0, delta: '{"path":' },
      argsDelta("fc_a", '"a"}', 0),
      callAdded("fc_b", undefined, "read", 1),
      argsDelta("fc_b", '{"path":"b"}', 1),
      terminal("response.completed"),
    ]);
    const calls = assembleAssistant(new StreamAssembler(), events).content;
    expect(calls).toMatchObject([
      { type: "tool-call", toolName: "read", input: { path: "a" } },
      { type: "tool-call", toolName: "read", input: { path: "b" } },
    ]);
    const [a, b] = calls as Array<{ toolCallId: string }>;
    expect(a!.toolCallId).toMatch(/^call_/);
    expect(b!.toolCallId).toMatch(/^call_/);
    expect(a!.toolCallId).not.toBe(b!.toolCallId);
    expect(events[events.length - 1]).toEqual({ type: "finish", reason: "tool-calls" });
  });

  it("takes text and arguments from .done events when a server streams no deltas; no-argument calls get {}", async () => {
    const events = await run([
      created,
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { type: "message", id: "msg_1", content: [{ type: "output_text", text: "Hello." }] },
      },
      callAdded("fc_1", "call_1", "lookup", 1),
      { type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 1, arguments: '{"q":"x"}' },
      callAdded("fc_2", "call_2", "now", 2),
      {
        type: "response.output_item.done",
        output_index: 2,
        item: { type: "function_call", id: "fc_2", call_id: "call_2", name: "now", arguments: "" },
      },
      terminal("response.completed"),
    ]);
    expect(assembleAssistant(new StreamAssembler(), events).content).toMatchObject([
      { type: "text", text: "Hello." },
      { type: "tool-call", toolCallId: "call_1", input: { q: "x" } },
      { type: "tool-call", toolCallId: "call_2", input: {} },
    ]);
  });

  it("does not repeat streamed text when .done repeats it whole", async () => {
    const events = await run([
      created,
      textDelta("Hel"),
      textDelta("lo"),
      { type: "response.output_text.done", item_id: "msg_1", content_index: 0, text: "Hello" },
      terminal("response.completed"),
    ]);
    expect(condense(events)[0]).toEqual({ type: "text-delta", text: "Hello" });
  });

  it("gives each reasoning item its own part, in order, and sends them all back before the call", async () => {
    const summary1 = [
      { type: "summary_text", text: "First." },
      { type: "summary_text", text: "Second." },
    ];
    const summary4 = [{ type: "summary_text", text: "Only on done." }];
    const reasoningAdded = (id: string, outputIndex: number) => ({
      type: "response.output_item.added",
      output_index: outputIndex,
      item: { type: "reasoning", id, summary: [] },
    });
    const reasoningDone = (id: string, outputIndex: number, summary: unknown[], enc: string) => ({
      type: "response.output_item.done",
      output_index: outputIndex,
      item: { type: "reasoning", id, summary, encrypted_content: enc },
    });
    const events = await run([
      created,
      reasoningAdded("rs_1", 0),
      { type: "response.reasoning_summary_text.delta", item_id: "rs_1", summary_index: 0, delta: "First." },
      { type: "response.reasoning_summary_text.delta", item_id: "rs_1", summary_index: 1, delta: "Second." },
      reasoningDone("rs_1", 0, summary1, "enc1"),
      reasoningAdded("rs_2", 1),
      { type: "response.reasoning_text.delta", item_id: "rs_2", content_index: 0, delta: "Raw thought." },
      reasoningDone("rs_2", 1, [], "enc2"),
      // No text at all, then a summary given only on .done: each is still its own part.
      reasoningDone("rs_3", 2, [], "enc3"),
      reasoningDone("rs_4", 3, summary4, "enc4"),
      callAdded("fc_1", "call_1", "read", 4),
      argsDelta("fc_1", "{}", 4),
      terminal("response.completed"),
    ]);
    const assistant = assembleAssistant(new StreamAssembler(), events);
    const part = (id: string, text: string, summary: unknown[], enc: string) => ({
      type: "reasoning",
      text,
      signature: id,
      providerMetadata: { openai: { itemId: id, summary, encryptedContent: enc } },
    });
    expect(assistant.content).toEqual([
      part("rs_1", "First.\n\nSecond.", summary1, "enc1"),
      part("rs_2", "Raw thought.", [], "enc2"),
      part("rs_3", "", [], "enc3"),
      part("rs_4", "Only on done.", summary4, "enc4"),
      {
        type: "tool-call",
        toolCallId: "call_1",
        toolName: "read",
        input: {},
        providerMetadata: { openai: { itemId: "fc_1" } },
      },
    ]);
    expect(buildResponsesBody("gpt-5", { messages: [assistant], tools: [] }).input).toEqual([
      { type: "reasoning", id: "rs_1", summary: summary1, encrypted_content: "enc1" },
      { type: "reasoning", id: "rs_2", summary: [], encrypted_content: "enc2" },
      { type: "reasoning", id: "rs_3", summary: [], encrypted_content: "enc3" },
      { type: "reasoning", id: "rs_4", summary: summary4, encrypted_content: "enc4" },
      { type: "function_call", call_id: "call_1", name: "read", arguments: "{}", id: "fc_1" },
    ]);
  });

  it("keeps a text-less reasoning item between two calls in its place, before the second call", async () => {
    const events = await run([
      created,
      { type: "response.reasoning_summary_text.delta", item_id: "rs_1", summary_index: 0, delta: "Plan." },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc1" },
      },
      callAdded("fc_1", "call_1", "read", 1),
      argsDelta("fc_1", '{"path":"a"}', 1),
      {
        type: "response.output_item.done",
        output_index: 2,
        item: { type: "reasoning", id: "rs_2", summary: [], encrypted_content: "enc2" },
      },
      callAdded("fc_2", "call_2", "read", 3),
      argsDelta("fc_2", '{"path":"b"}', 3),
      terminal("response.completed"),
    ]);
    const assistant = assembleAssistant(new StreamAssembler(), events);
    expect(assistant.content.map((part) => part.type)).toEqual(["reasoning", "tool-call", "reasoning", "tool-call"]);
    expect(buildResponsesBody("gpt-5", { messages: [assistant], tools: [] }).input).toEqual([
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc1" },
      { type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a"}', id: "fc_1" },
      { type: "reasoning", id: "rs_2", summary: [], encrypted_content: "enc2" },
      { type: "function_call", call_id: "call_2", name: "read", arguments: '{"path":"b"}', id: "fc_2" },
    ]);
  });
});
