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

const ctx = (policy = {}, signal = new AbortController().signal) => ({
  policy: { initialDelayMs: 1, maxDelayMs: 20, jitter: 0, ...policy },
  signal,
  providerId: "p",
  modelId: "m",
});
const fail = (kind: Parameters<typeof modelError>[0]): AgentModelEvent => ({
  type: "finish",
  reason: "error",
  error: modelError(kind, kind),
});
const text: AgentModelEvent = { type: "text-delta", text: "ok" };
const stop: AgentModelEvent = { type: "finish", reason: "stop" };

describe("withRetries: what counts, what is told", () => {
  it("uses the default ±20 % jitter when the policy sets none", () => {
    expect(retryDelayMs({ initialDelayMs: 100 }, 1, undefined, () => 1)).toBe(120);
    expect(retryDelayMs({ initialDelayMs: 100 }, 1, undefined, () => 0)).toBe(80);
  });

  it("counts reasoning and every tool-call event as output: after one, a failure is reported, not retried", async () => {
    const outputs: AgentModelEvent[] = [
      { type: "reasoning-delta", text: "hm" },
      { type: "tool-call-delta", id: "c", text: "{" },
      { type: "tool-call-end", id: "c", input: {} },
    ];
    for (const output of outputs) {
      const { attempt, calls } = script([output, fail("server")], [text, stop]);
      const events = await collect(withRetries(attempt, ctx()));
      expect(calls(), output.type).toBe(1);
      expect(events).toEqual([output, fail("server")]);
    }
  });

  it("retries an empty response as a retryable server error, numbering attempts and telling onRetry", async () => {
    const told: unknown[] = [];
    const { attempt, calls } = script([stop], [stop], [text, stop]);
    const events = await collect(withRetries(attempt, ctx({ onRetry: (info: unknown) => told.push(info) })));
    expect(calls()).toBe(3);
    const retries = events.filter((event) => event.type === "retry");
    expect(retries).toEqual([
      {
        type: "retry",
        attempt: 1,
        delayMs: 1,
        error: expect.objectContaining({
          kind: "server",
          message: "The model returned an empty response.",
          retryable: true,
        }),
      },
      expect.objectContaining({ type: "retry", attempt: 2, delayMs: 2 }),
    ]);
    expect(told).toEqual([
      { attempt: 1, delayMs: 1, error: retries[0]!.error, providerId: "p", modelId: "m" },
      { attempt: 2, delayMs: 2, error: retries[1]!.error, providerId: "p", modelId: "m" },
    ]);
    expect(events.slice(-2)).toEqual([text, stop]);
  });

  it("carries on when onRetry throws", async () => {
    const { attempt } = script([fail("overloaded")], [text, stop]);
    const onRetry = () => {
      throw new Error("observer broke");
    };
    const events = await collect(withRetries(attempt, ctx({ onRetry })));
    expect(events.map((event) => event.type)).toEqual(["retry", "text-delta", "finish"]);
  });

  it("ends at once with an aborted finish when aborted before the first attempt or during the backoff", async () => {
    const before = new AbortController();
    before.abort();
    const never = script([text, stop]);
    expect(await collect(withRetries(never.attempt, ctx({}, before.signal)))).toEqual([
      { type: "finish", reason: "aborted", error: expect.objectContaining({ kind: "aborted" }) },
    ]);
    expect(never.calls()).toBe(0);

    const during = new AbortController();
    const { attempt, calls } = script([fail("rate_limit")], [text, stop]);
    const events: AgentModelEvent[] = [];
    // A backoff of a minute: only the abort can end it.
    for await (const event of withRetries(
      attempt,
      ctx({ initialDelayMs: 60_000, maxDelayMs: 60_000 }, during.signal),
    )) {
      events.push(event);
      if (event.type === "retry") during.abort();
    }
    expect(calls()).toBe(1);
    expect(events.map((event) => event.type)).toEqual(["retry", "finish"]);
    expect(events[1]).toMatchObject({ reason: "aborted", error: { kind: "aborted" } });
  });

  it("reports an attempt that failed while the caller aborted as aborted, not as its error", async () => {
    const controller = new AbortController();
    const attempt = async function* (): AsyncGenerator<AgentModelEvent> {
      controller.abort();
      yield fail("server");
    };
    const events = await collect(withRetries(attempt, ctx({}, controller.signal)));
    expect(events).toEqual([
      { type: "finish", reason: "aborted", error: expect.objectContaining({ kind: "aborted" }) },
    ]);
  });
});
