import { getEventListeners } from "node:events";
import type { AgentMessage, AgentModelEvent } from "@heddle/shared";
import { isHeddleError } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { collect, finishOf, readFixture, textOf } from "../test/support.js";
import { createGateway, type GatewayOptions } from "./gateway.js";
import {
  GatewayError,
  MissingApiKeyError,
  MissingBaseUrlError,
  UnknownModelError,
  UnknownProviderError,
} from "./gateway-errors.js";
import { type MockProviderServer, startMockProviderServer } from "./testing/index.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const FAST_RETRY = { initialDelayMs: 1, maxDelayMs: 50, jitter: 0 };
const user: AgentMessage = { id: "u1", role: "user", content: [{ type: "text", text: "hi" }], createdAt: 0 };

function chatModel(options: Partial<GatewayOptions> = {}, modelId = "gpt-4o") {
  const gateway = createGateway({ retry: FAST_RETRY, env: {}, onWarning: () => {}, ...options });
  return gateway.createAgentModel({
    providerId: "openai-chat",
    modelId,
    apiKey: "sk-test",
    baseUrl: server.baseUrl("openai-chat"),
  });
}

const textResponse = () => ({ sse: readFixture("openai-chat", "text-with-usage.sse") });
const chunk = (delta: object, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const openAIError = (type: string, code: string | null, message: string) => ({
  error: { message, type, param: null, code },
});

describe("gateway: retries through the real openai client", () => {
  it("retries a 429 after its retry-after-ms, then streams the answer", async () => {
    server.enqueue(
      "openai-chat",
      {
        status: 429,
        headers: { "retry-after-ms": "20" },
        json: openAIError("requests", "rate_limit_exceeded", "Rate limit reached"),
      },
      textResponse(),
    );
    const onRetry = vi.fn();
    const started = Date.now();
    const events = await collect(
      chatModel({ retry: { ...FAST_RETRY, onRetry } }).stream({ messages: [user], tools: [] }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(18);
    const retry = events.find((event) => event.type === "retry");
    expect(retry).toMatchObject({
      attempt: 1,
      delayMs: 20,
      error: { kind: "rate_limit", status: 429, retryAfterMs: 20 },
    });
    expect(onRetry).toHaveBeenCalledWith(
      expect.objectContaining({ attempt: 1, providerId: "openai-chat", modelId: "gpt-4o" }),
    );
    expect(textOf(events)).toBe('{"city":"San Francisco","units":"c"}');
    expect(finishOf(events).reason).toBe("stop");
    expect(server.requests).toHaveLength(2);
  });

  it("caps a long retry-after at maxDelayMs", async () => {
    server.enqueue(
      "openai-chat",
      { status: 429, headers: { "retry-after": "3600" }, json: openAIError("requests", null, "slow down") },
      textResponse(),
    );
    const events = await collect(chatModel().stream({ messages: [user], tools: [] }));
    expect(events.find((event) => event.type === "retry")).toMatchObject({ delayMs: 50 });
    expect(finishOf(events).reason).toBe("stop");
  });

  it("retries a 503 (overloaded), then succeeds", async () => {
    server.enqueue(
      "openai-chat",
      { status: 503, json: openAIError("server_error", null, "overloaded") },
      textResponse(),
    );
    const events = await collect(chatModel().stream({ messages: [user], tools: [] }));
    expect(events.filter((event) => event.type === "retry").map((event) => (event as any).error.kind)).toEqual([
      "overloaded",
    ]);
    expect(finishOf(events).reason).toBe("stop");
  });

  it("does not retry a 401", async () => {
    server.enqueue("openai-chat", {
      status: 401,
      json: openAIError("invalid_request_error", "invalid_api_key", "Incorrect API key provided"),
    });
    const events = await collect(chatModel().stream({ messages: [user], tools: [] }));
    expect(events.some((event) => event.type === "retry")).toBe(false);
    expect(finishOf(events)).toMatchObject({ reason: "error", error: { kind: "auth", status: 401, retryable: false } });
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry an exhausted quota (429 insufficient_quota)", async () => {
    server.enqueue("openai-chat", {
      status: 429,
      json: openAIError("insufficient_quota", "insufficient_quota", "You exceeded your current quota"),
    });
    const events = await collect(chatModel().stream({ messages: [user], tools: [] }));
    expect(finishOf(events).error).toMatchObject({ kind: "rate_limit", retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it("classifies a context overflow (400 context_length_exceeded) and does not retry it", async () => {
    server.enqueue("openai-chat", {
      status: 400,
      json: openAIError(
        "invalid_request_error",
        "context_length_exceeded",
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 8227 tokens. Please reduce the length of the messages.",
      ),
    });
    const events = await collect(chatModel().stream({ messages: [user], tools: [] }));
    expect(finishOf(events).error).toMatchObject({ kind: "context_overflow", status: 400, retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it("reports a mid-stream error after text and does not retry it", async () => {
    server.enqueue("openai-chat", {
      events: [
        chunk({ role: "assistant", content: "Hel" }),
        chunk({ content: "lo" }),
        openAIError("server_error", null, "The server had an error"),
      ],
    });
    const events = await collect(chatModel().stream({ messages: [user], tools: [] }));
    expect(textOf(events)).toBe("Hello");
    expect(finishOf(events)).toMatchObject({
      reason: "error",
      error: { kind: "server", message: "The server had an error (server_error)" },
    });
    expect(events.some((event) => event.type === "retry")).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a mid-stream error that came before any output", async () => {
    server.enqueue("openai-chat", { events: [openAIError("server_error", null, "early failure")] }, textResponse());
    const events = await collect(chatModel().stream({ messages: [user], tools: [] }));
    expect(events.filter((event) => event.type === "retry")).toHaveLength(1);
    expect(finishOf(events).reason).toBe("stop");
    expect(events.filter((event) => event.type === "usage")).toHaveLength(1);
  });

  it("reports a cut connection as a network error", async () => {
    const sse = readFixture("openai-chat", "text-with-usage.sse");
    server.enqueue("openai-chat", { sse, cutAfterBytes: 600 });
    const events = await collect(chatModel({ retry: { maxRetries: 0 } }).stream({ messages: [user], tools: [] }));
    expect(finishOf(events)).toMatchObject({ reason: "error", error: { kind: "network", retryable: true } });
  });

  it("retries a connection cut before any output", async () => {
    server.enqueue(
      "openai-chat",
      { sse: readFixture("openai-chat", "text-with-usage.sse"), cutAfterBytes: 10 },
      textResponse(),
    );
    const events = await collect(chatModel().stream({ messages: [user], tools: [] }));
    expect(events.find((event) => event.type === "retry")).toMatchObject({ error: { kind: "network" } });
    expect(finishOf(events).reason).toBe("stop");
  });

  it("retries an empty response (stop without any output)", async () => {
    server.enqueue("openai-chat", { events: [chunk({ role: "assistant", content: "" }, "stop")] }, textResponse());
    const events = await collect(chatModel().stream({ messages: [user], tools: [] }));
    expect(events.filter((event) => event.type === "retry")).toHaveLength(1);
    expect(textOf(events)).not.toBe("");
  });

  it("ends promptly with reason aborted when aborted while the server stalls mid-stream", async () => {
    const sse = readFixture("openai-chat", "text-with-usage.sse");
    server.enqueue("openai-chat", { sse, stallAfterBytes: 900 });
    const controller = new AbortController();
    const events: AgentModelEvent[] = [];
    let aborting = false;
    // The server stalls for good: the stream ending at all is the abort's doing.
    for await (const event of chatModel().stream({ messages: [user], tools: [], signal: controller.signal })) {
      events.push(event);
      if (event.type === "text-delta" && !aborting) {
        aborting = true;
        setTimeout(() => controller.abort(), 30);
      }
    }
    expect(finishOf(events).reason).toBe("aborted");
    expect(events.filter((event) => event.type === "finish")).toHaveLength(1);
  });

  it("leaves no abort listener on a signal reused across calls and retries", async () => {
    const controller = new AbortController();
    const model = chatModel();
    for (let i = 0; i < 12; i++) {
      server.enqueue("openai-chat", { status: 503, json: openAIError("server_error", null, "busy") }, textResponse());
      const events = await collect(model.stream({ messages: [user], tools: [], signal: controller.signal }));
      expect(finishOf(events).reason).toBe("stop");
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("ends at once with aborted when aborted during a backoff", async () => {
    server.enqueue("openai-chat", {
      status: 503,
      headers: { "retry-after": "10" },
      json: openAIError("server_error", null, "busy"),
    });
    const controller = new AbortController();
    const model = chatModel({ retry: { maxDelayMs: 10_000 } });
    const events: AgentModelEvent[] = [];
    for await (const event of model.stream({ messages: [user], tools: [], signal: controller.signal })) {
      events.push(event);
      if (event.type === "retry") setTimeout(() => controller.abort(), 10);
    }
    // Had the backoff run out, the retry would have found no response queued and failed, not aborted; only one
    // request reached the server.
    expect(finishOf(events).reason).toBe("aborted");
    expect(server.requests).toHaveLength(1);
  });
});

describe("gateway: models, providers and keys", () => {
  it("adds costUsd to the usage event from the catalog and 0 for unknown models", async () => {
    server.enqueue("openai-chat", textResponse());
    server.enqueue("openai-chat", textResponse());
    const known = await collect(chatModel().stream({ messages: [user], tools: [] }));
    // gpt-4o: 17 input tokens at $2.50/M and 10 output tokens at $10/M.
    const usage = known.find((event) => event.type === "usage") as { usage: { costUsd: number } };
    expect(usage.usage.costUsd).toBeCloseTo((17 * 2.5 + 10 * 10) / 1_000_000, 12);
    const unknown = await collect(chatModel({}, "my-finetune").stream({ messages: [user], tools: [] }));
    expect(unknown.find((event) => event.type === "usage")).toMatchObject({ usage: { costUsd: 0, inputTokens: 17 } });
  });

  it("warns once per unknown model and still streams with default limits", async () => {
    const onWarning = vi.fn();
    const gateway = createGateway({ env: {}, onWarning });
    const first = gateway.createAgentModel({ providerId: "ollama", modelId: "qwen3:8b" });
    gateway.createAgentModel({ providerId: "ollama", modelId: "qwen3:8b" });
    expect(onWarning).toHaveBeenCalledTimes(1);
    expect(onWarning.mock.calls[0]![0]).toContain("qwen3:8b");
    expect(first.info).toMatchObject({ contextWindow: 128_000, maxOutputTokens: 8_192 });
    expect(first.info?.pricing).toBeUndefined();
  });

  it("gives the unknown-model notice through the injected logger, once per provider+model across gateways", () => {
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    // One gateway per agent, as an app that builds agents in the provider form does.
    for (let agent = 0; agent < 3; agent++)
      createGateway({ env: {}, logger }).createAgentModel({ providerId: "ollama", modelId: "my-model" });
    createGateway({ env: {}, logger }).createAgentModel({ providerId: "lmstudio", modelId: "my-model" });
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn.mock.calls.map((call) => call[0])).toEqual([
      expect.stringContaining('"my-model" is not in the catalog of provider "ollama"'),
      expect.stringContaining('"my-model" is not in the catalog of provider "lmstudio"'),
    ]);
  });

  it("throws configuration errors as HeddleErrors with stable codes", () => {
    const gateway = createGateway({ env: {}, onWarning: () => {} });
    const codeOf = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        expect(isHeddleError(error)).toBe(true);
        return (error as { code: string }).code;
      }
      return undefined;
    };
    expect(codeOf(() => gateway.createAgentModel({ providerId: "nope", modelId: "x" }))).toBe("unknown_provider");
    expect(codeOf(() => gateway.createAgentModel({ providerId: "openai", modelId: "gpt-4o" }))).toBe("missing_api_key");
    expect(codeOf(() => gateway.createAgentModel({ providerId: "openai-compatible", modelId: "m" }))).toBe(
      "missing_base_url",
    );
    expect(codeOf(() => gateway.getModelInfo("openai", "no-such-model"))).toBe("unknown_model");
    expect(codeOf(() => gateway.registerProvider({ id: "", name: "x", family: "openai-chat" }))).toBe(
      "invalid_provider_spec",
    );
  });

  it("GatewayError takes the code first and the message second, like HeddleError", () => {
    const cause = new Error("root");
    const error = new GatewayError("unknown_model", "no such model", { cause });
    expect(error).toMatchObject({ code: "unknown_model", message: "no such model", name: "GatewayError" });
    expect(error.cause).toBe(cause);
    expect(isHeddleError(error, "unknown_model")).toBe(true);
  });

  it("names the known providers for an unknown provider", () => {
    const gateway = createGateway({ env: {} });
    const error = (() => {
      try {
        gateway.createAgentModel({ providerId: "opneai", modelId: "x" });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UnknownProviderError);
    expect((error as UnknownProviderError).knownProviders).toContain("openai");
    expect((error as Error).message).toMatch(/Unknown provider "opneai".*anthropic.*openai/);
  });

  it("names the known models when getModelInfo is asked for an unknown one", () => {
    const gateway = createGateway({ env: {} });
    gateway.registerProvider({
      id: "acme",
      name: "Acme",
      family: "openai-chat",
      baseUrl: "http://127.0.0.1:1/v1",
      models: [
        {
          provider: "acme",
          id: "acme-1",
          contextWindow: 1000,
          maxOutputTokens: 100,
          supports: { tools: true, reasoning: false, images: false },
        },
      ],
    });
    expect(gateway.getModelInfo("acme", "acme-1").contextWindow).toBe(1000);
    expect(() => gateway.getModelInfo("acme", "acme-2")).toThrow(UnknownModelError);
    expect(() => gateway.getModelInfo("acme", "acme-2")).toThrow(/Known models: acme-1/);
  });

  it("reads the key from the provider's env vars in order, and names them when missing", async () => {
    expect(() =>
      createGateway({ env: {} }).createAgentModel({ providerId: "gemini", modelId: "gemini-2.5-pro" }),
    ).toThrow(new MissingApiKeyError("gemini", ["GEMINI_API_KEY", "GOOGLE_API_KEY"]));
    expect(() => createGateway({ env: {} }).createAgentModel({ providerId: "groq", modelId: "m" })).toThrow(
      /GROQ_API_KEY/,
    );

    server.enqueue("openai-chat", textResponse());
    const gateway = createGateway({ env: { OPENAI_API_KEY: "sk-from-env" }, onWarning: () => {} });
    const model = gateway.createAgentModel({
      providerId: "openai-chat",
      modelId: "gpt-4o",
      baseUrl: server.baseUrl("openai-chat"),
    });
    await collect(model.stream({ messages: [user], tools: [] }));
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-from-env");
  });

  it("prefers the config key over the environment and sends provider and model headers", async () => {
    server.enqueue("openai-chat", textResponse());
    const gateway = createGateway({
      env: { OPENROUTER_API_KEY: "from-env" },
      onWarning: () => {},
      providers: [
        {
          providerId: "openrouter",
          apiKey: "from-config",
          baseUrl: server.baseUrl("openai-chat"),
          headers: { "X-Title": "heddle" },
        },
      ],
    });
    const model = gateway.createAgentModel({
      providerId: "openrouter",
      modelId: "openai/gpt-4o",
      headers: { "HTTP-Referer": "https://example.test" },
    });
    await collect(model.stream({ messages: [user], tools: [], options: { headers: { "x-request": "1" } } }));
    const headers = server.requests[0]!.headers;
    expect(headers.authorization).toBe("Bearer from-config");
    expect(headers["x-title"]).toBe("heddle");
    expect(headers["http-referer"]).toBe("https://example.test");
    expect(headers["x-request"]).toBe("1");
  });

  it("requires a base URL for openai-compatible and none of the local presets needs a key", () => {
    const gateway = createGateway({ env: {}, onWarning: () => {} });
    expect(() => gateway.createAgentModel({ providerId: "openai-compatible", modelId: "m" })).toThrow(
      MissingBaseUrlError,
    );
    for (const providerId of ["ollama", "lmstudio", "vllm", "llamacpp"])
      expect(gateway.createAgentModel({ providerId, modelId: "m" }).provider).toBe(providerId);
  });

  it("merges provider, model and request options; the request wins", async () => {
    server.enqueue("openai-chat", textResponse());
    const gateway = createGateway({
      env: {},
      onWarning: () => {},
      providers: [
        { providerId: "ollama", baseUrl: server.baseUrl("openai-chat"), options: { temperature: 0.1, maxTokens: 100 } },
      ],
    });
    const model = gateway.createAgentModel({
      providerId: "ollama",
      modelId: "llama3",
      options: { maxTokens: 200, stopSequences: ["END"] },
    });
    await collect(model.stream({ messages: [user], tools: [], options: { temperature: 0.7 } }));
    const body = server.requests[0]!.body;
    expect(body).toMatchObject({ temperature: 0.7, max_completion_tokens: 200, stop: ["END"], model: "llama3" });
  });

  it("lists every built-in provider with its family", () => {
    const providers = createGateway({ env: {} }).listProviders();
    const ids = providers.map((provider) => provider.id);
    for (const id of [
      "anthropic",
      "openai",
      "openai-chat",
      "gemini",
      "openai-compatible",
      "ollama",
      "lmstudio",
      "vllm",
      "llamacpp",
      "openrouter",
      "deepseek",
      "groq",
      "xai",
      "together",
      "mistral",
      "cerebras",
      "fireworks",
    ])
      expect(ids).toContain(id);
    expect(providers.find((provider) => provider.id === "groq")).toMatchObject({
      family: "openai-chat",
      baseUrl: "https://api.groq.com/openai/v1",
    });
  });

  it("rejects a registered provider with an unknown family", () => {
    expect(() => createGateway({ env: {} }).registerProvider({ id: "x", name: "X", family: "soap" as never })).toThrow(
      /unknown family "soap"/,
    );
  });
});

describe("gateway: the endpoint a model is reached at", () => {
  it("is the model's baseUrl: the one given, a preset's, or the vendor's own (for traces' server.address)", () => {
    const gateway = createGateway({ env: {}, onWarning: () => {} });
    const given = gateway.createAgentModel({
      providerId: "openai-chat",
      modelId: "gpt-4o",
      apiKey: "k",
      baseUrl: "http://127.0.0.1:9/v1",
    });
    expect(given.baseUrl).toBe("http://127.0.0.1:9/v1");
    expect(gateway.createAgentModel({ providerId: "xai", modelId: "grok-4", apiKey: "k" }).baseUrl).toBe(
      "https://api.x.ai/v1",
    );
    expect(
      gateway.createAgentModel({ providerId: "anthropic", modelId: "claude-sonnet-4-5", apiKey: "k" }).baseUrl,
    ).toBe("https://api.anthropic.com");
    expect(gateway.createAgentModel({ providerId: "gemini", modelId: "gemini-2.5-flash", apiKey: "k" }).baseUrl).toBe(
      "https://generativelanguage.googleapis.com",
    );
  });
});
