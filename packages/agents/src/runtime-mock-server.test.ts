import { type MockProviderServer, startMockProviderServer } from "@heddle/llms/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { echoTool, toolResults } from "../test/helpers.js";
import { AgentRuntime } from "./index.js";

// Drives the provider form end to end: the gateway, the real `openai` client, and the vendor's SSE wire format.
let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());

const chunk = (delta: object, finish: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "mock-model",
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usage = (prompt: number, completion: number) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "mock-model",
  choices: [],
  usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
});

describe("AgentRuntime through the gateway and the real openai client", () => {
  it("runs a two-turn tool loop with arguments streamed in fragments", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    server.enqueue("openai-chat", {
      events: [
        chunk({
          role: "assistant",
          tool_calls: [{ index: 0, id: "call_abc", type: "function", function: { name: "echo", arguments: "" } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"te' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'xt":"from the wire"}' } }] }),
        chunk({}, "tool_calls"),
        usage(20, 8),
      ],
    });
    server.enqueue("openai-chat", {
      events: [
        chunk({ role: "assistant", content: "The tool said " }),
        chunk({ content: "hello." }),
        chunk({}, "stop"),
        usage(40, 5),
      ],
    });
    const agent = new AgentRuntime({
      providerId: "openai-compatible",
      modelId: "mock-model",
      baseUrl: server.baseUrl("openai-chat"),
      apiKey: "sk-test",
      tools: [echoTool()],
      systemPrompt: "You are terse.",
    });
    const result = await agent.run("call echo");
    warn.mockRestore();
    expect(result).toMatchObject({
      status: "completed",
      reason: "end_turn",
      outputText: "The tool said hello.",
      iterations: 2,
    });
    expect(toolResults(result.messages)).toMatchObject([{ toolCallId: "call_abc", output: "echo: from the wire" }]);
    expect(result.usage).toMatchObject({ inputTokens: 60, outputTokens: 13 });
    const second = server.requests.at(-1)!.body;
    expect(second.messages[0]).toMatchObject({ role: "system", content: "You are terse." });
    expect(second.messages.find((m: { role: string }) => m.role === "tool")).toMatchObject({
      tool_call_id: "call_abc",
      content: "echo: from the wire",
    });
    expect(second.tools[0]).toMatchObject({ type: "function", function: { name: "echo" } });
  });

  it("prints the not-in-the-catalog notice once per provider+model in the process, not once per agent", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const reply = { events: [chunk({ role: "assistant", content: "ok" }), chunk({}, "stop"), usage(3, 1)] };
    // Each agent in the provider form builds its own gateway; the notice is still given once.
    const agentFor = (modelId: string) =>
      new AgentRuntime({
        providerId: "openai-compatible",
        modelId,
        baseUrl: server.baseUrl("openai-chat"),
        apiKey: "sk-test",
      });
    for (const modelId of ["notice-model-a", "notice-model-a", "notice-model-a", "notice-model-b"]) {
      server.enqueue("openai-chat", reply);
      expect(await agentFor(modelId).run("hi")).toMatchObject({ status: "completed", outputText: "ok" });
    }
    const notices = warn.mock.calls.map((call) => String(call[0])).filter((text) => text.includes("catalog"));
    warn.mockRestore();
    expect(notices).toEqual([
      expect.stringContaining('"notice-model-a" is not in the catalog of provider "openai-compatible"'),
      expect.stringContaining('"notice-model-b" is not in the catalog of provider "openai-compatible"'),
    ]);
  });

  it("rejects a provider the gateway does not know with a typed error naming it", async () => {
    const agent = new AgentRuntime({ providerId: "no-such-provider", modelId: "m" });
    await expect(agent.run("hi")).rejects.toMatchObject({
      name: "ConfigError",
      code: "config_invalid",
      message: expect.stringContaining('"no-such-provider"'),
    });
  });
});
