/** What kind of programmer error an `AgentRuntimeError` reports. */
export type AgentRuntimeErrorCode =
  | "invalid_config"
  | "invalid_input"
  | "busy"
  | "gateway_unavailable"
  | "plugin_setup_failed";

/**
 * A programmer error: bad configuration or input, or a call at the wrong time (a second `run` while one is going).
 * Limits and failures inside a run never throw: they end the run with a result.
 */
export class AgentRuntimeError extends Error {
  override name = "AgentRuntimeError";
  readonly code: AgentRuntimeErrorCode;
  constructor(code: AgentRuntimeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The reason carried by a run's abort signal, so a tool or model client that checks `signal.reason` can tell
 * an abort of the run (by `abort()`, a hook stop or a consumer leaving `stream()`) from its own failures.
 */
export class AgentRuntimeAbortError extends Error {
  override name = "AgentRuntimeAbortError";
}

/** True for the abort reason the runtime uses. */
export function isAgentRuntimeAbortError(value: unknown): value is AgentRuntimeAbortError {
  return value instanceof AgentRuntimeAbortError;
}
