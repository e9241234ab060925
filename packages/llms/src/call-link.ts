import type { ModelError } from "@heddle/shared";
import { HeddleError } from "@heddle/shared";
import { modelError } from "./errors.js";

/** Limits that protect a process from a stalled or endless model stream. */
export interface StreamLimits {
  /**
   * Longest wait for the next bytes of a response (and for its headers), in ms. Default 120,000 (2 min): long
   * enough for a reasoning model's silent thinking, far below the 300 s a stalled socket otherwise takes.
   */
  idleTimeoutMs?: number;
  /** Most bytes one response body may stream. Default 64 MiB: far above any real response, well below what exhausts memory. */
  maxResponseBytes?: number;
}

export const DEFAULT_STREAM_LIMITS: Readonly<Required<StreamLimits>> = {
  idleTimeoutMs: 120_000,
  maxResponseBytes: 64 * 1024 * 1024,
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
 * per call), the idle timeout and the response-size cap. `close()` unlinks and stops the timer; every family calls
 * it when the call is done with.
 */
export class CallLink {
  private readonly controller = new AbortController();
  /** The signal to hand the vendor client. */
  readonly signal = this.controller.signal;
  /** Set when a limit ended the call: what the family reports instead of whatever the client threw. */
  failure: ModelError | undefined;
  private readonly limits: Required<StreamLimits>;
  private lastActivity = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
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
    if (this.timer === undefined && !this.signal.aborted) this.schedule(this.limits.idleTimeoutMs);
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

  /** Unlinks from the caller's signal and stops the idle timer. */
  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.parent.removeEventListener("abort", this.forward);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(this.onIdleCheck, ms);
    // Never keeps a process alive on its own (Node); browsers have no unref.
    (this.timer as { unref?: () => void }).unref?.();
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
        `The server sent nothing for ${limit >= 1000 ? `${limit / 1000} s` : `${limit} ms`} (idleTimeoutMs): the ` +
          "stream stalled and the connection was closed.",
      ),
    );
  }
}
