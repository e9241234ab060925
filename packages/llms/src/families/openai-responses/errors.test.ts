import { getEventListeners } from "node:events";
import { readFileSync } from "node:fs";
import type { AgentModelEvent, AgentModelRequest } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockProviderServer, type MockResponse, startMockProviderServer } from "../../testing/mock-server.js";
import type { FamilyCallContext } from "../../types.js";
import { family } from "./index.js";
import { collect, condense } from "./test-support.js";

const dir = new URL("../../../test/fixtures/openai-responses/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, dir), "utf8");

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
beforeEach(() => server.reset());
afterAll(() => server.close());

const request: AgentModelRequest = { messages: [], tools: [] };

function context(overrides: Partial<FamilyCallContext> = {}): FamilyCallContext {
  return {
    providerId: "openai",
    modelId: "gpt-5",
    apiKey: "test-key",
    baseUrl: server.baseUrl("openai"),
    request,
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function run(response: MockResponse, overrides: Partial<FamilyCallContext> = {}): Promise<AgentModelEvent[]> {
  server.enqueue("openai", response);
  return collect(family.streamOnce(context(overrides)));
}

function finish(events: AgentModelEvent[]) {
  const last = events[events.length - 1];
  expect(events.filter((event) => event.type === "finish")).toHaveLength(1);
  expect(last?.type).toBe("finish");
  return last as Extract<AgentModelEvent, { type: "finish" }>;
}

describe("openai responses errors: HTTP failures", () => {
  it("429 with retry-after is rate_limit with the delay, and the client does not retry on its own", async () => {
    const events = await run({
      status: 429,
      headers: { "retry-after": "7" },
      json: {
        error: {
          message: "Rate limit reached for gpt-5 on tokens per min (TPM): Limit 30000, Used 30000.",
          type: "tokens",
          param: null,
          code: "rate_limit_exceeded",
        },
      },
    });
    expect(finish(events)).toEqual({
      type: "finish",
      reason: "error",
      error: {
        kind: "rate_limit",
        status: 429,
        retryable: true,
        retryAfterMs: 7000,
        message: expect.stringContaining("Rate limit reached"),
      },
    });
    expect(server.requests).toHaveLength(1);
  });

  it("429 insufficient_quota is rate_limit but not retryable", async () => {
    const events = await run({
      status: 429,
      json: {
        error: { message: "You exceeded your current quota.", type: "insufficient_quota", code: "insufficient_quota" },
      },
    });
    expect(finish(events).error).toMatchObject({ kind: "rate_limit", status: 429, retryable: false });
  });

  it("503 is overloaded and retryable", async () => {
    const events = await run({
      status: 503,
      json: {
        error: { message: "The server is overloaded. Please try again later.", type: "server_error", code: null },
      },
    });
    expect(finish(events).error).toMatchObject({ kind: "overloaded", status: 503, retryable: true });
  });

  it("500 is a server error", async () => {
    const events = await run({
      status: 500,
      json: { error: { message: "The server had an error while processing your request.", type: "server_error" } },
    });
    expect(finish(events).error).toMatchObject({ kind: "server", status: 500, retryable: true });
  });

  it("401 is auth and not retryable; the key is sent as a bearer token", async () => {
    const events = await run({
      status: 401,
      json: {
        error: {
          message: "Incorrect API key provided: test-key.",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      },
    });
    expect(finish(events).error).toMatchObject({ kind: "auth", status: 401, retryable: false });
    expect(server.requests[0]!.headers.authorization).toBe("Bearer test-key");
  });

  it("a missing key is an auth error before any request", async () => {
    const events = await collect(family.streamOnce(context({ apiKey: undefined })));
    expect(finish(events).error).toMatchObject({ kind: "auth", retryable: false });
    expect(server.requests).toHaveLength(0);
  });

  it("context overflow from OpenAI's real 400 shape is context_overflow", async () => {
    // Body as reported in the-open-agent/openagent#2344 and codex2api#415 (research/vendor-streams.md §4.5).
    const events = await run({
      status: 400,
      json: {
        error: {
          message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
          type: "invalid_request_error",
          param: "input",
          code: "context_length_exceeded",
        },
      },
    });
    expect(finish(events).error).toMatchObject({ kind: "context_overflow", status: 400, retryable: false });
  });

  it("a plain 400 is invalid_request", async () => {
    const events = await run({
      status: 400,
      json: {
        error: {
          message: "Invalid value for 'tool_choice'.",
          type: "invalid_request_error",
          param: "tool_choice",
          code: null,
        },
      },
    });
    expect(finish(events).error).toMatchObject({ kind: "invalid_request", status: 400, retryable: false });
  });
});

describe("openai responses errors: during the stream", () => {
  const created = { type: "response.created", response: { id: "resp_1", status: "in_progress", usage: null } };
  const text = { type: "response.output_text.delta", item_id: "msg_1", content_index: 0, delta: "Partial" };

  it("an in-stream overflow error (nested form) after text keeps the text and ends context_overflow", async () => {
    const error = {
      type: "context_length_exceeded",
      code: "context_length_exceeded",
      message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
      param: "input",
    };
    const events = await run({
      events: [
        created,
        text,
        { type: "error", sequence_number: 3, error },
        { type: "response.failed", response: { id: "resp_1", status: "failed", error } },
      ],
    });
    expect(events[0]).toEqual({ type: "text-delta", text: "Partial" });
    expect(finish(events)).toMatchObject({ reason: "error", error: { kind: "context_overflow", retryable: false } });
  });

  it("the SDK's flat error event form is accepted", async () => {
    const events = await run({
      events: [created, { type: "error", code: "rate_limit_exceeded", message: "Slow down.", param: null }],
    });
    expect(finish(events)).toMatchObject({ reason: "error", error: { kind: "rate_limit", retryable: true } });
  });

  it("response.failed on its own ends with its error", async () => {
    const events = await run({
      events: [
        created,
        { type: "response.failed", response: { status: "failed", error: { code: "server_error", message: "Oops." } } },
      ],
    });
    expect(finish(events)).toMatchObject({
      reason: "error",
      error: { kind: "server", message: "Oops. (server_error)" },
    });
  });

  it("a cut connection is a network error after the output already streamed", async () => {
    const sse = fixture("function-call.i0.sse");
    const cut = sse.indexOf("event: response.function_call_arguments.done");
    // Written in small timed pieces, so the client has read the earlier events before the cut (the bytes of the
    // piece in flight when the socket dies are lost to the client).
    const events = await run({ sse, cutAfterBytes: cut, chunkSizes: 64, chunkDelayMs: 1 });
    expect(condense(events)[0]).toMatchObject({ type: "tool-call-start", id: "call_PRiJm2RVAvt7IoRvjxIXxFVF" });
    expect(finish(events)).toMatchObject({ reason: "error", error: { kind: "network", retryable: true } });
  });

  it("a body that ends without a terminal event is a network error", async () => {
    const events = await run({ events: [created, text] });
    expect(finish(events)).toMatchObject({ reason: "error", error: { kind: "network", retryable: true } });
  });

  it("an abort while the server stalls ends promptly with reason aborted", async () => {
    const controller = new AbortController();
    const sse = fixture("text.i0.sse");
    server.enqueue("openai", { sse, stallAfterBytes: sse.indexOf("event: response.output_text.done") });
    const events: AgentModelEvent[] = [];
    let abortedAt = 0;
    for await (const event of family.streamOnce(context({ signal: controller.signal }))) {
      events.push(event);
      // The client holds the last event before a stall until more bytes come, so abort on the first one.
      if (event.type === "text-delta" && event.text === "Olá") {
        setTimeout(() => {
          abortedAt = performance.now();
          controller.abort();
        }, 20);
      }
    }
    // The server stalls for good: the stream ending at all is the abort's doing.
    expect(abortedAt).toBeGreaterThan(0);
    expect(events[0]).toEqual({ type: "text-delta", text: "Olá" });
    expect(finish(events)).toEqual({
      type: "finish",
      reason: "aborted",
      error: { kind: "aborted", message: "The request was aborted.", retryable: false },
    });
  });

  it("an abort before the request is aborted, without a request", async () => {
    const controller = new AbortController();
    controller.abort();
    const events = await collect(family.streamOnce(context({ signal: controller.signal })));
    expect(finish(events)).toMatchObject({ reason: "aborted", error: { kind: "aborted" } });
  });
});

describe("openai responses: per-call hygiene", () => {
  it("leaves no abort listener on a signal reused for many calls", async () => {
    const controller = new AbortController();
    for (let i = 0; i < 15; i++) {
      const events = await run({ sse: fixture("text.i0.sse") }, { signal: controller.signal });
      expect(finish(events).reason).toBe("stop");
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("sends provider headers and per-request headers", async () => {
    await run(
      { sse: fixture("text.i0.sse") },
      {
        headers: { "x-provider": "p" },
        request: { ...request, options: { headers: { "x-request": "r" } } },
      },
    );
    expect(server.requests[0]!.headers).toMatchObject({ "x-provider": "p", "x-request": "r" });
    expect(server.requests[0]!.path).toBe("/v1/responses");
  });
});
