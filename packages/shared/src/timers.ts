/**
 * Timers for timeouts someone configured. A JavaScript timer holds at most 2^31-1 ms: Node fires a longer delay,
 * `Infinity` or `NaN` after 1 ms (with a TimeoutOverflowWarning), and browsers at once, so "wait a very long time"
 * became "give up now". Every Heddle timeout goes through these two functions. No I/O; browser-safe.
 */

/** The longest delay a timer keeps: 2^31-1 ms, about 24.8 days. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * A delay as a timer keeps it: negative becomes 0; past `MAX_TIMEOUT_MS` (`Infinity` included) and `NaN` become
 * `MAX_TIMEOUT_MS`, never "at once". For an API that needs a number (a vendor client's `timeout` option); to set a
 * timer of your own, use `setSafeTimeout`, where `Infinity` sets none.
 */
export function clampTimeoutMs(ms: number): number {
  if (Number.isNaN(ms)) return MAX_TIMEOUT_MS;
  return Math.min(Math.max(0, ms), MAX_TIMEOUT_MS);
}

/** A timer set by `setSafeTimeout`. */
export interface SafeTimeout {
  /** The delay the timer was set with, after clamping; `undefined` when no timer was set (an infinite timeout). */
  readonly delayMs: number | undefined;
  /** Cancels the timer (idempotent; nothing to do when none was set). */
  clear(): void;
}

/**
 * `setTimeout` for a configured timeout: `Infinity` means "no timeout", so no timer is set at all; any other value
 * is clamped with `clampTimeoutMs`, so it never fires early. With `unref`, the timer alone does not keep a Node
 * process running (browsers have no unref).
 */
export function setSafeTimeout(callback: () => void, ms: number, options: { unref?: boolean } = {}): SafeTimeout {
  if (ms === Number.POSITIVE_INFINITY) return { delayMs: undefined, clear() {} };
  const delayMs = clampTimeoutMs(ms);
  const handle = setTimeout(callback, delayMs);
  if (options.unref) (handle as { unref?: () => void }).unref?.();
  return { delayMs, clear: () => clearTimeout(handle) };
}
