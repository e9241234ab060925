import type { ModelError, SafeTimeout } from "@heddle/shared";
import { HeddleError, setSafeTimeout } from "@heddle/shared";
import { modelError } from "./errors.js";

/** Limits that protect a process from a stalled or endless model stream. */
export interface StreamLimits {
  /**
   * Longest wait for the next bytes of a response (and for its headers), in ms. Default 120,000 (2 min): long
   * enough for a reasoning model's silent thinking, far below the 300 s a stalled socket otherwise takes.
   * `Infinity`: no idle limit (no timer at all).
   */
  idleTimeoutMs?: number;
  /** Most bytes one response body may stream. Default 64 MiB: far above any real response, well below what exhausts memory. */
  maxResponseBytes?: number;
  /**
   * Longest a whole response may take, from sending the request to its last byte, in ms. Default 3,600,000 (1 h):
   * 128k output tokens at 40 tokens/s take under an hour; a server that sends a byte just often enough to keep
   * `idleTimeoutMs` from firing is cut off here. `Infinity`: no limit (no timer at all).
   */
  maxResponseMs?: number;
}

export const DEFAULT_STREAM_LIMITS: Readonly<Required<StreamLimits>> = {
  idleTimeoutMs: 120_000,
  maxResponseBytes: 64 * 1024 * 1024,
  maxResponseMs: 60 * 60 * 1000,
};

/** Where a `CallLink` rides in a vendor client's `fetchOptions`, so `guardedFetch` finds its call. */
export const CALL_LINK = Symbol.for("heddle.llms.callLink");

/**
 * Thrown into a vendor client when a stream limit ends the call (code `stream_limit`); it never reaches a caller:
 * the family reports `CallLink.failure` as a `finish` instead.
 */
export class StreamLimitError extends HeddleError {
  override name = "StreamLimitError";
  constructor(readonly modelError: ModelError) {
    super("stream_limit", modelError.message);
  }
}

/**
 * One model call's link to its caller: a per-call abort signal linked to the caller's (a vendor client adds a
 * listener to the signal it is given and some never remove it, so a signal reused for every turn would collect one
 * per call), the idle timeout, the response-size cap and the response-time cap. `close()` unlinks and stops the
 * timers; every family calls it when the call is done with.
 */
export class CallLink {
  private readonly controller = new AbortController();
  /** The signal to hand the vendor client. */
  readonly signal = this.controller.signal;
  /** Set when a limit ended the call: what the family reports instead of whatever the client threw. */
  failure: ModelError | undefined;
  private readonly limits: Required<StreamLimits>;
  private lastActivity = 0;
  private timer: SafeTimeout | undefined;
  private deadline: SafeTimeout | undefined;
  private bytes = 0;
  private readonly forward = () => this.controller.abort(this.parent.reason);
  private readonly onIdleCheck = () => this.checkIdle();

  constructor(
    private readonly parent: AbortSignal,
    limits?: StreamLimits,
  ) {
    this.limits = { ...DEFAULT_STREAM_LIMITS, ...limits };
    if (parent.aborted) this.controller.abort(parent.reason);
    else parent.addEventListener("abort", this.forward, { once: true });
  }

  /**
   * Starts the idle clock: called as the request is sent, so loading a vendor client on the first request (hundreds
   * of ms on a busy machine) never counts as the server's silence.
   */
  start(): void {
    this.lastActivity = Date.now();
    if (this.signal.aborted) return;
    if (this.timer === undefined) this.schedule(this.limits.idleTimeoutMs);
    this.deadline ??= setSafeTimeout(() => this.overDeadline(), this.limits.maxResponseMs, { unref: true });
  }

  /** Records that the server sent something. One clock read: cheap enough for every chunk. */
  touch(): void {
    this.lastActivity = Date.now();
  }

  /** Counts bytes received; past the cap the call fails. Returns false once the call has failed. */
  count(bytes: number): boolean {
    this.bytes += bytes;
    if (this.bytes > this.limits.maxResponseBytes && !this.failure) {
      const limit = this.limits.maxResponseBytes;
      this.fail(
        modelError(
          "server",
          `The response exceeded ${limit} bytes (maxResponseBytes) and was cut off: the server sent more than any ` +
            "real response holds.",
          { retryable: false },
        ),
      );
    }
    return this.failure === undefined;
  }

  /** Ends the call with this error: the vendor client is aborted and the family reports the error. */
  fail(error: ModelError): void {
    if (this.failure || this.signal.aborted) return;
    this.failure = error;
    this.controller.abort(new StreamLimitError(error));
  }

  /** Unlinks from the caller's signal and stops the timers. */
  close(): void {
    this.timer?.clear();
    this.timer = undefined;
    this.deadline?.clear();
    this.deadline = undefined;
    this.parent.removeEventListener("abort", this.forward);
  }

  private schedule(ms: number): void {
    // Infinity sets no timer (a plain one fired after 1 ms, again and again, with a warning each time); past
    // 2^31-1 ms the delay is clamped. Never keeps a process alive on its own (Node).
    const timer = setSafeTimeout(this.onIdleCheck, ms, { unref: true });
    this.timer = timer.delayMs === undefined ? undefined : timer;
  }

  private overDeadline(): void {
    this.deadline = undefined;
    const limit = this.limits.maxResponseMs;
    this.fail(
      modelError(
        "network",
        `The response took longer than ${formatMs(limit)} (maxResponseMs) and was cut off: the server kept the ` +
          "stream open without finishing it.",
        { retryable: false },
      ),
    );
  }

  private checkIdle(): void {
    this.timer = undefined;
    if (this.signal.aborted) return;
    const idle = Date.now() - this.lastActivity;
    const limit = this.limits.idleTimeoutMs;
    if (idle < limit) {
      this.schedule(limit - idle);
      return;
    }
    this.fail(
      modelError(
        "network",
        `The server sent nothing for ${formatMs(limit)} (idleTimeoutMs): the ` +
          "stream stalled and the connection was closed.",
      ),
    );
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}
