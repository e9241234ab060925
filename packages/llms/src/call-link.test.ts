// The call's own timers under fake timers, which behave like Node's: a delay past 2^31-1 ms or Infinity fires at
// once. What a server can do to them (stall, dribble) is in test/hostile-servers.test.ts, on the real clients.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CallLink, StreamLimitError } from "./call-link.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("CallLink timers", () => {
  it("idleTimeoutMs and maxResponseMs of Infinity set no timer at all; was: a 1 ms idle timer re-armed itself forever", () => {
    const link = new CallLink(new AbortController().signal, {
      idleTimeoutMs: Number.POSITIVE_INFINITY,
      maxResponseMs: Number.POSITIVE_INFINITY,
    });
    link.start();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(24 * 3600 * 1000);
    expect(link.failure).toBeUndefined();
    expect(link.signal.aborted).toBe(false);
    link.close();
  });

  it("an idleTimeoutMs past 2^31-1 ms sets one timer that does not fire within 10 minutes; was: one every 1 ms", () => {
    const scheduled = vi.spyOn(globalThis, "setTimeout");
    const link = new CallLink(new AbortController().signal, { idleTimeoutMs: 2 ** 31 + 5, maxResponseMs: 2 ** 40 });
    link.start();
    vi.advanceTimersByTime(10 * 60 * 1000);
    // The idle check and the response deadline, each set once, each for 2^31-1 ms.
    expect(scheduled.mock.calls.map((call) => call[1])).toEqual([2 ** 31 - 1, 2 ** 31 - 1]);
    expect(link.failure).toBeUndefined();
    link.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("maxResponseMs ends a call that keeps sending, however often it sends, with a network error", () => {
    const link = new CallLink(new AbortController().signal, { idleTimeoutMs: 1000, maxResponseMs: 5000 });
    link.start();
    for (let i = 0; i < 9; i++) {
      vi.advanceTimersByTime(500);
      link.touch();
    }
    expect(link.failure).toBeUndefined();
    vi.advanceTimersByTime(500);
    expect(link.failure).toMatchObject({ kind: "network", retryable: false });
    expect(link.failure?.message).toContain("took longer than 5 s (maxResponseMs)");
    expect(link.signal.reason).toBeInstanceOf(StreamLimitError);
    expect((link.signal.reason as StreamLimitError).code).toBe("stream_limit");
    link.close();
  });
});
