/**
 * Hostile and broken servers, driven through the gateway and the real vendor clients against the loopback mock
 * server: a stream that stalls, a stream that never ends, a huge event, nonsense usage, a key echoed back.
 */
import { getEventListeners } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { AgentModelEvent } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createGateway } from "../src/gateway.js";
import { rechunkStats } from "../src/guarded-fetch.js";
import { type MockFamily, type MockProviderServer, startMockProviderServer } from "../src/testing/mock-server.js";
import type { StreamLimits } from "../src/types.js";
import { collect, finishOf, textOf } from "./support.js";

// `gc` for the test that collects garbage while a stream stalls (a new context sees the flag set after start-up).
setFlagsFromString("--expose-gc");

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const PROVIDERS: Record<MockFamily, { providerId: string; modelId: string }> = {
  "openai-chat": { providerId: "openai-compatible", modelId: "gpt-4o" },
  openai: { providerId: "openai", modelId: "gpt-4o" },
  anthropic: { providerId: "anthropic", modelId: "claude-sonnet-4-20250514" },
  gemini: { providerId: "gemini", modelId: "gemini-2.5-flash" },
};

/** A response that streams `text` and stops there (no end of response), in the family's wire format. */
function textSse(family: MockFamily, text: string): string {
  const data = (payload: unknown) => JSON.stringify(payload);
  switch (family) {
    case "openai-chat":
      return `data: ${data({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`;
    case "openai":
      return `event: response.output_text.delta\ndata: ${data({
        type: "response.output_text.delta",
        item_id: "msg_1",
        output_index: 0,
        content_index: 0,
        delta: text,
      })}\n\n`;
    case "anthropic":
      return [
        { type: "message_start", message: { usage: { input_tokens: 3, output_tokens: 1 } } },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
      ]
        .map((payload) => `event: ${payload.type}\ndata: ${data(payload)}\n\n`)
        .join("");
    case "gemini":
      return `data: ${data({ candidates: [{ content: { role: "model", parts: [{ text }] } }] })}\r\n\r\n`;
  }
}

function model(family: MockFamily, options: { apiKey?: string; limits?: StreamLimits } = {}) {
  const { providerId, modelId } = PROVIDERS[family];
  const gateway = createGateway({ retry: { maxRetries: 0 }, env: {}, onWarning: () => {} });
  return gateway.createAgentModel({
    providerId,
    modelId,
    apiKey: options.apiKey ?? "test-key",
    baseUrl: server.baseUrl(family),
    ...(options.limits && { limits: options.limits }),
  });
}

function stream(family: MockFamily, options: Parameters<typeof model>[1] = {}, signal?: AbortSignal) {
  return collect(model(family, options).stream({ messages: [userText()], tools: [], ...(signal && { signal }) }));
}

function userText() {
  return { id: "u1", role: "user" as const, content: [{ type: "text" as const, text: "hi" }], createdAt: 0 };
}

const FAMILIES: MockFamily[] = ["openai-chat", "openai", "anthropic", "gemini"];

describe("hostile servers", () => {
  it.each(FAMILIES)("%s: a stream that stalls ends at the idle timeout with a network error", async (family) => {
    const sse = textSse(family, "hello");
    // Everything is sent, then the connection is held open forever.
    server.enqueue(family, { sse, stallAfterBytes: Buffer.byteLength(sse) });
    // Long enough for a first request on a loaded machine; the default (120 s) is what a stalled stream now waits.
    const events = await stream(family, { limits: { idleTimeoutMs: 1_000 } });
    expect(textOf(events)).toBe("hello");
    expect(finishOf(events)).toEqual({
      type: "finish",
      reason: "error",
      error: expect.objectContaining({ kind: "network", message: expect.stringContaining("sent nothing for") }),
    });
  });

  it.each(FAMILIES)(
    "%s: a response that arrives one byte at a time ends at maxResponseMs with a network error",
    async (family) => {
      // Each byte comes well within the idle timeout, so only a limit on the whole response ends it; at one byte
      // per 10 ms this body alone would take over a minute.
      const sse = textSse(family, "drip ".repeat(1200));
      server.enqueue(family, { sse, chunkSizes: 1, chunkDelayMs: 10 });
      const events = await stream(family, { limits: { maxResponseMs: 1_000, idleTimeoutMs: 5_000 } });
      expect(finishOf(events)).toEqual({
        type: "finish",
        reason: "error",
        error: expect.objectContaining({
          kind: "network",
          retryable: false,
          message: expect.stringContaining("(maxResponseMs)"),
        }),
      });
      expect(textOf(events).length).toBeLessThan(6000);
    },
  );

  it.each(FAMILIES)(
    "%s: idleTimeoutMs and maxResponseMs of Infinity stream normally, with no timer warning",
    async (family) => {
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on("warning", onWarning);
      try {
        const sse = textSse(family, "hello");
        server.enqueue(family, { sse, stallAfterBytes: Buffer.byteLength(sse), stallMs: 200 });
        const limits = { idleTimeoutMs: Number.POSITIVE_INFINITY, maxResponseMs: Number.POSITIVE_INFINITY };
        const events = await stream(family, { limits });
        expect(textOf(events)).toBe("hello");
        // Was: a TimeoutOverflowWarning for every 1 ms the stream was open.
        expect(warnings.map((warning) => warning.name)).not.toContain("TimeoutOverflowWarning");
      } finally {
        process.off("warning", onWarning);
      }
    },
  );

  it.each(FAMILIES)(
    "%s: a stalled stream still ends at the idle timeout when garbage is collected while it waits",
    async (family) => {
      // The Anthropic client drops its abort listener once the response body object it saw is collected (its
      // "abandonment backstop"); a limit that relied on that listener to end the read hung whenever a collection
      // came first. The guard ends the read itself.
      const collect = runInNewContext("gc") as () => void;
      const sse = textSse(family, "hello");
      server.enqueue(family, { sse, stallAfterBytes: Buffer.byteLength(sse) });
      const collecting = setInterval(collect, 50);
      try {
        const events = await stream(family, { limits: { idleTimeoutMs: 1_000 } });
        expect(textOf(events)).toBe("hello");
        expect(finishOf(events)).toMatchObject({ reason: "error", error: { kind: "network" } });
      } finally {
        clearInterval(collecting);
      }
    },
    10_000,
  );

  it.each(FAMILIES)("%s: a response over maxResponseBytes is cut off with an error", async (family) => {
    // An endless stream, in effect: far more than the cap allows, in many events.
    const sse = textSse(family, "x".repeat(4096)).repeat(64);
    server.enqueue(family, { sse });
    const events = await stream(family, { limits: { maxResponseBytes: 32 * 1024 } });
    const finish = finishOf(events);
    expect(finish).toEqual({
      type: "finish",
      reason: "error",
      error: expect.objectContaining({
        kind: "server",
        retryable: false,
        message: expect.stringContaining("exceeded"),
      }),
    });
    expect(textOf(events).length).toBeLessThanOrEqual(40 * 1024);
  });

  it.each(["openai-chat", "gemini"] as const)(
    "%s: a 4 MB delta in 64 KB network chunks reaches the client's decoder whole, joined once",
    async (family) => {
      const big = "y".repeat(4 * 1024 * 1024);
      const end =
        family === "gemini"
          ? `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP" }] })}\r\n\r\n`
          : `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`;
      const sse = textSse(family, big) + end;
      server.enqueue(family, { sse, chunkSizes: 64 * 1024 });
      const before = { ...rechunkStats };
      const events = await stream(family);
      expect(textOf(events)).toBe(big);
      expect(finishOf(events).reason).toBe("stop");
      // The line arrived in ~64 network chunks; the client's decoder (which re-joins and re-scans its buffer from
      // the start on every chunk it gets) is handed it in one piece, joined once: linear, not quadratic.
      expect(rechunkStats.received - before.received).toBeGreaterThanOrEqual(60);
      expect(rechunkStats.delivered - before.delivered).toBeLessThanOrEqual(3);
      expect(rechunkStats.joins - before.joins).toBeLessThanOrEqual(2);
      expect(rechunkStats.bytesCopied - before.bytesCopied).toBeLessThan(2 * Buffer.byteLength(sse));
    },
  );

  it.each(["openai-chat", "openai", "anthropic"] as const)(
    "%s: a malformed event ends the call with an error after the text before it, and prints nothing",
    async (family) => {
      const name = family === "anthropic" ? "event: content_block_delta\n" : "";
      server.enqueue(family, { sse: `${textSse(family, "before")}${name}data: {"cut\n\n` });
      // The vendor clients' own readers print "Could not parse message into JSON" with console.error; the gateway
      // reads these families' events itself and reports through the call's finish alone.
      const printed = vi.spyOn(console, "error").mockImplementation(() => {});
      try {
        const events = await stream(family);
        expect(textOf(events)).toBe("before");
        expect(finishOf(events)).toMatchObject({ type: "finish", reason: "error" });
        expect(printed).not.toHaveBeenCalled();
      } finally {
        printed.mockRestore();
      }
    },
  );

  it("openai-chat: non-numeric usage becomes 0, never NaN in the cost", async () => {
    server.enqueue("openai-chat", {
      events: [
        { choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] },
        { choices: [], usage: { prompt_tokens: "lots", completion_tokens: -3, prompt_tokens_details: null } },
      ],
    });
    const events = await stream("openai-chat");
    const usage = events.find((event) => event.type === "usage") as Extract<AgentModelEvent, { type: "usage" }>;
    expect(usage.usage).toMatchObject({ inputTokens: 0, outputTokens: 0, costUsd: 0 });
    for (const value of Object.values(usage.usage)) expect(Number.isFinite(value)).toBe(true);
  });

  it.each(FAMILIES)("%s: an API key the server echoes back is redacted from the error", async (family) => {
    const apiKey = "sk-test-SECRET-0123456789";
    const message = `Incorrect API key provided: ${apiKey}.`;
    server.enqueue(family, {
      status: 401,
      json:
        family === "anthropic"
          ? { type: "error", error: { type: "authentication_error", message } }
          : { error: { message, type: "invalid_request_error", code: "invalid_api_key", status: "UNAUTHENTICATED" } },
    });
    const events = await stream(family, { apiKey });
    const finish = finishOf(events);
    expect(finish.error?.kind).toBe("auth");
    expect(JSON.stringify(events)).not.toContain("SECRET");
    expect(finish.error?.message).toContain("[redacted]");
  });

  it.each(FAMILIES)(
    "%s: a key the server echoes URL-encoded or inside Basic auth base64 is redacted from the error",
    async (family) => {
      const apiKey = "sk-live/SECRET+key=0123456789";
      const basic = btoa(`user:${apiKey}`);
      const message = `Rejected GET /v1/x?key=${encodeURIComponent(apiKey)} with Authorization: Basic ${basic}.`;
      server.enqueue(family, {
        status: 401,
        json:
          family === "anthropic"
            ? { type: "error", error: { type: "authentication_error", message } }
            : { error: { message, type: "invalid_request_error", code: "invalid_api_key", status: "UNAUTHENTICATED" } },
      });
      const events = await stream(family, { apiKey });
      const finish = finishOf(events);
      expect(finish.error?.kind).toBe("auth");
      const text = JSON.stringify(events);
      // Was: both forms reached the error whole.
      expect(text).not.toContain(encodeURIComponent(apiKey));
      expect(text).not.toContain(basic);
      expect(finish.error?.message).toMatch(/key=\[redacted\] with Authorization: Basic \S*\[redacted\]/);
      // What is left of the base64 is "user:" and at most a character of the key that shares its bits.
      const [, before, after] = /Basic (\S*)\[redacted\](\S*)/.exec(finish.error!.message)!;
      expect("user:s".startsWith(atob(before!.slice(0, before!.length - (before!.length % 4))))).toBe(true);
      expect(before!.length).toBeLessThanOrEqual(Math.ceil(("user:".length * 4) / 3) + 1);
      expect(after!.replace(/[.=]/g, "").length).toBeLessThanOrEqual(2);
    },
  );

  it.each(FAMILIES)("%s: a key with a line break never appears in the error", async (family) => {
    const apiKey = "sk-first-SECRET\r\nX-Injected: sk-second-SECRET";
    const events = await stream(family, { apiKey });
    expect(finishOf(events).reason).toBe("error");
    expect(JSON.stringify(events)).not.toContain("SECRET");
  });

  it.each(FAMILIES)("%s: many calls on one shared signal leave no abort listener behind", async (family) => {
    const shared = new AbortController();
    for (let i = 0; i < 12; i++) {
      server.enqueue(family, { sse: textSse(family, "hi"), stallAfterBytes: 0, stallMs: 0 });
      await stream(family, { limits: { idleTimeoutMs: 5_000 } }, shared.signal);
      expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
    }
  });
});
