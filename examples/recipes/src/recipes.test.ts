import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createScriptedModel, type MockProviderServer, startMockProviderServer } from "@heddle/llms/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as approval from "./approval-prompt.js";
import * as handoff from "./cross-provider-handoff.js";
import * as customTool from "./custom-tool-zod.js";
import * as hooks from "./hooks.js";
import * as mcpTools from "./mcp-tools.js";
import * as plugin from "./plugin.js";
import * as quickstart from "./quickstart.js";
import * as sessionResume from "./session-resume.js";

const fixture = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../../packages/llms/test/fixtures/${path}`, import.meta.url)), "utf8");

/** Anthropic Messages SSE payloads for one response: optional text, then optional tool_use blocks. */
function anthropicResponse(text: string, tools: Array<{ id: string; name: string; input: unknown }> = []) {
  const events: unknown[] = [
    {
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-6",
        content: [],
        stop_reason: null,
        usage: { input_tokens: 20, output_tokens: 1 },
      },
    },
  ];
  let index = 0;
  if (text) {
    events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
    events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
    events.push({ type: "content_block_stop", index: index++ });
  }
  for (const tool of tools) {
    events.push({
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: tool.id, name: tool.name, input: {} },
    });
    events.push({
      type: "content_block_delta",
      index,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(tool.input) },
    });
    events.push({ type: "content_block_stop", index: index++ });
  }
  events.push({
    type: "message_delta",
    delta: { stop_reason: tools.length ? "tool_use" : "end_turn" },
    usage: { output_tokens: 12 },
  });
  events.push({ type: "message_stop" });
  return { events };
}

let server: MockProviderServer;
beforeEach(async () => {
  server = await startMockProviderServer();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await server.close();
});

describe("examples", () => {
  it("quickstart: the README snippet runs a tool loop on the real Anthropic client", async () => {
    server.enqueue(
      "anthropic",
      anthropicResponse("Let me check.", [{ id: "toolu_1", name: "get_weather", input: { city: "Lisbon" } }]),
      anthropicResponse("It is 18°C and sunny in Lisbon."),
    );
    const result = await quickstart.main({ baseUrl: server.baseUrl("anthropic"), apiKey: "test-key" });
    expect(result.status).toBe("completed");
    expect(result.outputText).toBe("It is 18°C and sunny in Lisbon.");
    const second = server.requests[1]!.body;
    const toolResult = second.messages.at(-1).content[0];
    expect(toolResult).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1" });
    expect(JSON.stringify(toolResult.content)).toContain("sunny in Lisbon");
    expect(result.usage.costUsd).toBeGreaterThan(0);
  });

  it("custom-tool-zod: invalid input goes back to the model as the zod error, then the fixed call runs", async () => {
    const result = await customTool.main();
    const results = result.newMessages.flatMap((m) => m.content).filter((p) => p.type === "tool-result");
    expect(results[0]).toMatchObject({ isError: true });
    expect(String(results[0]?.output)).toMatch(/- value: .*expected number/i);
    expect(String(results[0]?.output)).toMatch(/- from: /);
    expect(results[1]).toMatchObject({ output: "69.8 °F" });
    expect(result.outputText).toBe("21 °C is 69.8 °F.");
  });

  it("approval-prompt: an approval can change the input, a denial is recorded", async () => {
    const changed = await approval.main(async () => ({ approved: true, updatedInput: { branch: "old-feature" } }));
    const output = changed.newMessages.flatMap((m) => m.content).find((p) => p.type === "tool-result");
    expect(output).toMatchObject({ output: "deleted old-feature" });
    const denied = await approval.main(async () => ({ approved: false, reason: "not main!" }));
    expect(denied.permissionDenials).toEqual([
      expect.objectContaining({ toolName: "delete_branch", reason: "not main!", input: { branch: "main" } }),
    ]);
  });

  it("hooks: a shell hook blocks rm -rf with its stderr, a function hook's context reaches the model", async () => {
    const model = createScriptedModel([
      { toolCalls: [{ name: "bash", input: { command: "rm -rf build" } }] },
      { toolCalls: [{ name: "bash", input: { command: "echo cleaned" } }] },
      { text: "Cleaned up without rm -rf." },
    ]);
    const result = await hooks.main(model);
    const results = result.newMessages.flatMap((m) => m.content).filter((p) => p.type === "tool-result");
    expect(results[0]).toMatchObject({ isError: true });
    expect(String(results[0]?.output)).toContain("rm -rf is not allowed here");
    expect(String(results[1]?.output)).toContain("cleaned");
    const lastRequest = JSON.stringify(model.requests[2]!.messages);
    expect(lastRequest).toContain("keep commands idempotent");
  });

  it("plugin: a plugin's tool runs, a missing plugin is reported and the rest load", async () => {
    const { result, failures } = await plugin.main();
    expect(failures).toHaveLength(1);
    expect(failures[0]!.path).toContain("does-not-exist.mjs");
    const output = result.newMessages.flatMap((m) => m.content).find((p) => p.type === "tool-result");
    expect(output).toMatchObject({ toolName: "count_words", output: "4" });
  });

  it("mcp-tools: a session reads a file through a real MCP server; the server is closed after", async () => {
    const { result, mcp } = await mcpTools.main();
    expect(result.outputText).toBe("The note says: buy milk.");
    const output = result.newMessages.flatMap((m) => m.content).find((p) => p.type === "tool-result");
    expect(output).toMatchObject({ toolName: "mcp__files__read_text_file", output: "buy milk" });
    expect(output).not.toHaveProperty("isError", true);
    expect(mcp.servers()).toMatchObject([{ name: "files", status: "closed" }]);
  });

  it("session-resume: a reopened session sends the whole stored history", async () => {
    const model = createScriptedModel([{ text: "Nice to meet you, Ada." }, { text: "Your name is Ada." }]);
    const { result, history } = await sessionResume.main(model);
    expect(result.outputText).toBe("Your name is Ada.");
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(JSON.stringify(model.requests[1]!.messages)).toContain("I'm Ada");
  });

  it("cross-provider-handoff: a Claude transcript with thinking and a tool call continues on OpenAI chat", async () => {
    server.enqueue("anthropic", { sse: fixture("anthropic/thinking-then-tool-use.i0.sse") });
    server.enqueue("anthropic", { sse: fixture("anthropic/thinking-then-tool-use.i1.sse") });
    server.enqueue("openai-chat", { sse: fixture("openai-chat/text-with-usage.sse") });
    const { first, second } = await handoff.main({
      anthropic: { baseUrl: server.baseUrl("anthropic"), apiKey: "test-key" },
      openai: { baseUrl: server.baseUrl("openai-chat"), apiKey: "test-key" },
    });
    expect(first.status).toBe("completed");
    expect(second.status).toBe("completed");
    const body = server.requests.find((r) => r.family === "openai-chat")!.body;
    const call = body.messages.find((m: { tool_calls?: unknown[] }) => m.tool_calls)?.tool_calls[0];
    const result = body.messages.find((m: { role: string }) => m.role === "tool");
    expect(call.function.name).toBe("weather");
    expect(result.tool_call_id).toBe(call.id);
    expect(call.id.length).toBeLessThanOrEqual(40);
    expect(server.requests[1]!.rawBody).toContain('"signature"');
    expect(JSON.stringify(body)).not.toContain('"signature"');
  });
});
