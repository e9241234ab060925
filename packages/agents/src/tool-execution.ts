import {
  type AgentSnapshot,
  type AgentTool,
  HeddleError,
  type ImagePart,
  type SafeTimeout,
  setSafeTimeout,
  type TextPart,
  type ToolContext,
  type ToolResultOutput,
} from "@heddle/shared";
import { neutralizeOutput } from "./context-message.js";
import type { ToolSpan } from "./telemetry.js";

/** How one tool execution ended. */
export type ToolExecutionOutcome =
  | { kind: "ok"; output: ToolResultOutput }
  | { kind: "error" | "timeout" | "aborted"; output: string };

/** Lets every running tool hear the run's abort through the run's single abort listener. */
export interface AbortFanout {
  readonly signal: AbortSignal;
  onAbort(callback: () => void): () => void;
}

export interface ExecuteToolOptions {
  toolCallId: string;
  metadata: { [key: string]: unknown };
  fanout: AbortFanout;
  emitUpdate(update: unknown): void;
  /** The run's identity and usage sink, passed through to the tool's context. */
  run: Pick<
    ToolContext,
    "runId" | "agentId" | "sessionId" | "parentAgentId" | "reportUsage" | "remainingBudgetUsd" | "permissions"
  >;
  /** The call's `execute_tool` span, when the run has telemetry: the tool runs inside its context. */
  span?: ToolSpan;
  /** The agent's state, read only when the tool reads `ctx.snapshot`. */
  snapshot?: () => AgentSnapshot;
}

/** What a tool returned, as a result's output: a string as is, text/image parts as they are, the rest as JSON. */
export function toToolOutput(value: unknown): ToolResultOutput {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  if (isContentPart(value)) return [value];
  if (Array.isArray(value) && value.length > 0 && value.every(isContentPart)) return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function isContentPart(value: unknown): value is TextPart | ImagePart {
  if (typeof value !== "object" || value === null) return false;
  const part = value as { type?: unknown; text?: unknown; data?: unknown; mediaType?: unknown };
  return (
    (part.type === "text" && typeof part.text === "string") ||
    (part.type === "image" && typeof part.data === "string" && typeof part.mediaType === "string")
  );
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === "string" ? error : String(error);
}

/**
 * Runs a tool with the loop's own guarantees: the timeout and the run's abort win even over a tool that ignores
 * its signal, a throw is retried `maxRetries` times, and whatever happens comes back as an outcome, never a throw.
 * A timeout is not retried: a tool that hung once is likely to hang again, and the model can decide.
 */
export async function executeTool(
  tool: AgentTool,
  input: unknown,
  options: ExecuteToolOptions,
): Promise<ToolExecutionOutcome> {
  // A tool that says it must not run twice (side effects) gets one attempt, whatever maxRetries says.
  const retries = tool.retryable === false ? 0 : Math.max(0, Math.floor(tool.maxRetries ?? 0));
  const attemptsAllowed = 1 + retries;
  let lastError: unknown;
  for (let attempt = 1; attempt <= attemptsAllowed; attempt++) {
    if (options.fanout.signal.aborted) return aborted(tool);
    const outcome = await attemptOnce(tool, input, options);
    if (outcome.kind === "ok") return { kind: "ok", output: neutralizeOutput(toToolOutput(outcome.value)) };
    if (outcome.kind === "timeout") {
      return {
        kind: "timeout",
        output: `Tool "${tool.name}" timed out after ${tool.timeoutMs} ms and was stopped. It may have done part of its work.`,
      };
    }
    if (outcome.kind === "aborted") return aborted(tool);
    lastError = outcome.error;
  }
  const tries = attemptsAllowed > 1 ? ` (after ${attemptsAllowed} attempts)` : "";
  return {
    kind: "error",
    output: neutralizeOutput(`Tool "${tool.name}" failed${tries}: ${errorText(lastError)}`) as string,
  };
}

function aborted(tool: AgentTool): ToolExecutionOutcome {
  return { kind: "aborted", output: `Tool "${tool.name}" was stopped: the run was aborted.` };
}

type AttemptOutcome =
  | { kind: "ok"; value: unknown }
  | { kind: "error"; error: unknown }
  | { kind: "timeout" }
  | { kind: "aborted" };

function attemptOnce(tool: AgentTool, input: unknown, options: ExecuteToolOptions): Promise<AttemptOutcome> {
  const controller = new AbortController();
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    let timer: SafeTimeout | undefined;
    const settle = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      timer?.clear();
      removeAbort();
      resolve(outcome);
    };
    const removeAbort = options.fanout.onAbort(() => {
      controller.abort(options.fanout.signal.reason);
      settle({ kind: "aborted" });
    });
    // Unset, 0 or NaN: no timeout; Infinity sets no timer; past 2^31-1 ms it is clamped (Node fired it at once).
    if (tool.timeoutMs !== undefined && tool.timeoutMs > 0) {
      timer = setSafeTimeout(() => {
        controller.abort(new HeddleError("tool_timeout", `Tool "${tool.name}" timed out after ${tool.timeoutMs} ms`));
        settle({ kind: "timeout" });
      }, tool.timeoutMs);
    }
    const snapshot = options.snapshot;
    const ctx: ToolContext = {
      ...options.run,
      toolCallId: options.toolCallId,
      signal: controller.signal,
      metadata: options.metadata,
      emitUpdate: (update) => {
        if (!settled) options.emitUpdate(update);
      },
      // A getter: the deep copy is made only if the tool reads it.
      get snapshot() {
        return snapshot?.();
      },
    };
    try {
      const span = options.span;
      const running = span ? span.run(ctx, () => tool.execute(input, ctx)) : tool.execute(input, ctx);
      Promise.resolve(running).then(
        (value) => settle({ kind: "ok", value }),
        (error) => settle(controller.signal.aborted ? { kind: "aborted" } : { kind: "error", error }),
      );
    } catch (error) {
      settle({ kind: "error", error });
    }
  });
}

/** Runs `work` for each index with at most `limit` in flight; resolves when all are done. */
export async function runBounded(count: number, limit: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      await work(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}
