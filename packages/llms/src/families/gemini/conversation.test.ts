import type { AgentMessage, AgentModelRequest, ToolCallPart, ToolDefinition } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockProviderServer, startMockProviderServer } from "../../testing/mock-server.js";
import {
  assistantFromEvents,
  cassetteRequestBodies,
  collect,
  fixtureResponse,
  fixtureSignatures,
  userText,
} from "./test-helpers.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const numbers = {
  type: "object",
  properties: { a: { type: "integer" }, b: { type: "integer" } },
  required: ["a", "b"],
};
const mathTools: ToolDefinition[] = [
  { name: "add", description: "Add two numbers", inputSchema: numbers },
  { name: "multiply", description: "Multiply two numbers", inputSchema: numbers },
];
const weatherTools: ToolDefinition[] = [
  {
    name: "weather",
    description: "Get weather information for a location",
    inputSchema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
  },
];

function toolResults(assistant: AgentMessage, outputs: string[]): AgentMessage {
  const calls = assistant.content.filter((part): part is ToolCallPart => part.type === "tool-call");
  return {
    id: "t_1",
    role: "tool",
    createdAt: 0,
    content: calls.map((call, i) => ({
      type: "tool-result",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: outputs[i]!,
    })),
  };
}

/**
 * The cassette's recorded second request, with its client's tool-call ids swapped for ours (Gemini 2.5 sends
 * none, so each client invents its own) and `{result}` renamed to our `{output}` response key.
 */
function expectedContents(recorded: any[], ourIds: string[]): any[] {
  const idMap = new Map<string, string>();
  return JSON.parse(JSON.stringify(recorded), (key, value) => {
    if ((key === "functionCall" || key === "functionResponse") && value?.id !== undefined) {
      if (!idMap.has(value.id)) idMap.set(value.id, ourIds[idMap.size]!);
      const next = { ...value, id: idMap.get(value.id) };
      if (next.response?.result !== undefined) next.response = { output: next.response.result };
      return next;
    }
    return value;
  });
}

async function conversation(
  name: string,
  first: AgentModelRequest,
  outputs: string[],
  modelId: string,
): Promise<{ assistant: AgentMessage; body: any; recorded: any[] }> {
  server.enqueue("gemini", fixtureResponse(`${name}.i0.sse`), fixtureResponse(`${name}.i1.sse`));
  const firstEvents = await collect(server, first, { modelId });
  expect(firstEvents.at(-1)).toEqual({ type: "finish", reason: "tool-calls" });
  const assistant = assistantFromEvents(firstEvents);
  const second: AgentModelRequest = {
    ...first,
    messages: [...first.messages, assistant, toolResults(assistant, outputs)],
  };
  const secondEvents = await collect(server, second, { modelId });
  expect(secondEvents.at(-1)).toEqual({ type: "finish", reason: "stop" });
  return { assistant, body: server.requests[1]!.body, recorded: cassetteRequestBodies(`${name}.cassette.yaml`) };
}

function callIds(assistant: AgentMessage): string[] {
  return assistant.content.flatMap((part) => (part.type === "tool-call" ? [part.toolCallId] : []));
}

describe("gemini family: recorded conversations", () => {
  it("thought-parts-function-call: the call goes back with its signature, the result matches its id", async () => {
    const first: AgentModelRequest = {
      systemPrompt: "You are a helpful assistant",
      messages: [userText("What's the weather in Florence, Italy?")],
      tools: weatherTools,
      options: { reasoning: { budgetTokens: 128 }, toolChoice: "auto" },
    };
    const { assistant, body, recorded } = await conversation(
      "thought-parts-function-call",
      first,
      ["40 C"],
      "gemini-2.5-flash",
    );
    expect(server.requests[0]!.body.contents).toEqual(recorded[0].contents);
    expect(server.requests[0]!.body.generationConfig.thinkingConfig).toEqual(
      recorded[0].generationConfig.thinkingConfig,
    );
    expect(server.requests[0]!.body.toolConfig).toEqual(recorded[0].toolConfig);
    expect(body.systemInstruction).toEqual(recorded[1].systemInstruction);
    // The unsigned thought summary is not sent back (neither did the recorded client); the signed call is.
    expect(body.contents).toEqual(expectedContents(recorded[1].contents, callIds(assistant)));
    expect(body.contents[1].parts[0].thoughtSignature).toBe(fixtureSignatures("thought-parts-function-call.i0.sse")[0]);
  });

  it("parallel calls in one chunk: the signature stays on the first call only, results in call order", async () => {
    const first: AgentModelRequest = {
      systemPrompt: "You are a helpful assistant. Always use both add and multiply at the same time.",
      messages: [userText("Add and multiply the number 2 and 3")],
      tools: mathTools,
      options: { maxTokens: 4000, toolChoice: "auto" },
    };
    const { assistant, body, recorded } = await conversation(
      "parallel-function-calls-same-chunk",
      first,
      ["5", "6"],
      "gemini-2.5-flash",
    );
    expect(server.requests[0]!.body.generationConfig).toEqual(recorded[0].generationConfig);
    expect(body.contents).toEqual(expectedContents(recorded[1].contents, callIds(assistant)));
    expect(body.contents[1].parts[1].thoughtSignature).toBeUndefined();
  });

  it("parallel calls with Gemini 3 ids: the vendor ids go back unchanged, exactly as recorded", async () => {
    const first: AgentModelRequest = {
      systemPrompt: "You are a helpful assistant. Always use both add and multiply at the same time.",
      messages: [userText("Add and multiply the number 2 and 3")],
      tools: mathTools,
      options: { maxTokens: 4000, toolChoice: "auto" },
    };
    const { assistant, body, recorded } = await conversation(
      "parallel-function-calls-with-ids",
      first,
      ["5", "6"],
      "gemini-3.1-pro-preview",
    );
    expect(callIds(assistant)).toEqual(["8hd01vsf", "k0srpqrc"]);
    expect(body.contents).toEqual(expectedContents(recorded[1].contents, ["8hd01vsf", "k0srpqrc"]));
  });

  it("a signature that rode on answer text goes back on that text", async () => {
    server.enqueue("gemini", fixtureResponse("text-gemini3-signature.chunks.jsonl"), fixtureResponse("text.i0.sse"));
    const first: AgentModelRequest = { messages: [userText("How many r's in strawberry?")], tools: [] };
    const assistant = assistantFromEvents(await collect(server, first, { modelId: "gemini-3-pro-preview" }));
    await collect(server, { ...first, messages: [...first.messages, assistant, userText("Thanks")] });
    const [signature] = fixtureSignatures("text-gemini3-signature.chunks.jsonl");
    expect(server.requests[1]!.body.contents[1]).toEqual({
      role: "model",
      parts: [{ text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y', thoughtSignature: signature }],
    });
  });

  it("thought-parts: the signature goes back on the first answer part, the rest of the answer after it", async () => {
    server.enqueue("gemini", fixtureResponse("thought-parts.i0.sse"), fixtureResponse("text.i0.sse"));
    const first: AgentModelRequest = { messages: [userText("How do I cross the street?")], tools: [] };
    const assistant = assistantFromEvents(await collect(server, first, { modelId: "gemini-2.5-pro" }));
    await collect(server, { ...first, messages: [...first.messages, assistant, userText("Thanks")] });
    const model = server.requests[1]!.body.contents[1];
    const [signature] = fixtureSignatures("thought-parts.i0.sse");
    expect(model.role).toBe("model");
    expect(model.parts).toHaveLength(2);
    expect(model.parts[0]).toEqual({
      text: expect.stringMatching(/^This is a great question!/),
      thoughtSignature: signature,
    });
    expect(model.parts[1].thoughtSignature).toBeUndefined();
    expect(model.parts.some((part: { thought?: boolean }) => part.thought)).toBe(false);
  });
});
