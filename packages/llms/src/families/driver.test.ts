import type { AgentModelEvent, AgentModelRequest } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type MockFamily, type MockProviderServer, startMockProviderServer } from "../testing/mock-server.js";
import type { StreamLimits, WireFamily } from "../types.js";
import { family as anthropic } from "./anthropic/index.js";
import { clientCache } from "./client-cache.js";
import { family as gemini } from "./gemini/index.js";
import { family as openaiChat } from "./openai-chat/index.js";
import { family as openaiResponses } from "./openai-responses/index.js";

// Every vendor client the families build, counted: the real classes, each constructor call noted.
const built = vi.hoisted(() => ({ Anthropic: 0, GoogleGenAI: 0, OpenAI: 0 }));
vi.mock("@anthropic-ai/sdk", async (importOriginal) => {
  const mod = await importOriginal<typeof import("@anthropic-ai/sdk")>();
  class Anthropic extends mod.Anthropic {
    constructor(...args: ConstructorParameters<typeof mod.Anthropic>) {
      super(...args);
      built.Anthropic++;
    }
  }
  return { ...mod, Anthropic, default: Anthropic };
});
vi.mock("@google/genai", async (importOriginal) => {
  const mod = await importOriginal<typeof import("@google/genai")>();
  class GoogleGenAI extends mod.GoogleGenAI {
    constructor(...args: ConstructorParameters<typeof mod.GoogleGenAI>) {
      super(...args);
      built.GoogleGenAI++;
    }
  }
  return { ...mod, GoogleGenAI };
});
vi.mock("openai", async (importOriginal) => {
  const mod = await importOriginal<typeof import("openai")>();
  class OpenAI extends mod.OpenAI {
    constructor(...args: ConstructorParameters<typeof mod.OpenAI>) {
      super(...args);
      built.OpenAI++;
    }
  }
  return { ...mod, OpenAI, default: OpenAI };
});

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** Each family: its vendor class, and one short text answer ("hi", then a normal stop) in its wire format. */
const CASES: Array<{
  name: string;
  family: WireFamily;
  mock: MockFamily;
  vendor: keyof typeof built;
  answer: unknown[];
}> = [
  {
    name: "anthropic",
    family: anthropic,
    mock: "anthropic",
    vendor: "Anthropic",
    answer: [
      { type: "message_start", message: { usage: { input_tokens: 3, output_tokens: 0 } } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
      { type: "message_stop" },
    ],
  },
  {
    name: "gemini",
    family: gemini,
    mock: "gemini",
    vendor: "GoogleGenAI",
    answer: [{ candidates: [{ content: { role: "model", parts: [{ text: "hi" }] }, finishReason: "STOP" }] }],
  },
  {
    name: "openai-chat",
    family: openaiChat,
    mock: "openai-chat",
    vendor: "OpenAI",
    answer: [{ choices: [{ index: 0, delta: { content: "hi" }, finish_reason: "stop" }] }],
  },
  {
    name: "openai (Responses)",
    family: openaiResponses,
    mock: "openai",
    vendor: "OpenAI",
    answer: [
      { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "hi" },
      { type: "response.completed", response: { status: "completed" } },
    ],
  },
];

const request: AgentModelRequest = {
  messages: [{ id: "u1", role: "user", content: [{ type: "text", text: "hello" }], createdAt: 0 }],
  tools: [],
};

async function call(
  c: (typeof CASES)[number],
  key: { apiKey: string; headers?: Record<string, string>; requestHeaders?: Record<string, string> },
  limits?: StreamLimits,
): Promise<AgentModelEvent[]> {
  server.enqueue(c.mock, { events: c.answer });
  const events: AgentModelEvent[] = [];
  for await (const event of c.family.streamOnce({
    providerId: c.name,
    modelId: "test-model",
    apiKey: key.apiKey,
    baseUrl: server.baseUrl(c.mock),
    request: key.requestHeaders ? { ...request, options: { headers: key.requestHeaders } } : request,
    signal: new AbortController().signal,
    ...(key.headers && { headers: key.headers }),
    ...(limits && { limits }),
  }))
    events.push(event);
  return events;
}

const text = (events: AgentModelEvent[]) => events.map((e) => (e.type === "text-delta" ? e.text : "")).join("");

describe.each(CASES)("family driver, $name: one vendor client per key, URL and headers", (c) => {
  it("a second call with the same key reuses the client; another key or other headers build another", async () => {
    const key = `key-${c.name}`;
    const before = built[c.vendor];
    const first = await call(c, { apiKey: key, headers: { "x-team": "a" } });
    expect(first.at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect(built[c.vendor] - before).toBe(1);

    // Same key and equal headers (another object): the same client, and each call still gets its own answer.
    const second = await call(c, { apiKey: key, headers: { "x-team": "a" } });
    expect(text(second)).toBe("hi");
    expect(second.at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect(built[c.vendor] - before).toBe(1);

    await call(c, { apiKey: `${key}-other`, headers: { "x-team": "a" } });
    expect(built[c.vendor] - before).toBe(2);
    await call(c, { apiKey: key, headers: { "x-team": "b" } });
    expect(built[c.vendor] - before).toBe(3);
    // Each request carried its own key and provider headers.
    expect(server.requests.map((r) => r.headers["x-team"])).toEqual(["a", "a", "a", "b"]);
  });

  it("a reused client carries each call's own limits and request headers, never an earlier call's", async () => {
    const key = `limits-${c.name}`;
    const before = built[c.vendor];
    // The first call's size cap is below any answer: it fails on the limit.
    const capped = await call(c, { apiKey: key, requestHeaders: { "x-call": "1" } }, { maxResponseBytes: 8 });
    expect(capped.at(-1)).toMatchObject({ type: "finish", reason: "error", error: { kind: "server" } });
    expect(String((capped.at(-1) as { error?: { message?: string } }).error?.message)).toContain("maxResponseBytes");
    const free = await call(c, { apiKey: key, requestHeaders: { "x-call": "2" } });
    expect(free.at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect(built[c.vendor] - before).toBe(1);
    expect(server.requests.map((r) => r.headers["x-call"])).toEqual(["1", "2"]);
  });
});

describe("clientCache", () => {
  it("builds on first use, reuses per key/URL/headers, keeps at most `max` (the oldest goes), and retries a failed load", async () => {
    let loads = 0;
    const created: string[] = [];
    const cache = clientCache(
      async () => {
        loads++;
        if (loads === 1) throw new Error("module failed to load");
        return "module";
      },
      (_module, key) => {
        created.push(`${key.apiKey}@${key.baseUrl ?? ""}`);
        return { key: key.apiKey };
      },
      2,
    );
    await expect(cache({ apiKey: "a" })).rejects.toThrow("module failed to load");
    const a = await cache({ apiKey: "a" });
    expect(await cache({ apiKey: "a" })).toBe(a);
    const b = await cache({ apiKey: "b" });
    expect(b).not.toBe(a);
    expect(await cache({ apiKey: "a", baseUrl: "http://x" })).not.toBe(a);
    expect(created).toEqual(["a@", "b@", "a@http://x"]);
    // Bounded at 2: "a" (the oldest) was dropped and is built again; "b" is still there.
    expect(await cache({ apiKey: "b" })).toBe(b);
    expect(await cache({ apiKey: "a" })).not.toBe(a);
    expect(created).toEqual(["a@", "b@", "a@http://x", "a@"]);
  });
});
