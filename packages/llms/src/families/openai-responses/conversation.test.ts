import { readFileSync } from "node:fs";
import type { AgentMessage, AgentModelRequest, ToolDefinition } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StreamAssembler } from "../../../../agents/src/stream-assembler.js";
import { type MockProviderServer, startMockProviderServer } from "../../testing/mock-server.js";
import { family } from "./index.js";
import { assembleAssistant, cassetteRequestBodies, collect } from "./test-support.js";

const dir = new URL("../../../test/fixtures/openai-responses/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, dir), "utf8");

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
beforeEach(() => server.reset());
afterAll(() => server.close());

function user(text: string): AgentMessage {
  return { id: "u1", role: "user", content: [{ type: "text", text }], createdAt: 0 };
}

function toolResults(results: Array<[string, string, string]>): AgentMessage {
  return {
    id: "t1",
    role: "tool",
    createdAt: 0,
    content: results.map(([toolCallId, toolName, output]) => ({ type: "tool-result", toolCallId, toolName, output })),
  };
}

const numberArgs = {
  properties: {
    a: { description: "first number", type: "integer" },
    b: { description: "second number", type: "integer" },
  },
  required: ["a", "b"],
  type: "object",
};
const weather: ToolDefinition = {
  name: "weather",
  description: "Get weather information for a location",
  inputSchema: {
    properties: { location: { description: "the city", type: "string" } },
    required: ["location"],
    type: "object",
  },
};

async function send(modelId: string, request: AgentModelRequest, sse: string) {
  server.enqueue("openai", { sse });
  const events = await collect(
    family.streamOnce({
      providerId: "openai",
      modelId,
      apiKey: "test-key",
      baseUrl: server.baseUrl("openai"),
      request,
      signal: new AbortController().signal,
    }),
  );
  return { events, body: server.requests[server.requests.length - 1]!.body };
}

/** The recorded body with its leading system/developer message moved to `instructions`, as this family sends it. */
function asInstructions(recorded: any): any {
  const [system, ...input] = recorded.input;
  return { ...recorded, instructions: system.content, input };
}

/**
 * Replays a two-request cassette as the loop would run it: first request, the streamed answer assembled into an
 * assistant message, the tool results appended, second request. Returns both request bodies we sent and the
 * two recorded ones.
 */
async function conversation(
  name: string,
  modelId: string,
  first: AgentModelRequest,
  outputs: Record<string, string>,
): Promise<{ sent: any[]; recorded: any[]; assistant: AgentMessage }> {
  const recorded = cassetteRequestBodies(fixture(`${name}.cassette.yaml`));
  const one = await send(modelId, first, fixture(`${name}.i0.sse`));
  const assistant = assembleAssistant(new StreamAssembler(), one.events);
  const calls = assistant.content.filter((part) => part.type === "tool-call");
  const results = toolResults(calls.map((call) => [call.toolCallId, call.toolName, outputs[call.toolName]!]));
  const two = await send(
    modelId,
    { ...first, messages: [...first.messages, assistant, results] },
    fixture(`${name}.i1.sse`),
  );
  expect(two.events[two.events.length - 1]).toEqual({ type: "finish", reason: "stop" });
  return { sent: [one.body, two.body], recorded, assistant };
}

describe("openai responses: cassettes replayed as conversations", () => {
  it("text.cassette.yaml: the request matches the recorded one", async () => {
    const [recorded] = cassetteRequestBodies(fixture("text.cassette.yaml"));
    const { body } = await send(
      "gpt-4o",
      {
        systemPrompt: "You are a helpful assistant",
        messages: [user("Say hi in Portuguese")],
        tools: [],
        options: { maxTokens: 4000 },
      },
      fixture("text.i0.sse"),
    );
    expect(body).toEqual(asInstructions(recorded));
  });

  it("function-call.cassette.yaml: the second request carries the call and its output as recorded", async () => {
    const { sent, recorded } = await conversation(
      "function-call",
      "gpt-4o",
      {
        systemPrompt: "You are a helpful assistant",
        messages: [user("What's the weather in Florence,Italy?")],
        tools: [weather],
        options: { maxTokens: 4000, toolChoice: "auto" },
      },
      { weather: "40 C" },
    );
    expect(sent[0]).toEqual(asInstructions(recorded[0]));
    expect(sent[1]).toEqual(asInstructions(recorded[1]));
  });

  it("parallel-function-calls-with-reasoning: reasoning without encrypted content is not sent back, nor fc ids", async () => {
    // No `include` was asked for here, so the reasoning item has no encrypted content; with `store: false` its
    // id alone would be a 404, and the fc_ ids without it a 400. The recorded second request does the same.
    const { sent, recorded, assistant } = await conversation(
      "parallel-function-calls-with-reasoning",
      "gpt-5",
      {
        systemPrompt: "You are a helpful assistant. Always use both add and multiply at the same time.",
        messages: [user("Add and multiply the number 2 and 3")],
        tools: [
          { name: "add", description: "Add two numbers", inputSchema: numberArgs },
          { name: "multiply", description: "Multiply two numbers", inputSchema: numberArgs },
        ],
        options: { maxTokens: 4000, toolChoice: "auto" },
      },
      { add: "5", multiply: "6" },
    );
    expect(assistant.content.map((part) => part.type)).toEqual(["reasoning", "tool-call", "tool-call"]);
    expect(sent[0]).toEqual(asInstructions(recorded[0]));
    expect(sent[1]).toEqual(asInstructions(recorded[1]));
  });

  it("reasoning-summary-function-call: the reasoning item goes back with its encrypted content, before its call", async () => {
    const { sent, recorded, assistant } = await conversation(
      "reasoning-summary-function-call",
      "gpt-5",
      {
        systemPrompt: "You are a helpful assistant",
        messages: [user("What's the weather in Florence, Italy?")],
        tools: [weather],
        options: { reasoning: { effort: "high" }, toolChoice: "auto" },
      },
      { weather: "40 C" },
    );
    expect(sent[0]).toEqual(asInstructions(recorded[0]));
    const reasoning = assistant.content[0]!;
    const meta = (reasoning as any).providerMetadata.openai;
    expect(meta.encryptedContent).toHaveLength(1572);
    // The recording sent no reasoning back (accepted, but the model loses its reasoning); we send the item
    // verbatim before the call it preceded, and the call with its fc_ id so the API can pair them.
    const expected = asInstructions(recorded[1]);
    const [userItem, call, output] = expected.input;
    expect(sent[1]).toEqual({
      ...expected,
      input: [
        userItem,
        {
          type: "reasoning",
          id: "rs_017e85da2ae23b69016a3c1251dcec819daf72930a854fd4d1",
          summary: meta.summary,
          encrypted_content: meta.encryptedContent,
        },
        { ...call, id: "fc_017e85da2ae23b69016a3c12560820819db3b6e8a38dddad65" },
        output,
      ],
    });
    expect(meta.summary[0].text.startsWith("**Getting weather info**")).toBe(true);
  });
});
