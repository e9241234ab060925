import type { AgentModelRequest } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockProviderServer, startMockProviderServer } from "../../testing/mock-server.js";
import { collect, fixtureResponse, userText } from "./test-helpers.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const request: AgentModelRequest = { messages: [userText("hello")], tools: [] };
const textChunk = (text: string) => ({ candidates: [{ content: { role: "model", parts: [{ text }] } }] });
const finishChunk = (finishReason: string, parts: unknown[] = [], extra: object = {}) => ({
  candidates: [{ content: { role: "model", parts }, finishReason, ...extra }],
});

async function finishOf(response: Parameters<MockProviderServer["enqueue"]>[1]) {
  server.enqueue("gemini", response);
  const events = await collect(server, request);
  return events.at(-1);
}

describe("gemini family: HTTP errors", () => {
  it("429 RESOURCE_EXHAUSTED: rate_limit with the body's RetryInfo delay", async () => {
    const finish = await finishOf({
      status: 429,
      json: {
        error: {
          code: 429,
          message: "You exceeded your current quota, please check your plan and billing details.",
          status: "RESOURCE_EXHAUSTED",
          details: [
            { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [] },
            { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "34.4s" },
          ],
        },
      },
    });
    expect(finish).toEqual({
      type: "finish",
      reason: "error",
      error: {
        kind: "rate_limit",
        status: 429,
        retryable: true,
        retryAfterMs: 34400,
        message: expect.stringContaining("429 RESOURCE_EXHAUSTED: You exceeded your current quota"),
      },
    });
  });

  it("503 UNAVAILABLE (sent as text/event-stream, as on the stream endpoint): overloaded, retryable", async () => {
    const finish = await finishOf({
      status: 503,
      headers: { "content-type": "text/event-stream" },
      json: {
        error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" },
      },
    });
    expect(finish).toMatchObject({ reason: "error", error: { kind: "overloaded", status: 503, retryable: true } });
  });

  it("401 and a bad key (400 API_KEY_INVALID): auth, not retryable", async () => {
    const unauthenticated = await finishOf({
      status: 401,
      json: {
        error: { code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED" },
      },
    });
    expect(unauthenticated).toMatchObject({ error: { kind: "auth", status: 401, retryable: false } });
    const badKey = await finishOf({
      status: 400,
      json: {
        error: {
          code: 400,
          message: "API key not valid. Please pass a valid API key.",
          status: "INVALID_ARGUMENT",
          details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }],
        },
      },
    });
    expect(badKey).toMatchObject({ error: { kind: "auth", status: 400 } });
  });

  it("400 INVALID_ARGUMENT input token count: context_overflow", async () => {
    const finish = await finishOf({
      status: 400,
      json: {
        error: {
          code: 400,
          message: "The input token count (3475108) exceeds the maximum number of tokens allowed (1048576).",
          status: "INVALID_ARGUMENT",
        },
      },
    });
    expect(finish).toMatchObject({
      reason: "error",
      error: { kind: "context_overflow", status: 400, retryable: false },
    });
  });

  it("error-404-on-stream.replay.json (recorded, text/event-stream error body): invalid_request naming the model", async () => {
    const finish = await finishOf(
      fixtureResponse("error-404-on-stream.replay.json", { headers: { "content-type": "text/event-stream" } }),
    );
    expect(finish).toEqual({
      type: "finish",
      reason: "error",
      error: {
        kind: "invalid_request",
        status: 404,
        retryable: false,
        message: expect.stringContaining(
          "404 NOT_FOUND: models/custom-gemini-2.0-flash is not found for API version v1beta",
        ),
      },
    });
  });

  it("a plain 400 stays invalid_request", async () => {
    const finish = await finishOf({
      status: 400,
      json: { error: { code: 400, message: "Invalid JSON payload received.", status: "INVALID_ARGUMENT" } },
    });
    expect(finish).toMatchObject({ error: { kind: "invalid_request", status: 400 } });
  });

  it("no API key: auth, without a request", async () => {
    server.enqueue("gemini", { events: [textChunk("never")] });
    const events = await collect(server, request, { apiKey: "" });
    expect(events).toEqual([{ type: "finish", reason: "error", error: expect.objectContaining({ kind: "auth" }) }]);
    expect(server.requests).toHaveLength(0);
  });
});

describe("gemini family: stream failures", () => {
  it("an error payload after text: the text is kept, then an error finish (server)", async () => {
    server.enqueue("gemini", {
      events: [
        textChunk("Hello"),
        { error: { code: 500, message: "An internal error has occurred.", status: "INTERNAL" } },
      ],
      chunkDelayMs: 5,
    });
    const events = await collect(server, request);
    expect(events[0]).toEqual({ type: "text-delta", text: "Hello" });
    expect(events.at(-1)).toMatchObject({ reason: "error", error: { kind: "server", status: 500, retryable: true } });
    expect(events.filter((event) => event.type === "finish")).toHaveLength(1);
  });

  it("a connection cut mid-stream: network", async () => {
    server.enqueue("gemini", {
      events: [textChunk("Hello"), textChunk(" world"), finishChunk("STOP")],
      cutAfterBytes: 120,
    });
    const events = await collect(server, request);
    expect(events.at(-1)).toMatchObject({
      type: "finish",
      reason: "error",
      error: { kind: "network", retryable: true },
    });
  });

  it("a body that ends inside an event (no blank line after it) is a network error, as with the client", async () => {
    server.enqueue("gemini", {
      body: `data: ${JSON.stringify(textChunk("Hello"))}\r\n\r\ndata: ${JSON.stringify(textChunk(" wor"))}\r\n`,
      headers: { "content-type": "text/event-stream" },
    });
    const events = await collect(server, request);
    expect(events[0]).toEqual({ type: "text-delta", text: "Hello" });
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "error", error: { kind: "network" } });
  });

  it("an abort while the server stalls ends the stream with aborted", async () => {
    server.enqueue("gemini", { events: [textChunk("Hello"), textChunk(" world")], stallAfterBytes: 90 });
    const controller = new AbortController();
    const events: unknown[] = [];
    const done = (async () => {
      const all = await collect(server, request, { signal: controller.signal });
      events.push(...all);
    })();
    await new Promise((resolve) => setTimeout(resolve, 150));
    controller.abort();
    // The server stalls for good: the stream ending at all is the abort's doing.
    await done;
    expect(events.at(-1)).toEqual({
      type: "finish",
      reason: "aborted",
      error: expect.objectContaining({ kind: "aborted", retryable: false }),
    });
  });

  it("an already aborted signal sends nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    const events = await collect(server, request, { signal: controller.signal });
    expect(events).toEqual([
      { type: "finish", reason: "aborted", error: expect.objectContaining({ kind: "aborted" }) },
    ]);
    expect(server.requests).toHaveLength(0);
  });
});

describe("gemini family: finish reasons and usage", () => {
  it("SAFETY and a blocked prompt finish content-filter", async () => {
    expect(await finishOf({ events: [textChunk("Sure"), finishChunk("SAFETY")] })).toEqual({
      type: "finish",
      reason: "content-filter",
    });
    expect(await finishOf({ events: [{ promptFeedback: { blockReason: "PROHIBITED_CONTENT" } }] })).toEqual({
      type: "finish",
      reason: "content-filter",
    });
  });

  it("MALFORMED_FUNCTION_CALL is an invalid_request error naming the reason; OTHER is unknown", async () => {
    expect(
      await finishOf({
        events: [finishChunk("MALFORMED_FUNCTION_CALL", [], { finishMessage: "Malformed function call: x" })],
      }),
    ).toMatchObject({
      reason: "error",
      error: {
        kind: "invalid_request",
        message: expect.stringContaining("finishReason MALFORMED_FUNCTION_CALL"),
      },
    });
    expect(await finishOf({ events: [finishChunk("OTHER")] })).toMatchObject({
      reason: "error",
      error: { kind: "unknown" },
    });
  });

  it("MAX_TOKENS with a function call is max-tokens, never tool-calls", async () => {
    const finish = await finishOf({
      events: [finishChunk("MAX_TOKENS", [{ functionCall: { name: "write", args: { path: "a" } } }])],
    });
    expect(finish).toEqual({ type: "finish", reason: "max-tokens" });
  });

  it("unknown part types are skipped; cached tokens are taken out of the input", async () => {
    server.enqueue("gemini", {
      events: [
        { candidates: [{ content: { parts: [{ executableCode: { code: "1+1" } }, { inlineData: { data: "x" } }] } }] },
        {
          candidates: [{ content: { parts: [{ text: "2" }] }, finishReason: "STOP" }],
          usageMetadata: {
            promptTokenCount: 1000,
            cachedContentTokenCount: 800,
            candidatesTokenCount: 5,
            thoughtsTokenCount: 7,
          },
        },
      ],
    });
    expect(await collect(server, request)).toEqual([
      { type: "text-delta", text: "2" },
      {
        type: "usage",
        usage: { inputTokens: 200, cacheReadTokens: 800, cacheWriteTokens: 0, outputTokens: 12, reasoningTokens: 7 },
      },
      { type: "finish", reason: "stop" },
    ]);
  });
});
