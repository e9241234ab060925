import type { AgentModelEvent } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { collect } from "../test/support.js";
import { modelError } from "./errors.js";
import { retryDelayMs, withRetries } from "./retry.js";

function script(...attempts: AgentModelEvent[][]) {
  let calls = 0;
  const attempt = async function* () {
    const events = attempts[Math.min(calls++, attempts.length - 1)]!;
    for (const event of events) yield event;
  };
  return { attempt, calls: () => calls };
}

const ctx = (policy = {}) => ({
  policy: { initialDelayMs: 1, maxDelayMs: 20, jitter: 0, ...policy },
  signal: new AbortController().signal,
  providerId: "p",
  modelId: "m",
});
const fail = (kind: Parameters<typeof modelError>[0]): AgentModelEvent => ({
  type: "finish",
  reason: "error",
  error: modelError(kind, kind),
});

describe("retryDelayMs", () => {
  it("doubles from the initial delay, spreads by the jitter share, and caps", () => {
    const policy = { initialDelayMs: 100, maxDelayMs: 1000, jitter: 0.2 };
    expect(retryDelayMs(policy, 1, undefined, () => 0.5)).toBe(100);
    expect(retryDelayMs(policy, 3, undefined, () => 0.5)).toBe(400);
    expect(retryDelayMs(policy, 3, undefined, () => 0)).toBe(320);
    expect(retryDelayMs(policy, 3, undefined, () => 1)).toBe(480);
    expect(retryDelayMs(policy, 10, undefined, () => 0.5)).toBe(1000);
  });

  it("honours retry-after, capped at maxDelayMs", () => {
    const error = modelError("rate_limit", "x", { retryAfterMs: 250 });
    expect(retryDelayMs({ maxDelayMs: 1000 }, 1, error)).toBe(250);
    expect(retryDelayMs({ maxDelayMs: 100 }, 1, error)).toBe(100);
  });
});

describe("withRetries", () => {
  it("holds back usage of a failed attempt so a response reports usage once", async () => {
    const { attempt, calls } = script(
      [{ type: "usage", usage: { inputTokens: 5 } }, fail("overloaded")],
      [
        { type: "text-delta", text: "ok" },
        { type: "usage", usage: { inputTokens: 7 } },
        { type: "finish", reason: "stop" },
      ],
    );
    const events = await collect(withRetries(attempt, ctx()));
    expect(calls()).toBe(2);
    expect(events.map((event) => event.type)).toEqual(["retry", "text-delta", "usage", "finish"]);
    expect(events[2]).toEqual({ type: "usage", usage: { inputTokens: 7 } });
  });

  it("gives up after maxRetries and reports the last error", async () => {
    const { attempt, calls } = script([fail("server")]);
    const events = await collect(withRetries(attempt, ctx({ maxRetries: 2 })));
    expect(calls()).toBe(3);
    expect(events.filter((event) => event.type === "retry").map((event) => (event as any).attempt)).toEqual([1, 2]);
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "error", error: { kind: "server" } });
  });

  it("does not retry kinds that will fail again", async () => {
    for (const kind of ["auth", "invalid_request", "context_overflow", "unknown"] as const) {
      const { attempt, calls } = script([fail(kind)]);
      const events = await collect(withRetries(attempt, ctx()));
      expect(calls(), kind).toBe(1);
      expect(events).toEqual([fail(kind)]);
    }
  });

  it("never retries once output has been produced", async () => {
    const { attempt, calls } = script([
      { type: "tool-call-delta", index: 0, toolCallId: "c", toolName: "t" },
      fail("network"),
    ]);
    const events = await collect(withRetries(attempt, ctx()));
    expect(calls()).toBe(1);
    expect(events.at(-1)).toMatchObject({ reason: "error", error: { kind: "network" } });
  });

  it("does not retry a refusal with no content (content-filter) or an empty max-tokens", async () => {
    for (const reason of ["content-filter", "max-tokens"] as const) {
      const { attempt, calls } = script([{ type: "finish", reason }]);
      await collect(withRetries(attempt, ctx()));
      expect(calls()).toBe(1);
    }
  });
});
