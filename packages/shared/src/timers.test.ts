// The one timer helper every Heddle timeout goes through. Fake timers behave like Node's: a delay past 2^31-1 ms,
// Infinity or NaN fires at once, so these tests show what a raw setTimeout would have done.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clampTimeoutMs, MAX_TIMEOUT_MS, setSafeTimeout } from "./timers.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("clampTimeoutMs", () => {
  it("keeps what a timer holds, and turns NaN, Infinity and anything past 2^31-1 into 2^31-1, a negative into 0", () => {
    expect(MAX_TIMEOUT_MS).toBe(2_147_483_647);
    expect([0, 1500, MAX_TIMEOUT_MS].map(clampTimeoutMs)).toEqual([0, 1500, MAX_TIMEOUT_MS]);
    expect([2 ** 31, 1e12, Number.POSITIVE_INFINITY, Number.NaN].map(clampTimeoutMs)).toEqual(
      Array(4).fill(MAX_TIMEOUT_MS),
    );
    expect(clampTimeoutMs(-5)).toBe(0);
  });
});

describe("setSafeTimeout", () => {
  it("sets no timer at all for Infinity", () => {
    const fired = vi.fn();
    const timer = setSafeTimeout(fired, Number.POSITIVE_INFINITY);
    expect(timer.delayMs).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    timer.clear();
  });

  it("a delay past 2^31-1 ms or NaN waits 2^31-1 ms instead of firing at once; a raw setTimeout fires at once", () => {
    const raw = vi.fn();
    setTimeout(raw, 2 ** 31);
    vi.advanceTimersByTime(1);
    expect(raw).toHaveBeenCalledTimes(1);

    for (const ms of [2 ** 31, 1e12, Number.NaN]) {
      const fired = vi.fn();
      const timer = setSafeTimeout(fired, ms);
      expect(timer.delayMs).toBe(MAX_TIMEOUT_MS);
      vi.advanceTimersByTime(24 * 24 * 3600 * 1000);
      expect(fired).not.toHaveBeenCalled();
      vi.advanceTimersByTime(MAX_TIMEOUT_MS);
      expect(fired).toHaveBeenCalledTimes(1);
    }
  });

  it("fires an ordinary delay on time, and clear() cancels it", () => {
    const fired = vi.fn();
    setSafeTimeout(fired, 1000);
    vi.advanceTimersByTime(999);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    setSafeTimeout(cancelled, 10).clear();
    vi.advanceTimersByTime(100);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
