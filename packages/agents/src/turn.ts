import {
  type AgentMessage,
  assistantMessage,
  createId,
  estimateTokens,
  type FinishEvent,
  type ModelError,
  type ToolResultPart,
  toolResultMessage,
} from "@heddle/shared";
import { drainPendingUserMessages, limitReached } from "./between-turns.js";
import { asksToStop, callHook, callHooks, stopRequestFrom } from "./hooks.js";
import { applyBeforeModel, projectRequest } from "./model-request.js";
import { type NextStep, noteError, type RunContext, type RunEnd } from "./run-context.js";
import { runToolCalls } from "./tool-calls.js";
import { notRunResult } from "./transcript.js";

/** What the loop carries from one turn to the next. */
export interface TurnState {
  /** Set for the one turn after a context overflow: the size the smaller request must beat. */
  overflowedSize?: number;
  overflowTried: boolean;
  /** Reminders sent because the model stopped early (completion policy and guard). */
  reminders: number;
  policyReminded: boolean;
}

const DEFAULT_REMINDER =
  "You ended your turn without calling the completion tool. If the task is done, call it now with your final " +
  "result; otherwise continue working.";

const CUT_CALLS =
  "your output was cut at the token limit, so none of the calls in that response ran. Send shorter calls (for example, split large content into several calls).";

const final = (end: RunEnd): NextStep => ({ type: "final", end });

/** One turn: prepare the request, call the model, run its tool calls, and say what comes next. */
export async function runTurn(run: RunContext, state: TurnState): Promise<NextStep> {
  const stopped = run.checkpoint();
  if (stopped) return final(stopped);
  if (run.iteration >= run.deps.maxIterations) {
    return final({
      status: "incomplete",
      reason: "max_iterations",
      detail: `reached maxIterations (${run.deps.maxIterations})`,
    });
  }
  await drainPendingUserMessages(run);
  await run.refreshToolset();
  const pendingContext = run.context.take();
  if (pendingContext) run.append(pendingContext);

  const projected = await projectRequest(run, state.overflowedSize);
  state.overflowedSize = undefined;
  if ("end" in projected) return final(projected.end);
  run.beginTurn();
  const request = await applyBeforeModel(run, projected.request);
  const beforeCall = run.checkpoint();
  if (beforeCall) return final(beforeCall);

  const { assembler, finish, usage } = await run.callModel(request);
  const modelRef = { provider: run.deps.model.provider, id: run.deps.model.modelId };
  if (finish.reason === "aborted" || run.signal.aborted || finish.error?.kind === "aborted") {
    const partial = assembler.partialText();
    if (partial) run.append(assistantMessage(partial, { model: modelRef, finishReason: "aborted" }));
    return final(run.checkpoint() ?? { status: "aborted", reason: "aborted", detail: "the model stream was aborted" });
  }
  if (finish.reason === "error") {
    const error: ModelError = finish.error ?? { kind: "unknown", message: "the model call failed", retryable: false };
    const partial = assistantMessage(assembler.partialText(), { model: modelRef, finishReason: "error" });
    noteError(run.deps.live, error.message, error.kind);
    await afterModel(run, partial, "error", error);
    const canShrink = Boolean(run.deps.config.prepareStep);
    if (error.kind === "context_overflow" && !state.overflowTried && canShrink) {
      return { type: "retry_smaller", overflowedSize: estimateTokens(request.messages, request.systemPrompt) };
    }
    if (error.kind === "context_overflow") return final(overflowEnd(error, state.overflowTried));
    return final({ status: "failed", reason: "model_error", detail: error.message, error });
  }

  const assembled = assembler.finish();
  const message: AgentMessage = {
    id: createId("msg"),
    role: "assistant",
    content: assembled.content,
    createdAt: Date.now(),
    model: run.deps.config.messageModelInfo ?? modelRef,
    ...(usage && { usage }),
    finishReason: finish.reason,
  };
  run.append(message);
  run.emit({ type: "assistant-message", message, finishReason: finish.reason });
  if (assembled.text !== "") run.setOutput(assembled.text);
  await afterModel(run, message, finish.reason);

  if (assembled.toolCalls.length === 0) {
    if (finish.reason === "max-tokens") {
      return final({
        status: "incomplete",
        reason: "max_tokens",
        detail: "the response was cut at the output token limit",
      });
    }
    await afterStep(run, message, []);
    run.emit({ type: "turn-finished" });
    const afterEnd = run.checkpoint();
    if (afterEnd) return final(afterEnd);
    if (await drainPendingUserMessages(run)) return { type: "run_again" };
    const reminder = await reminderFor(run, state, message);
    if (reminder !== undefined) return { type: "remind", text: reminder };
    return final({ status: "completed", reason: "end_turn" });
  }

  let results: ToolResultPart[];
  let completion: string | undefined;
  if (finish.reason === "max-tokens") {
    // Arguments cut at the limit may parse yet be incomplete: nothing runs, and the model is told why.
    run.countToolCalls(assembled.toolCalls.length);
    results = assembled.toolCalls.map(({ part }) => notRunResult(part, CUT_CALLS));
  } else if (run.stop) {
    const why = `the run was stopped (${run.stop.detail ?? run.stop.reason}).`;
    results = assembled.toolCalls.map(({ part }) => notRunResult(part, why));
  } else {
    ({ results, completion } = await runToolCalls(run, assembled.toolCalls));
  }
  run.append(toolResultMessage(results));
  run.emit(toolUseSummary(results));
  await afterStep(run, message, results);
  run.emit({ type: "turn-finished" });
  const afterTools = run.checkpoint();
  if (afterTools) return final(afterTools);
  if (completion !== undefined) {
    run.setOutput(completion);
    return final({ status: "completed", reason: "completion_tool" });
  }
  const limit = await limitReached(run, message);
  return limit ? final(limit) : { type: "run_again" };
}

/**
 * How a run ends on a context overflow the one recovery could not fix: Heddle's own words, saying what to do (the
 * vendor's text differs per vendor and often quotes the prompt).
 */
function overflowEnd(error: ModelError, triedToShrink: boolean): RunEnd {
  const message = triedToShrink
    ? "The conversation is still larger than the model's context window after compacting it. Start a new session, " +
      "remove large content from it, or switch to a model with a larger context window."
    : "The request is larger than the model's context window, and nothing in this agent can compact it (no " +
      "prepareStep or compaction). Compact the conversation, start a new session, or switch to a model with a " +
      "larger context window.";
  return {
    status: "failed",
    reason: "model_error",
    detail: message,
    error: { kind: "context_overflow", message, retryable: false, ...(error.status && { status: error.status }) },
  };
}

/** What a round of tool calls did, in one line and per call. */
function toolUseSummary(results: readonly ToolResultPart[]) {
  const toolCalls = results.map((r) => ({
    toolCallId: r.toolCallId,
    toolName: r.toolName,
    isError: r.isError === true,
  }));
  const parts = toolCalls.map((c) => `${c.toolName} (${c.isError ? "error" : "ok"})`);
  const summary = `Ran ${toolCalls.length} tool call${toolCalls.length === 1 ? "" : "s"}: ${parts.join(", ")}.`;
  return { type: "tool-use-summary" as const, summary, toolCalls };
}

async function afterModel(
  run: RunContext,
  message: AgentMessage,
  finishReason: FinishEvent["reason"],
  error?: ModelError,
): Promise<void> {
  if (run.deps.hooks.afterModel.length === 0) return;
  const ctx = { ...run.hookBase(), message, finishReason, ...(error && { error }) };
  for (const value of await callHooks("afterModel", run.deps.hooks.afterModel, ctx)) {
    if (asksToStop(value)) run.requestStop(stopRequestFrom(value, "afterModel"));
  }
}

/** `afterStep` hooks (then the deprecated `afterTurn`): after the step's tools ran; may stop or add context. */
async function afterStep(run: RunContext, message: AgentMessage, results: readonly ToolResultPart[]): Promise<void> {
  if (run.deps.hooks.afterStep.length === 0) return;
  const ctx = { ...run.hookBase(), message, results };
  for (const value of await callHooks("afterStep", run.deps.hooks.afterStep, ctx)) {
    if (!value || typeof value !== "object") continue;
    run.context.add(value.appendContext);
    if (asksToStop(value)) run.requestStop(stopRequestFrom(value, "afterStep"));
  }
}

/**
 * The reminder to send when the model stopped without tool calls: the completion policy's (once), then the
 * `completionGuard`'s (at most `maxCompletionReminders` per run). Undefined lets the run end.
 */
async function reminderFor(run: RunContext, state: TurnState, lastMessage: AgentMessage): Promise<string | undefined> {
  const { config, maxCompletionReminders, transcript } = run.deps;
  if (config.completionPolicy?.requireCompletionTool && !state.policyReminded) {
    state.policyReminded = true;
    return config.completionPolicy.reminder ?? DEFAULT_REMINDER;
  }
  if (!config.completionGuard || state.reminders >= maxCompletionReminders) return undefined;
  const text = await callHook("completionGuard", config.completionGuard.bind(config), {
    agentId: run.deps.agentId,
    runId: run.runId,
    iteration: run.iteration,
    messages: transcript,
    lastMessage,
    reminders: state.reminders,
    signal: run.signal,
  });
  if (typeof text !== "string" || text.trim() === "") return undefined;
  state.reminders++;
  return text;
}
