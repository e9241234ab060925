import { HeddleError } from "@heddle/shared";

/**
 * What kind of programmer error an `AgentRuntimeError` reports (a bad config is a `ConfigError`, code
 * `config_invalid`, instead).
 */
export type AgentRuntimeErrorCode =
  | "invalid_input"
  | "busy"
  | "gateway_unavailable"
  | "plugin_setup_failed"
  | "plugin_setup_timeout";

/**
 * A programmer error: bad input, or a call at the wrong time (a second `run`, or `restore`, while a run is going).
 * Limits and failures inside a run never throw: they end the run with a result.
 */
export class AgentRuntimeError extends HeddleError {
  declare readonly code: AgentRuntimeErrorCode;
  constructor(code: AgentRuntimeErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "AgentRuntimeError";
  }
}

/**
 * The reason carried by a run's abort signal (code `aborted`), so a tool or model client that checks
 * `signal.reason` can tell an abort of the run (by `abort()`, a hook stop or a consumer leaving `stream()`) from
 * its own failures.
 */
export class AgentRuntimeAbortError extends HeddleError {
  constructor(message = "aborted") {
    super("aborted", message);
    this.name = "AgentRuntimeAbortError";
  }
}

/** True for the abort reason the runtime uses. */
export function isAgentRuntimeAbortError(value: unknown): value is AgentRuntimeAbortError {
  return value instanceof AgentRuntimeAbortError;
}

/** A hook threw (code `hook_failed`): the run ends as failed, with the hook named in the message. */
export class HookError extends HeddleError {
  /** The hook point that threw (`beforeTool`, `prepareStep`, ...). */
  readonly hook: string;
  constructor(hook: string, cause: unknown) {
    super("hook_failed", `hook ${hook} threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "HookError";
    this.hook = hook;
  }
}
