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

  it("by default starts at 500 ms, doubles, spreads by ±20 %, and caps at 30 s", () => {
    expect(retryDelayMs({}, 1, undefined, () => 0.5)).toBe(500);
    expect(retryDelayMs({}, 2, undefined, () => 0.5)).toBe(1000);
    expect(retryDelayMs({}, 1, undefined, () => 0)).toBe(400);
    expect(retryDelayMs({}, 1, undefined, () => 1)).toBe(600);
    expect(retryDelayMs({}, 20, undefined, () => 0.5)).toBe(30_000);
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

  it("retries 3 times by default", async () => {
    const { attempt, calls } = script([fail("server")]);
    const events = await collect(withRetries(attempt, ctx({ initialDelayMs: 1 })));
    expect(calls()).toBe(4);
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

  it("never retries once output has been produced (a tool call's start counts as output)", async () => {
    const { attempt, calls } = script([{ type: "tool-call-start", id: "c", name: "t" }, fail("network")]);
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

describe("withRetries holds an attempt to the family contract", () => {
  it("turns a throw, in setup or mid-stream, into one classified finish", async () => {
    const setup = await collect(
      withRetries(
        async () => {
          throw Object.assign(new Error("fetch failed"), { cause: { code: "ECONNREFUSED" } });
        },
        ctx({ maxRetries: 0 }),
      ),
    );
    expect(setup).toEqual([{ type: "finish", reason: "error", error: expect.objectContaining({ kind: "network" }) }]);

    const midStream = await collect(
      withRetries(async function* () {
        yield { type: "text-delta", text: "partial" } as AgentModelEvent;
        throw new Error("parser exploded");
      }, ctx()),
    );
    expect(midStream.map((e) => e.type)).toEqual(["text-delta", "finish"]);
    expect(midStream[1]).toMatchObject({ reason: "error", error: { kind: "unknown", message: "parser exploded" } });
  });

  it("ends a stream that stopped without a finish, and reads nothing after a finish", async () => {
    const noFinish = await collect(
      withRetries(async function* () {
        yield { type: "text-delta", text: "x" } as AgentModelEvent;
      }, ctx()),
    );
    expect(noFinish.at(-1)).toMatchObject({ type: "finish", reason: "error", error: { kind: "unknown" } });

    let readAfterFinish = false;
    const events = await collect(
      withRetries(async function* () {
        yield { type: "text-delta", text: "x" } as AgentModelEvent;
        yield { type: "finish", reason: "stop" } as AgentModelEvent;
        readAfterFinish = true;
        yield { type: "text-delta", text: "late" } as AgentModelEvent;
      }, ctx()),
    );
    expect(events.map((e) => e.type)).toEqual(["text-delta", "finish"]);
    expect(readAfterFinish).toBe(false);
  });

  it("closes the attempt when the consumer leaves, before or after the first output", async () => {
    const closed: string[] = [];
    const attempt = (name: string) => async () =>
      (async function* () {
        try {
          yield { type: "usage", usage: { inputTokens: 1 } } as AgentModelEvent;
          yield { type: "text-delta", text: "a" } as AgentModelEvent;
          yield { type: "text-delta", text: "b" } as AgentModelEvent;
          yield { type: "finish", reason: "stop" } as AgentModelEvent;
        } finally {
          closed.push(name);
        }
      })();
    for await (const event of withRetries(attempt("at first output"), ctx())) if (event.type === "text-delta") break;
    for await (const event of withRetries(attempt("mid-stream"), ctx()))
      if (event.type === "text-delta" && event.text === "b") break;
    expect(closed).toEqual(["at first output", "mid-stream"]);
  });

  it("applies map to every event (the gateway prices usage there)", async () => {
    const { attempt } = script([
      { type: "text-delta", text: "x" },
      { type: "usage", usage: { inputTokens: 3 } },
      { type: "finish", reason: "stop" },
    ]);
    const events = await collect(
      withRetries(attempt, {
        ...ctx(),
        map: (e) => (e.type === "usage" ? { type: "usage", usage: { ...e.usage, costUsd: 1 } } : e),
      }),
    );
    expect(events[1]).toEqual({ type: "usage", usage: { inputTokens: 3, costUsd: 1 } });
  });
});
