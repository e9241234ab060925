import { isContextMessage } from "@heddle/agents";
import { type AgentHooks, type AgentMessage, ConfigError, type ModelError, type ToolResultPart } from "@heddle/shared";

/** Why a turn counted as a failure. */
export type TurnFailureKind = "tools_failed" | "invalid_tool_calls" | "model_error";

/** What `onLimitReached` is told. */
export interface CircuitBreakerContext {
  /** Failed turns in a row. */
  failures: number;
  limit: number;
  /** The failure kinds of those turns, oldest first. */
  kinds: TurnFailureKind[];
  iteration: number;
  modelError?: ModelError;
}

/** Continue with guidance for the model (the counter resets), or stop the run with `circuit_breaker`. */
export type CircuitBreakerDecision = { action: "continue"; guidance: string } | { action: "stop" };

export interface CircuitBreakerOptions {
  /** Failed turns in a row that trip the breaker (default 6). */
  limit?: number;
  /** Asked when the limit is reached; without it, or when it returns nothing, the run stops. */
  onLimitReached?(ctx: CircuitBreakerContext): CircuitBreakerDecision | void | Promise<CircuitBreakerDecision | void>;
}

/** What the breaker reports to its host (the session turns it into `circuit-breaker` events). */
export interface CircuitBreakerSignal {
  action: "continue" | "stop";
  failures: number;
  kinds: TurnFailureKind[];
  guidance?: string;
}

/**
 * How one assistant turn went, from its tool results: any success is a success; otherwise the turn failed, with
 * invalid calls when none of its calls passed parsing and validation (`validCallIds` are the calls that reached
 * `beforeTool`). A turn without tool calls is not judged.
 */
export function judgeTurn(
  results: readonly ToolResultPart[],
  validCallIds: ReadonlySet<string>,
): TurnFailureKind | "success" | undefined {
  if (results.length === 0) return undefined;
  if (results.some((r) => !r.isError)) return "success";
  return results.some((r) => validCallIds.has(r.toolCallId)) ? "tools_failed" : "invalid_tool_calls";
}

/**
 * How the last assistant turn of a message list went (its tool calls and the results after them).
 * @deprecated The breaker judges each turn in `afterStep` with `judgeTurn`; kept for callers of 0.x.
 */
export function judgeLastTurn(
  messages: readonly AgentMessage[],
  validCallIds: ReadonlySet<string>,
): TurnFailureKind | "success" | undefined {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]!.role !== "assistant") index--;
  if (index < 0) return undefined;
  if (!messages[index]!.content.some((part) => part.type === "tool-call")) return undefined;
  const results = messages
    .slice(index + 1)
    .filter((m) => m.role === "tool" && !isContextMessage(m))
    .flatMap((m) => m.content.filter((part): part is ToolResultPart => part.type === "tool-result"));
  return judgeTurn(results, validCallIds);
}

/**
 * The failure circuit breaker as `AgentHooks`. A turn fails when tools ran and none succeeded (all of them
 * invalid counts too) or the model call failed; any success resets the count. Each turn is judged in `afterStep`,
 * once its tools ran. Create one per `send`.
 */
export function createCircuitBreakerHooks(
  options: CircuitBreakerOptions = {},
  onSignal?: (signal: CircuitBreakerSignal) => void,
): AgentHooks {
  const limit = options.limit ?? 6;
  if (!Number.isInteger(limit) || limit < 1)
    throw new ConfigError(`circuitBreaker.limit must be a positive integer (got ${options.limit})`);
  let kinds: TurnFailureKind[] = [];
  let pendingGuidance: string | undefined;
  const validCallIds = new Set<string>();

  // Resolves to true when the run must stop; a continue leaves guidance for the next model request.
  const trip = async (iteration: number, modelError?: ModelError): Promise<boolean> => {
    const failures = kinds.length;
    const tripped = [...kinds];
    const decision = await options.onLimitReached?.({ failures, limit, kinds: tripped, iteration, modelError });
    kinds = [];
    if (decision && decision.action === "continue") {
      if (typeof decision.guidance !== "string" || decision.guidance.trim() === "")
        throw new ConfigError("circuitBreaker.onLimitReached: a continue decision needs non-empty guidance text");
      onSignal?.({ action: "continue", failures, kinds: tripped, guidance: decision.guidance });
      pendingGuidance = `Circuit breaker: the last ${failures} turns failed. Guidance from the host: ${decision.guidance}`;
      return false;
    }
    onSignal?.({ action: "stop", failures, kinds: tripped });
    return true;
  };

  const record = (outcome: TurnFailureKind | "success" | undefined) => {
    if (outcome === "success") kinds = [];
    else if (outcome) kinds.push(outcome);
  };
  // The run's result stays `aborted` / `circuit_breaker`: the loop knows nothing of the breaker's code.
  const STOP = { stop: true, reason: "circuit_breaker", status: "aborted" } as const;
  const takeGuidance = () => {
    const appendContext = pendingGuidance;
    pendingGuidance = undefined;
    return appendContext === undefined ? undefined : { appendContext };
  };

  return {
    beforeTool: (ctx) => {
      validCallIds.add(ctx.toolCall.toolCallId);
    },
    afterStep: async (ctx) => {
      record(judgeTurn(ctx.results, validCallIds));
      if (kinds.length >= limit && (await trip(ctx.iteration))) return STOP;
      return takeGuidance();
    },
    // Guidance given after a model error reaches the request that retries.
    beforeModel: () => takeGuidance(),
    afterModel: async (ctx) => {
      if (ctx.finishReason !== "error" || ctx.error?.kind === "aborted") return;
      record("model_error");
      if (kinds.length >= limit && (await trip(ctx.iteration, ctx.error))) return STOP;
    },
  };
}
