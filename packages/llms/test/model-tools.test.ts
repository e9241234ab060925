/**
 * Provider-side tools (`modelTools`): each family sends them in its vendor's tool list exactly as given, after the
 * function tools, and a call the provider ran itself (Anthropic's server_tool_use) never comes back as a call to
 * run locally. Driven through the gateway and the real vendor clients against the loopback mock server.
 */
import type { AgentModelRequest } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixtureResponse } from "../src/families/anthropic/test-helpers.js";
import { createGateway } from "../src/gateway.js";
import { type MockFamily, type MockProviderServer, startMockProviderServer } from "../src/testing/mock-server.js";
import { collect, finishOf, textOf } from "./support.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const PROVIDERS: Record<MockFamily, { providerId: string; modelId: string }> = {
  "openai-chat": { providerId: "openai-compatible", modelId: "gpt-4o" },
  openai: { providerId: "openai", modelId: "gpt-4o" },
  anthropic: { providerId: "anthropic", modelId: "claude-sonnet-4-20250514" },
  gemini: { providerId: "gemini", modelId: "gemini-2.5-flash" },
};

/** One vendor-shaped provider tool per family, as its documentation writes it. */
const PROVIDER_TOOL: Record<MockFamily, unknown> = {
  anthropic: { type: "web_search_20250305", name: "web_search", max_uses: 3 },
  openai: { type: "web_search_preview", search_context_size: "low" },
  "openai-chat": { type: "web_search", web_search: {} },
  gemini: { googleSearch: {} },
};

/** A short text answer in the family's wire format, so the call completes. */
const TEXT_ANSWER: Record<MockFamily, unknown[]> = {
  anthropic: [
    { type: "message_start", message: { usage: { input_tokens: 3, output_tokens: 1 } } },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ok" } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
    { type: "message_stop" },
  ],
  openai: [
    { type: "response.output_text.delta", item_id: "m1", output_index: 0, content_index: 0, delta: "ok" },
    {
      type: "response.completed",
      response: { id: "r1", status: "completed", output: [], usage: { input_tokens: 3, output_tokens: 1 } },
    },
  ],
  "openai-chat": [{ choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] }],
  gemini: [{ candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" }] }],
};

function model(family: MockFamily) {
  const { providerId, modelId } = PROVIDERS[family];
  const gateway = createGateway({ retry: { maxRetries: 0 }, env: {}, onWarning: () => {} });
  return gateway.createAgentModel({ providerId, modelId, apiKey: "test-key", baseUrl: server.baseUrl(family) });
}

const request = (family: MockFamily): AgentModelRequest => ({
  messages: [{ id: "u1", role: "user", content: [{ type: "text", text: "search the news" }], createdAt: 0 }],
  tools: [{ name: "lookup", description: "Looks a value up", inputSchema: { type: "object", properties: {} } }],
  modelTools: [PROVIDER_TOOL[family]],
});

/** Where each family's request body keeps its tool list. */
function toolsOf(family: MockFamily, body: any): unknown[] {
  return family === "gemini" ? body.tools : body.tools;
}

describe("modelTools", () => {
  it.each(["anthropic", "openai", "openai-chat", "gemini"] as MockFamily[])(
    "%s: the provider tool goes into the vendor's tool list unchanged, after the function tools",
    async (family) => {
      server.enqueue(family, { events: TEXT_ANSWER[family] });
      const events = await collect(model(family).stream(request(family)));
      expect(finishOf(events).reason).toBe("stop");
      const tools = toolsOf(family, server.requests[0]!.body);
      expect(tools).toHaveLength(2);
      expect(tools[1]).toEqual(PROVIDER_TOOL[family]);
      expect(JSON.stringify(tools[0])).toContain("lookup");
    },
  );

  it("anthropic: a web search the provider ran (a recorded stream) is no call to run here; its text comes through", async () => {
    server.enqueue("anthropic", fixtureResponse("web-search-tool.chunks.jsonl"));
    const events = await collect(model("anthropic").stream(request("anthropic")));
    expect(events.some((event) => event.type === "tool-call-start" || event.type === "tool-call-end")).toBe(false);
    expect(finishOf(events).reason).toBe("stop");
    expect(textOf(events)).toContain("Ginza");
  });
});
