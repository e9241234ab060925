/**
 * A transcript made on Anthropic (thinking with a signature, redacted thinking, tool calls) continues on OpenAI Chat,
 * OpenAI Responses and Gemini through the real vendor clients; each request sent must be valid for its vendor:
 * call and result ids match, ids fit the vendor's limits, and nothing Anthropic-bound leaks.
 */
import type { AgentMessage } from "@heddle/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway } from "../src/gateway.js";
import { type MockProviderServer, startMockProviderServer } from "../src/testing/index.js";
import { assistantFromEvents, collect, finishOf, readFixture } from "./support.js";

let server: MockProviderServer;
let transcript: AgentMessage[];
let signature: string;
const LONG_ID = `toolu_${"A1b2C3d4".repeat(7)}`; // 62 characters: valid for Anthropic, too long for OpenAI
const REDACTED_DATA = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP";
const tools = [
  {
    name: "weather",
    description: "Get weather information for a location",
    inputSchema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
  },
];
const gateway = createGateway({ env: {}, onWarning: () => {}, retry: { maxRetries: 0 } });

beforeAll(async () => {
  server = await startMockProviderServer();
  server.enqueue("anthropic", { sse: readFixture("anthropic", "thinking-then-tool-use.i0.sse") });
  const claude = gateway.createAgentModel({
    providerId: "anthropic",
    modelId: "claude-opus-4-6",
    apiKey: "sk-ant-test",
    baseUrl: server.baseUrl("anthropic"),
  });
  const user: AgentMessage = {
    id: "u1",
    role: "user",
    content: [{ type: "text", text: "What's the weather in Florence, Italy?" }],
    createdAt: 0,
  };
  const events = await collect(claude.stream({ messages: [user], tools }));
  expect(finishOf(events).reason).toBe("tool-calls");
  const first = assistantFromEvents(events, { provider: "anthropic", id: "claude-opus-4-6" }, "a1");
  const reasoning = first.content.find((part) => part.type === "reasoning");
  signature = reasoning?.type === "reasoning" ? (reasoning.signature ?? "") : "";
  expect(signature.length).toBeGreaterThan(100);
  const firstCall = first.content.find((part) => part.type === "tool-call")!;
  const callId = firstCall.type === "tool-call" ? firstCall.toolCallId : "";
  transcript = [
    user,
    first,
    {
      id: "t1",
      role: "tool",
      createdAt: 2,
      content: [{ type: "tool-result", toolCallId: callId, toolName: "weather", output: "40 C" }],
    },
    {
      id: "a2",
      role: "assistant",
      model: { provider: "anthropic", id: "claude-opus-4-6" },
      createdAt: 3,
      content: [
        { type: "reasoning", text: "", redacted: true, providerMetadata: { anthropic: { data: REDACTED_DATA } } },
        { type: "text", text: "Let me check Rome too." },
        { type: "tool-call", toolCallId: LONG_ID, toolName: "weather", input: { location: "Rome" } },
      ],
    },
    {
      id: "t2",
      role: "tool",
      createdAt: 4,
      content: [{ type: "tool-result", toolCallId: LONG_ID, toolName: "weather", output: "30 C" }],
    },
  ];
});
afterAll(() => server.close());

/** Nothing bound to Anthropic is in the request. */
function expectNoLeak(rawBody: string) {
  expect(rawBody).not.toContain(signature);
  expect(rawBody).not.toContain(REDACTED_DATA);
  // The signed thinking survives as plain text.
  expect(rawBody).toContain("<thinking>\\nThe user is asking for weather information for Florence");
}

async function continueOn(
  providerId: string,
  modelId: string,
  family: "openai-chat" | "openai" | "gemini",
  sse: string,
) {
  server.reset();
  server.enqueue(family, { sse });
  const model = gateway.createAgentModel({ providerId, modelId, apiKey: "test-key", baseUrl: server.baseUrl(family) });
  const events = await collect(model.stream({ messages: transcript, tools, systemPrompt: "You are helpful." }));
  expect(finishOf(events).reason).toBe("stop");
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!;
}

describe("cross-provider handoff from Anthropic", () => {
  it("continues on OpenAI Chat Completions", async () => {
    const request = await continueOn(
      "openai-chat",
      "gpt-4o",
      "openai-chat",
      readFixture("openai-chat", "text-with-usage.sse"),
    );
    const messages = request.body.messages as any[];
    const callIds = messages.flatMap((m) => (m.tool_calls ?? []).map((c: any) => c.id));
    const resultIds = messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
    expect(callIds).toHaveLength(2);
    expect(resultIds).toEqual(callIds);
    for (const id of callIds) expect(id.length).toBeLessThanOrEqual(40);
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool"]);
    expect(messages[2].content).toContain("<thinking>");
    expect(request.rawBody).not.toContain(LONG_ID);
    expectNoLeak(request.rawBody);
  });

  it("continues on OpenAI Responses", async () => {
    const request = await continueOn("openai", "gpt-5", "openai", readFixture("openai-responses", "text.i0.sse"));
    const input = request.body.input as any[];
    const calls = input.filter((item) => item.type === "function_call");
    const outputs = input.filter((item) => item.type === "function_call_output");
    expect(calls).toHaveLength(2);
    expect(outputs.map((item) => item.call_id)).toEqual(calls.map((item) => item.call_id));
    for (const call of calls) expect(call.call_id.length).toBeLessThanOrEqual(40);
    expect(input.some((item) => item.type === "reasoning")).toBe(false);
    expect(request.rawBody).not.toContain(LONG_ID);
    expectNoLeak(request.rawBody);
  });

  it("continues on Gemini", async () => {
    const request = await continueOn("gemini", "gemini-2.5-pro", "gemini", readFixture("gemini", "text.i0.sse"));
    const parts = (request.body.contents as any[]).flatMap((content) => content.parts ?? []);
    const calls = parts.filter((part) => part.functionCall).map((part) => part.functionCall);
    const responses = parts.filter((part) => part.functionResponse).map((part) => part.functionResponse);
    expect(calls).toHaveLength(2);
    expect(responses.map((response) => response.name)).toEqual(calls.map((call) => call.name));
    if (calls.some((call) => call.id !== undefined))
      expect(responses.map((response) => response.id)).toEqual(calls.map((call) => call.id));
    expect(parts.some((part) => part.thought === true)).toBe(false);
    expectNoLeak(request.rawBody);
  });
});
