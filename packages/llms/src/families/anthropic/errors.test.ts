import type { AgentModelEvent } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockProviderServer, startMockProviderServer } from "../../testing/mock-server.js";
import { fixture, fixtureResponse, runFamily, userText } from "./test-helpers.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const request = { messages: [userText("hi")], tools: [] };

/** Anthropic's error body shape (docs: platform.claude.com/docs/en/api/errors). */
const errorBody = (type: string, message: string) => ({
  type: "error",
  error: { type, message },
  request_id: "req_011CSHoEeqs5C35K2UUqR7Fy",
});

function finishOf(events: AgentModelEvent[]) {
  const last = events.at(-1);
  if (last?.type !== "finish") throw new Error("the stream did not end with finish");
  return last;
}

describe("anthropic: HTTP errors are classified from the status and the error type", () => {
  it("429 rate_limit_error with retry-after: rate_limit, retryAfterMs set, the client did not retry", async () => {
    server.enqueue("anthropic", {
      status: 429,
      headers: { "retry-after": "7" },
      json: errorBody("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"),
    });
    const finish = finishOf(await runFamily(server, request));
    expect(finish.reason).toBe("error");
    expect(finish.error).toMatchObject({ kind: "rate_limit", status: 429, retryable: true, retryAfterMs: 7000 });
    expect(finish.error?.message).toContain("per-minute rate limit");
    expect(server.requests).toHaveLength(1);
  });

  it("529 overloaded_error: overloaded and retryable", async () => {
    server.enqueue("anthropic", { status: 529, json: errorBody("overloaded_error", "Overloaded") });
    const events = await runFamily(server, request);
    expect(events).toHaveLength(1);
    expect(finishOf(events).error).toMatchObject({ kind: "overloaded", status: 529, retryable: true });
  });

  it("503 with a generic api_error is still overloaded; 500 api_error is a server error", async () => {
    server.enqueue(
      "anthropic",
      { status: 503, json: errorBody("api_error", "Service unavailable") },
      { status: 500, json: errorBody("api_error", "Internal server error") },
    );
    expect(finishOf(await runFamily(server, request)).error).toMatchObject({ kind: "overloaded", status: 503 });
    expect(finishOf(await runFamily(server, request)).error).toMatchObject({
      kind: "server",
      status: 500,
      retryable: true,
    });
  });

  it("401 authentication_error: auth, not retryable", async () => {
    server.enqueue("anthropic", { status: 401, json: errorBody("authentication_error", "invalid x-api-key") });
    expect(finishOf(await runFamily(server, request)).error).toMatchObject({
      kind: "auth",
      status: 401,
      retryable: false,
    });
  });

  it("400 'prompt is too long' is context_overflow; another 400 stays invalid_request", async () => {
    server.enqueue(
      "anthropic",
      { status: 400, json: errorBody("invalid_request_error", "prompt is too long: 208310 tokens > 200000 maximum") },
      { status: 400, json: errorBody("invalid_request_error", "messages.1.content.0.type: Field required") },
    );
    expect(finishOf(await runFamily(server, request)).error).toMatchObject({
      kind: "context_overflow",
      status: 400,
      retryable: false,
    });
    expect(finishOf(await runFamily(server, request)).error).toMatchObject({ kind: "invalid_request", status: 400 });
  });

  it("no API key and no auth header: an auth error before any request", async () => {
    const events = await runFamily(server, request, { apiKey: undefined });
    expect(finishOf(events).error).toMatchObject({
      kind: "auth",
      message: expect.stringContaining("ANTHROPIC_API_KEY"),
    });
    expect(server.requests).toHaveLength(0);
  });

  it("a request the API cannot take (thinking budget above maxTokens) is invalid_request, not a throw", async () => {
    const events = await runFamily(server, { ...request, options: { maxTokens: 500, reasoning: { effort: "low" } } });
    expect(finishOf(events).error).toMatchObject({ kind: "invalid_request", retryable: false });
    expect(server.requests).toHaveLength(0);
  });
});

describe("anthropic: failures during the stream", () => {
  // Synthetic, from the wire shape quoted in https://github.com/Helicone/helicone/pull/4678 (padding as recorded):
  // no recording of a mid-stream error exists. The connection closes after it, without message_stop.
  const midStreamError = [
    fixture("text.sse").split("event: content_block_stop")[0],
    'event: error\ndata: {"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"}              }\n\n',
  ].join("");

  it("an in-stream overloaded_error after text: the text, usage so far, then an error finish", async () => {
    server.enqueue("anthropic", { sse: midStreamError });
    const events = await runFamily(server, request);
    expect(events.filter((e) => e.type === "text-delta").map((e) => e.text)).toEqual(["Hello", " there", "!"]);
    expect(events.at(-2)).toMatchObject({ type: "usage", usage: { inputTokens: 11, outputTokens: 1 } });
    expect(finishOf(events)).toMatchObject({
      reason: "error",
      error: { kind: "overloaded", message: expect.stringContaining("Overloaded") },
    });
  });

  it("a cut connection is a network error", async () => {
    // Paced so the bytes before the cut reach the client before the connection drops.
    server.enqueue(
      "anthropic",
      fixtureResponse("text-then-tool-use.sse", { cutAfterBytes: 900, chunkSizes: 100, chunkDelayMs: 5 }),
    );
    const events = await runFamily(server, request);
    expect(events[0]).toEqual({ type: "text-delta", text: "I" });
    expect(events.at(-2)).toMatchObject({ type: "usage", usage: { inputTokens: 377 } });
    expect(finishOf(events)).toMatchObject({ reason: "error", error: { kind: "network", retryable: true } });
  });

  it("a stream that closes cleanly before message_stop is a network error, not a stop", async () => {
    server.enqueue("anthropic", { sse: fixture("text.sse").split("event: message_delta")[0] });
    const events = await runFamily(server, request);
    expect(events.filter((e) => e.type === "text-delta")).toHaveLength(3);
    expect(finishOf(events)).toMatchObject({
      reason: "error",
      error: { kind: "network", message: expect.stringContaining("message_stop") },
    });
  });

  it("a cut before any byte of the body is a network error too", async () => {
    server.enqueue("anthropic", fixtureResponse("text.sse", { cutAfterBytes: 0 }));
    expect(finishOf(await runFamily(server, request)).error).toMatchObject({ kind: "network" });
  });

  it("an abort while the server stalls ends with reason aborted promptly", async () => {
    server.enqueue("anthropic", fixtureResponse("text.sse", { stallAfterBytes: 600 }));
    const controller = new AbortController();
    const events: AgentModelEvent[] = [];
    let abortedAt = 0;
    const { family } = await import("./index.js");
    for await (const event of family.streamOnce({
      providerId: "anthropic",
      modelId: "claude-sonnet-4-20250514",
      apiKey: "test-key",
      baseUrl: server.baseUrl("anthropic"),
      request,
      signal: controller.signal,
    })) {
      events.push(event);
      if (event.type === "text-delta" && !abortedAt) {
        // Abort once the stream is flowing and then stalls: the next read never completes on its own.
        setTimeout(() => {
          abortedAt = performance.now();
          controller.abort();
        }, 30);
      }
    }
    // The server stalls for good: the stream ending at all is the abort's doing.
    expect(abortedAt).toBeGreaterThan(0);
    expect(finishOf(events)).toMatchObject({ reason: "aborted", error: { kind: "aborted", retryable: false } });
  });

  it("an already aborted signal ends with aborted", async () => {
    server.enqueue("anthropic", fixtureResponse("text.sse"));
    const controller = new AbortController();
    controller.abort();
    const events = await runFamily(server, request, { signal: controller.signal });
    expect(events).toEqual([
      { type: "finish", reason: "aborted", error: expect.objectContaining({ kind: "aborted" }) },
    ]);
  });
});

describe("anthropic: robustness and transport", () => {
  it("unknown events, server tool blocks and citation deltas are skipped, never fatal", async () => {
    server.enqueue("anthropic", {
      events: [
        { type: "message_start", message: { usage: { input_tokens: 5, output_tokens: 1 } } },
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
        },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"query":"x"}' } },
        { type: "content_block_stop", index: 0 },
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
        },
        { type: "content_block_stop", index: 1 },
        { type: "brand_new_event", payload: 1 },
        { type: "content_block_start", index: 2, content_block: { type: "text", text: "" } },
        {
          type: "content_block_delta",
          index: 2,
          delta: { type: "citations_delta", citation: { type: "web_search_result_location" } },
        },
        { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "Found it." } },
        { type: "content_block_stop", index: 2 },
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 9 } },
        { type: "message_stop" },
      ],
    });
    expect(await runFamily(server, request)).toEqual([
      { type: "text-delta", text: "Found it." },
      {
        type: "usage",
        usage: { inputTokens: 5, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
      { type: "finish", reason: "stop" },
    ]);
  });

  it("reports thinking tokens when the API gives them, and model_context_window_exceeded as max-tokens", async () => {
    server.enqueue("anthropic", {
      events: [
        { type: "message_start", message: { usage: { input_tokens: 5, output_tokens: 1 } } },
        {
          type: "message_delta",
          delta: { stop_reason: "model_context_window_exceeded" },
          usage: { output_tokens: 40, output_tokens_details: { thinking_tokens: 30 } },
        },
        { type: "message_stop" },
      ],
    });
    expect(await runFamily(server, request)).toEqual([
      {
        type: "usage",
        usage: { inputTokens: 5, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 30 },
      },
      { type: "finish", reason: "max-tokens" },
    ]);
  });

  it("sends the key, provider headers and per-request headers; the body streams", async () => {
    server.enqueue("anthropic", fixtureResponse("text.sse"));
    await runFamily(
      server,
      { ...request, options: { headers: { "anthropic-beta": "context-1m-2025-08-07" } } },
      { headers: { "x-team": "heddle" } },
    );
    const sent = server.requests[0]!;
    expect(sent.path).toBe("/v1/messages");
    expect(`${sent.headers.authorization ?? ""}${sent.headers["x-api-key"] ?? ""}`).toContain("test-key");
    expect(sent.headers["x-team"]).toBe("heddle");
    expect(sent.headers["anthropic-beta"]).toBe("context-1m-2025-08-07");
    expect(sent.body.stream).toBe(true);
  });
});
