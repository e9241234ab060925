import {
  type AgentMessage,
  type AgentModel,
  type AgentModelRequest,
  type AgentRunReason,
  type AgentRunResult,
  type AgentRunStatus,
  type AgentRuntimeConfig,
  type AgentRuntimeEvent,
  type AgentTool,
  type AgentUsage,
  addUsage,
  assistantMessage,
  createId,
  emptyUsage,
  type FinishEvent,
  type HookContextBase,
  type ModelError,
  type PermissionDenial,
  type PrepareTurnResult,
  type StopCondition,
  type ToolDefinition,
  toolResultMessage,
} from "@heddle/shared";
import { drainPendingUserMessages, limitReached } from "./between-turns.js";
import { ContextChannel } from "./context-message.js";
import type { EventBus } from "./events.js";
import { asksToStop, callHooks, type HookTable, type StopRequest, stopRequestFrom } from "./hooks.js";
import { priceUsage, streamModelTurn } from "./model-turn.js";
import { runToolCalls } from "./tool-calls.js";
import type { AbortFanout, ExecuteToolOptions } from "./tool-execution.js";
import { danglingToolCalls, estimateRequestSize, notRunResult } from "./transcript.js";

type DistributiveOmit<T, K extends keyof any> = T extends unknown ? Omit<T, K> : never;
/** An event before the runtime stamps it with agent, run and iteration. */
export type EventBody = DistributiveOmit<AgentRuntimeEvent, "agentId" | "runId" | "iteration">;

/** Everything one run needs from its runtime. The transcript array is appended to in place. */
export interface RunDeps {
  agentId: string;
  config: AgentRuntimeConfig;
  model: AgentModel;
  tools: ReadonlyMap<string, AgentTool>;
  toolDefinitions: ToolDefinition[];
  disabledTools: ReadonlySet<string>;
  hooks: HookTable;
  transcript: AgentMessage[];
  bus: EventBus;
  controller: AbortController;
  maxIterations: number;
  maxParallelTools: number;
  stopWhen: StopCondition[];
  takeSteered(): AgentMessage[];
}

export interface RunEnd {
  status: AgentRunStatus;
  reason: AgentRunReason;
  detail?: string;
  error?: AgentRunResult["error"];
}

const DEFAULT_REMINDER =
  "You ended your turn without calling the completion tool. If the task is done, call it now with your final " +
  "result; otherwise continue working.";

/** The status a run ends with for a reason: safety and hook stops abort, model errors fail, the rest completes. */
export function statusFor(reason: AgentRunReason): AgentRunStatus {
  if (reason === "model_error") return "failed";
  if (reason === "aborted" || reason === "hook_stop" || reason === "loop_detected" || reason === "circuit_breaker")
    return "aborted";
  return "completed";
}

/** One run of the loop. Built per run; holds only that run's state. */
export class RunExecution {
  readonly runId = createId("run");
  iteration = 0;
  usage: AgentUsage = emptyUsage();
  readonly newMessages: AgentMessage[] = [];
  readonly permissionDenials: PermissionDenial[] = [];
  toolCallCount = 0;
  stop: StopRequest | undefined;
  readonly context = new ContextChannel();
  readonly fanout: AbortFanout;
  private modelDurationMs = 0;
  private outputText = "";
  private readonly abortCallbacks = new Set<() => void>();
  private readonly onStop = (stop: { reason?: string }) => this.requestStop(stopRequestFrom(stop, "onEvent"));

  /** What every tool's context carries about this run; built once per run. */
  readonly toolRunContext: ExecuteToolOptions["run"];

  constructor(readonly deps: RunDeps) {
    const { sessionId, parentAgentId } = deps.config;
    this.toolRunContext = {
      runId: this.runId,
      agentId: deps.agentId,
      ...(sessionId !== undefined && { sessionId }),
      ...(parentAgentId !== undefined && { parentAgentId }),
      reportUsage: (usage) => this.reportToolUsage(usage),
      remainingBudgetUsd: () => {
        const budget = deps.config.maxBudgetUsd;
        return budget === undefined ? undefined : Math.max(0, budget - this.usage.costUsd);
      },
    };
    const signal = deps.controller.signal;
    this.fanout = {
      signal,
      onAbort: (callback) => {
        this.abortCallbacks.add(callback);
        return () => this.abortCallbacks.delete(callback);
      },
    };
  }

  get signal(): AbortSignal {
    return this.deps.controller.signal;
  }

  // One listener for the whole run, whatever the number of tools: each running tool registers a callback instead.
  private readonly handleAbort = () => {
    for (const callback of [...this.abortCallbacks]) callback();
  };

  hookBase(): HookContextBase {
    const { config } = this.deps;
    return {
      agentId: this.deps.agentId,
      runId: this.runId,
      iteration: this.iteration,
      signal: this.signal,
      ...(config.sessionId !== undefined && { sessionId: config.sessionId }),
      ...(config.conversationId !== undefined && { conversationId: config.conversationId }),
    };
  }

  emit(body: EventBody): void {
    const event = body as AgentRuntimeEvent;
    event.agentId = this.deps.agentId;
    event.runId = this.runId;
    event.iteration = this.iteration;
    this.deps.bus.emit(event, this.onStop);
  }

  append(message: AgentMessage): void {
    this.deps.transcript.push(message);
    this.newMessages.push(message);
    this.emit({ type: "message-added", message });
  }

  requestStop(stop: StopRequest): void {
    this.stop ??= stop;
  }

  async execute(input: AgentMessage[], mode: "run" | "continue"): Promise<AgentRunResult> {
    const startedAt = Date.now();
    this.signal.addEventListener("abort", this.handleAbort, { once: true });
    this.emit({ type: "run-started" });
    let end: RunEnd;
    try {
      end = await this.loop(input, mode);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const isHook = error instanceof Error && error.name === "HookError";
      end = {
        status: "failed",
        reason: isHook ? "hook_stop" : "model_error",
        detail: message,
        error: { kind: isHook ? "hook" : "internal", message },
      };
    } finally {
      this.signal.removeEventListener("abort", this.handleAbort);
    }
    const result: AgentRunResult = {
      status: end.status,
      reason: end.reason,
      ...(end.detail !== undefined && { reasonDetail: end.detail }),
      outputText: this.outputText,
      messages: this.deps.transcript.slice(),
      newMessages: this.newMessages.slice(),
      usage: this.usage,
      iterations: this.iteration,
      durationMs: Date.now() - startedAt,
      modelDurationMs: this.modelDurationMs,
      toolCalls: this.toolCallCount,
      permissionDenials: this.permissionDenials,
      ...(end.error && { error: end.error }),
    };
    try {
      await callHooks("afterRun", this.deps.hooks.afterRun, { ...this.hookBase(), result });
    } catch (error) {
      this.emit({ type: "status-notice", code: "hook_error", message: (error as Error).message });
    }
    this.emit({ type: "run-finished", result });
    return result;
  }

  /** The end for a pending stop or abort, if any: checked between every step. */
  private checkpoint(): RunEnd | undefined {
    if (this.signal.aborted) {
      const reason = this.signal.reason;
      return {
        status: "aborted",
        reason: "aborted",
        detail: reason instanceof Error ? reason.message : String(reason),
      };
    }
    if (this.stop) return { status: statusFor(this.stop.reason), reason: this.stop.reason, detail: this.stop.detail };
    return undefined;
  }

  private async loop(input: AgentMessage[], mode: "run" | "continue"): Promise<RunEnd> {
    const { config, hooks, transcript } = this.deps;
    for (const value of await callHooks<unknown>("beforeRun", hooks.beforeRun, {
      ...this.hookBase(),
      messages: transcript,
    })) {
      if (asksToStop(value)) this.requestStop(stopRequestFrom(value, "beforeRun"));
    }
    const stopped = this.checkpoint();
    if (stopped) return stopped;

    const dangling = danglingToolCalls(transcript);
    if (dangling.length > 0) {
      if (mode === "continue") {
        const outcome = await runToolCalls(
          this,
          dangling.map((part) => ({ part, parse: { ok: true, value: part.input, repaired: false } })),
        );
        this.append(toolResultMessage(outcome.results));
        if (outcome.completion !== undefined) return this.completeWith(outcome.completion);
      } else {
        // A new user message after unanswered calls would make an invalid request for every vendor.
        this.append(
          toolResultMessage(
            dangling.map((call) => notRunResult(call, "the run was interrupted before this call ran.")),
          ),
        );
      }
    }
    for (const message of input) this.append(message);

    let overflowTried = false;
    let overflowedSize: number | undefined;
    let reminded = false;
    while (true) {
      const before = this.checkpoint();
      if (before) return before;
      if (this.iteration >= this.deps.maxIterations) {
        return {
          status: "completed",
          reason: "max_iterations",
          detail: `reached maxIterations (${this.deps.maxIterations})`,
        };
      }
      await drainPendingUserMessages(this);
      const pendingContext = this.context.take();
      if (pendingContext) this.append(pendingContext);

      const overflowRecovery = overflowedSize !== undefined;
      let messages = transcript.slice();
      let systemPrompt = config.systemPrompt;
      if (config.prepareTurn) {
        const [projection] = await callHooks<PrepareTurnResult | undefined>(
          "prepareTurn",
          [config.prepareTurn.bind(config)],
          {
            iteration: this.iteration + 1,
            messages: transcript,
            ...(systemPrompt !== undefined && { systemPrompt }),
            ...(this.deps.model.info && { modelInfo: this.deps.model.info }),
            overflowRecovery,
            signal: this.signal,
          },
        );
        if (projection?.messages) messages = projection.messages.slice();
        if (projection?.systemPrompt !== undefined) systemPrompt = projection.systemPrompt;
      }
      if (overflowedSize !== undefined && estimateRequestSize(messages, systemPrompt) >= overflowedSize) {
        return this.overflowFailure("prepareTurn did not shrink the request after a context overflow");
      }
      overflowedSize = undefined;

      this.iteration++;
      this.emit({ type: "turn-started" });
      const request: AgentModelRequest = {
        messages,
        tools: this.deps.toolDefinitions,
        signal: this.signal,
        ...(systemPrompt !== undefined && { systemPrompt }),
        ...(config.options && { options: config.options }),
      };
      for (const value of await callHooks<any>("beforeModel", hooks.beforeModel, { ...this.hookBase(), request })) {
        this.context.add(value?.appendContext);
        if (asksToStop(value)) this.requestStop(stopRequestFrom(value, "beforeModel"));
      }
      const added = this.context.take();
      if (added) {
        this.append(added);
        request.messages.push(added);
      }
      const beforeCall = this.checkpoint();
      if (beforeCall) return beforeCall;

      const { assembler, finish, usage, durationMs } = await streamModelTurn(this, request);
      this.modelDurationMs += durationMs;
      const delta = usage ? this.addUsage(usage) : undefined;
      if (finish.reason === "aborted" || this.signal.aborted || finish.error?.kind === "aborted") {
        const partial = assembler.partialText();
        if (partial) this.append(assistantMessage(partial, { model: this.modelRef(), finishReason: "aborted" }));
        return this.checkpoint() ?? { status: "aborted", reason: "aborted", detail: "the model stream was aborted" };
      }
      if (finish.reason === "error") {
        const error: ModelError = finish.error ?? {
          kind: "unknown",
          message: "the model call failed",
          retryable: false,
        };
        await this.afterModel(
          assistantMessage(assembler.partialText(), { model: this.modelRef(), finishReason: "error" }),
          "error",
          error,
        );
        if (error.kind === "context_overflow" && !overflowTried && config.prepareTurn) {
          overflowTried = true;
          overflowedSize = estimateRequestSize(request.messages, request.systemPrompt);
          this.emit({
            type: "status-notice",
            code: "context_overflow",
            message: "The request was too long; retrying once with a smaller projection.",
          });
          continue;
        }
        return { status: "failed", reason: "model_error", detail: error.message, error };
      }

      const assembled = assembler.finish();
      const message: AgentMessage = {
        id: createId("msg"),
        role: "assistant",
        content: assembled.content,
        createdAt: Date.now(),
        model: this.modelRef(),
        ...(delta && { usage: delta }),
        finishReason: finish.reason,
      };
      this.append(message);
      this.emit({ type: "assistant-message", message, finishReason: finish.reason });
      if (assembled.text !== "") this.outputText = assembled.text;
      await this.afterModel(message, finish.reason);

      if (assembled.toolCalls.length === 0) {
        if (finish.reason === "max-tokens") {
          return {
            status: "completed",
            reason: "max_tokens",
            detail: "the response was cut at the output token limit",
          };
        }
        this.emit({ type: "turn-finished" });
        const afterTurn = this.checkpoint();
        if (afterTurn) return afterTurn;
        if (await drainPendingUserMessages(this)) continue;
        if (config.completionPolicy?.requireCompletionTool && !reminded) {
          reminded = true;
          this.context.add(config.completionPolicy.reminder ?? DEFAULT_REMINDER);
          continue;
        }
        return { status: "completed", reason: "end_turn" };
      }

      if (finish.reason === "max-tokens") {
        // Arguments cut at the limit may parse yet be incomplete: nothing runs, and the model is told why.
        this.toolCallCount += assembled.toolCalls.length;
        const why =
          "your output was cut at the token limit, so none of the calls in that response ran. Send shorter calls (for example, split large content into several calls).";
        this.append(toolResultMessage(assembled.toolCalls.map(({ part }) => notRunResult(part, why))));
      } else if (this.stop) {
        this.append(
          toolResultMessage(
            assembled.toolCalls.map(({ part }) =>
              notRunResult(part, `the run was stopped (${this.stop?.detail ?? this.stop?.reason}).`),
            ),
          ),
        );
      } else {
        const outcome = await runToolCalls(this, assembled.toolCalls);
        this.append(toolResultMessage(outcome.results));
        this.emit({ type: "turn-finished" });
        const afterTools = this.checkpoint();
        if (afterTools) return afterTools;
        if (outcome.completion !== undefined) return this.completeWith(outcome.completion);
        const limit = await limitReached(this, message);
        if (limit) return limit;
        continue;
      }
      this.emit({ type: "turn-finished" });
      const stopped = this.checkpoint();
      if (stopped) return stopped;
      const limit = await limitReached(this, message);
      if (limit) return limit;
    }
  }

  private completeWith(output: string): RunEnd {
    this.outputText = output;
    return { status: "completed", reason: "completion_tool" };
  }

  private overflowFailure(detail: string): RunEnd {
    const error: ModelError = {
      kind: "context_overflow",
      message: `The request is larger than the model's context window; ${detail}.`,
      retryable: false,
    };
    return { status: "failed", reason: "model_error", detail: error.message, error };
  }

  private async afterModel(
    message: AgentMessage,
    finishReason: FinishEvent["reason"],
    error?: ModelError,
  ): Promise<void> {
    const ctx = { ...this.hookBase(), message, finishReason, ...(error && { error }) };
    for (const value of await callHooks<unknown>("afterModel", this.deps.hooks.afterModel, ctx)) {
      if (asksToStop(value)) this.requestStop(stopRequestFrom(value, "afterModel"));
    }
  }

  private modelRef() {
    return { provider: this.deps.model.provider, id: this.deps.model.modelId };
  }

  /** Usage a tool spent itself (a sub-agent's model calls): already priced, counted against the budget. */
  private reportToolUsage(partial: Partial<AgentUsage>): void {
    const delta = addUsage(emptyUsage(), partial);
    this.usage = addUsage(this.usage, delta);
    this.emit({ type: "usage-updated", usage: this.usage, delta });
  }

  private addUsage(partial: Partial<AgentUsage>): AgentUsage {
    const delta = priceUsage(partial, this.deps.model.info?.pricing);
    this.usage = addUsage(this.usage, delta);
    this.emit({ type: "usage-updated", usage: this.usage, delta });
    return delta;
  }
}
