// The README's example, run as written, so the documentation cannot drift from the code.
import { expect, it } from "vitest";
import { createGateway } from "../src/index.js";
import { startMockProviderServer } from "../src/testing/index.js";
import { collect } from "./support.js";

it("README example streams the scripted answer with usage and cost", async () => {
  const server = await startMockProviderServer();
  server.enqueue("openai-chat", {
    events: [
      { choices: [{ index: 0, delta: { role: "assistant", content: "Hello" }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { content: " there!" }, finish_reason: "stop" }] },
      { choices: [], usage: { prompt_tokens: 12, completion_tokens: 3 } },
    ],
  });
  const gateway = createGateway();
  const model = gateway.createAgentModel({
    providerId: "openai-chat",
    modelId: "gpt-4o",
    apiKey: "sk-test",
    baseUrl: server.baseUrl("openai-chat"),
  });
  const events = await collect(model.stream({ messages: [], tools: [] }));
  await server.close();
  expect(events).toEqual([
    { type: "text-delta", text: "Hello" },
    { type: "text-delta", text: " there!" },
    {
      type: "usage",
      usage: {
        inputTokens: 12,
        outputTokens: 3,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
        costUsd: expect.closeTo((12 * 2.5 + 3 * 10) / 1_000_000, 12),
      },
    },
    { type: "finish", reason: "stop" },
  ]);
});
