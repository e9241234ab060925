import { getEventListeners } from "node:events";
import type { AgentMessage, AgentModelRequest } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  assembleToolCalls,
  collect,
  finishOf,
  goVcrRequestBodies,
  randomChunkSizes,
  readFixture,
  seededRandom,
  textOf,
} from "../../../test/support.js";
import { type MockProviderServer, type MockResponse, startMockProviderServer } from "../../testing/index.js";
import { family } from "./index.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function run(response: MockResponse, request: Partial<AgentModelRequest> = {}, signal = new AbortController().signal) {
  server.enqueue("openai-chat", response);
  return collect(
    family.streamOnce({
      providerId: "openai",
      modelId: "gpt-4o",
      apiKey: "sk-test",
      baseUrl: server.baseUrl("openai-chat"),
      request: { messages: [], tools: [], ...request },
      signal,
    }),
  );
}

const usage = (inputTokens: number, outputTokens: number) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
});

/** What each recorded stream must turn into. */
const EXPECTED: Record<
  string,
  { text: string; calls: Array<{ id: string; name: string; input: unknown }>; usage: object; finish: string }
> = {
  "text-with-usage.sse": {
    text: '{"city":"San Francisco","units":"c"}',
    calls: [],
    usage: usage(17, 10),
    finish: "stop",
  },
  "refusal-with-usage.sse": {
    text: "I'm very sorry, but I can't assist with that request.",
    calls: [],
    usage: usage(17, 13),
    finish: "content-filter",
  },
  "single-tool-call.i0.sse": {
    text: "",
    calls: [{ id: "call_7kE4IjtnwXcGbX6hDM7xFu8T", name: "weather", input: { location: "Florence, Italy" } }],
    usage: usage(61, 16),
    finish: "tool-calls",
  },
  "single-tool-call.i1.sse": {
    text: "The current temperature in Florence, Italy is 40°C.",
    calls: [],
    usage: usage(86, 13),
    finish: "stop",
  },
  "parallel-tool-calls.i0.sse": {
    text: "",
    calls: [
      { id: "call_ehIWdjL1abZk1h8FWGLQ0Hie", name: "add", input: { a: 2, b: 3 } },
      { id: "call_fBSgA47J5VeONggizTIvl7AH", name: "multiply", input: { a: 2, b: 3 } },
    ],
    usage: usage(106, 50),
    finish: "tool-calls",
  },
  "parallel-tool-calls.i1.sse": {
    text: "The sum of 2 and 3 is 5, and the product is 6.",
    calls: [],
    usage: usage(172, 20),
    finish: "stop",
  },
  "parallel-and-long-args.i0.sse": {
    text: "",
    calls: [
      { id: "call_q2UyBRP7eXNTzAoR8lEhjc9Z", name: "get_country", input: {} },
      { id: "call_b51ijcpFkDiTQG1bQzsrmtW5", name: "get_product_name", input: {} },
    ],
    usage: usage(364, 40),
    finish: "tool-calls",
  },
  "parallel-and-long-args.i1.sse": {
    text: "",
    calls: [{ id: "call_LwxJUB9KppVyogRRLQsamRJv", name: "get_weather", input: { city: "Mexico City" } }],
    usage: usage(423, 15),
    finish: "tool-calls",
  },
  "parallel-and-long-args.i2.sse": {
    text: "",
    calls: [
      {
        id: "call_CCGIWaMeYWmxOQ91orkmTvzn",
        name: "final_result",
        input: {
          answers: [
            { label: "Capital", answer: "The capital of Mexico is Mexico City." },
            { label: "Weather", answer: "The weather in Mexico City is currently sunny." },
            { label: "Product Name", answer: "The product name is Pydantic AI." },
          ],
        },
      },
    ],
    usage: usage(448, 62),
    finish: "tool-calls",
  },
};

describe("openai-chat: recorded streams through the real openai client", () => {
  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(`replays ${file}`, async () => {
      const events = await run({ sse: readFixture("openai-chat", file) });
      expect(textOf(events)).toBe(expected.text);
      expect(assembleToolCalls(events).map(({ id, name, input }) => ({ id, name, input }))).toEqual(expected.calls);
      const usageEvents = events.filter((event) => event.type === "usage");
      expect(usageEvents).toEqual([{ type: "usage", usage: expected.usage }]);
      expect(events.at(-2)?.type).toBe("usage");
      expect(finishOf(events)).toEqual({ type: "finish", reason: expected.finish });
      expect(events.filter((event) => event.type === "finish")).toHaveLength(1);
    });
  }

  it("leaves no abort listener on a signal reused for many calls", async () => {
    const controller = new AbortController();
    for (let i = 0; i < 15; i++) {
      const events = await run({ sse: readFixture("openai-chat", "text-with-usage.sse") }, {}, controller.signal);
      expect(finishOf(events).reason).toBe("stop");
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("emits a call as one block: start with id and name, the fragments by id, then the parsed input", async () => {
    const events = await run({ sse: readFixture("openai-chat", "parallel-and-long-args.i2.sse") });
    const id = "call_CCGIWaMeYWmxOQ91orkmTvzn";
    const calls = events.filter((event) => event.type.startsWith("tool-call"));
    expect(calls[0]).toEqual({ type: "tool-call-start", id, name: "final_result" });
    const fragments = calls.slice(1, -1);
    expect(fragments.length).toBeGreaterThan(40);
    for (const fragment of fragments) {
      expect(Object.keys(fragment).sort()).toEqual(["id", "text", "type"]);
      expect(fragment).toMatchObject({ type: "tool-call-delta", id });
    }
    const text = fragments.map((fragment) => (fragment as { text: string }).text).join("");
    expect(calls.at(-1)).toEqual({ type: "tool-call-end", id, input: JSON.parse(text) });
  });
});

/** Neutral transcript of a cassette's first turn, built from our own events, then the tool results. */
function secondTurn(firstRequest: any, events: Awaited<ReturnType<typeof run>>, results: string[]): AgentMessage[] {
  const user = firstRequest.messages.find((message: any) => message.role === "user");
  const calls = assembleToolCalls(events);
  return [
    { id: "u1", role: "user", content: [{ type: "text", text: user.content }], createdAt: 0 },
    {
      id: "a1",
      role: "assistant",
      model: { provider: "openai-chat", id: "gpt-4o" },
      content: calls.map((call) => ({
        type: "tool-call",
        toolCallId: call.id,
        toolName: call.name,
        input: call.input,
      })),
      createdAt: 1,
    },
    {
      id: "t1",
      role: "tool",
      content: calls.map((call, i) => ({
        type: "tool-result",
        toolCallId: call.id,
        toolName: call.name,
        output: results[i]!,
      })),
      createdAt: 2,
    },
  ];
}

/** Messages with arguments parsed and `content: null` dropped, so key order and JSON spacing do not matter. */
function normalizeMessages(messages: any[]): unknown[] {
  return messages.map((message) => {
    const { content, tool_calls, ...rest } = message;
    return {
      ...rest,
      ...(content !== null && content !== undefined && { content }),
      ...(tool_calls && {
        tool_calls: tool_calls.map((call: any) => ({
          ...call,
          function: { name: call.function.name, arguments: JSON.parse(call.function.arguments) },
        })),
      }),
    };
  });
}

describe("openai-chat: multi-request cassettes replayed as a conversation", () => {
  for (const [name, results] of [
    ["single-tool-call", ["40 C"]],
    ["parallel-tool-calls", ["5", "6"]],
  ] as const) {
    it(`${name}: the second request carries the calls and results as the vendor recorded them`, async () => {
      const [first, second] = goVcrRequestBodies(readFixture("openai-chat", `${name}.cassette.yaml`)) as any[];
      const system = first.messages[0].content;
      const tools = first.tools.map((tool: any) => ({
        name: tool.function.name,
        description: tool.function.description,
        inputSchema: tool.function.parameters,
      }));
      const firstEvents = await run(
        { sse: readFixture("openai-chat", `${name}.i0.sse`) },
        { systemPrompt: system, tools },
      );
      const secondEvents = await run(
        { sse: readFixture("openai-chat", `${name}.i1.sse`) },
        { systemPrompt: system, tools, messages: secondTurn(first, firstEvents, [...results]) },
      );
      expect(finishOf(secondEvents).reason).toBe("stop");
      const sent = server.requests[1]!.body;
      expect(normalizeMessages(sent.messages)).toEqual(normalizeMessages(second.messages));
      expect(sent.tools.map((tool: any) => tool.function.name)).toEqual(
        second.tools.map((tool: any) => tool.function.name),
      );
      expect(sent.stream).toBe(true);
      expect(sent.stream_options).toEqual({ include_usage: true });
    });
  }
});

describe("openai-chat: any re-chunking of a body gives the same events", () => {
  const files = Object.keys(EXPECTED);
  for (const file of files) {
    it(`${file}: 30 seeded random chunkings`, async () => {
      const sse = readFixture("openai-chat", file);
      const reference = await run({ sse });
      const bytes = Buffer.byteLength(sse);
      for (let seed = 1; seed <= 30; seed++) {
        const chunkSizes = randomChunkSizes(seededRandom(seed * 7919 + file.length), bytes);
        const events = await run({ sse, chunkSizes, flushChunks: true });
        // Fragment boundaries are the vendor's, not the transport's: the events must match exactly.
        expect(events, `seed ${seed}`).toEqual(reference);
      }
    });
  }
});
