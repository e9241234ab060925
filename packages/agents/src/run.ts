import {
  type AgentMessage,
  type AgentModelRequest,
  type AgentRunResult,
  type AgentRuntimeEvent,
  type AgentUsage,
  addUsage,
  createId,
  danglingToolCalls,
  emptyUsage,
  type HookContextBase,
  type PermissionDenial,
  priceUsage,
  type ToolApprovalRequest,
  toolResultMessage,
} from "@heddle/shared";
import { ContextChannel } from "./context-message.js";
import { HookError } from "./errors.js";
import { asksToStop, callHook, callHooks, type StopRequest, stopRequestFrom } from "./hooks.js";
import { agentIdentity } from "./identity.js";
import { streamModelTurn } from "./model-turn.js";
import {
  type EventBody,
  type ModelCall,
  type NextStep,
  noteError,
  type RunContext,
  type RunDeps,
  type RunEnd,
  type Toolset,
} from "./run-context.js";
import { asAgentTelemetry, loadTelemetryApi, RunTelemetry } from "./telemetry.js";
import { runToolCalls } from "./tool-calls.js";
import type { AbortFanout } from "./tool-execution.js";
import { notRunResult } from "./transcript.js";
import { runTurn, type TurnState } from "./turn.js";

export type { EventBody, RunDeps, RunEnd } from "./run-context.js";

/** One run of the loop. Built per run; holds only that run's state. */
export class RunExecution implements RunContext {
  readonly runId = createId("run");
  iteration = 0;
  usage: AgentUsage = emptyUsage();
  readonly newMessages: AgentMessage[] = [];
  readonly permissionDenials: PermissionDenial[] = [];
  stop: StopRequest | undefined;
  readonly context = new ContextChannel();
  readonly fanout: AbortFanout;
  readonly toolRunContext: RunContext["toolRunContext"];
  /** Spans of this run: only when the config asks for telemetry (nothing is allocated otherwise). */
  telemetry: RunTelemetry | undefined;
  toolset: Toolset;
  private eventCount = 0;
  // The run reads its tools once at its start; each later model call reads them again (a tools function only).
  private toolsetFresh = false;
  private toolCallCount = 0;
  private modelDurationMs = 0;
  private outputText = "";
  private readonly identity: Pick<AgentRuntimeEvent, "parentAgentId" | "agentRole">;
  readonly approvalIdentity: Pick<ToolApprovalRequest, "agentId" | "parentAgentId" | "agentRole">;
  private readonly abortCallbacks = new Set<() => void>();
  private readonly onStop = (stop: { reason?: string }) => this.requestStop(stopRequestFrom(stop, "onEvent"));

  constructor(readonly deps: RunDeps) {
    this.toolset = deps.toolset;
    const { sessionId, parentAgentId, agentRole, toolPolicies, requestToolApproval } = deps.config;
    this.identity = {
      ...(parentAgentId !== undefined && { parentAgentId }),
      ...(agentRole !== undefined && { agentRole }),
    };
    this.approvalIdentity = { agentId: deps.agentId, ...this.identity };
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
      // One object per run: a sub-agent started by a tool is held to the same rules.
      permissions: {
        ...(toolPolicies !== undefined && { toolPolicies }),
        ...(requestToolApproval !== undefined && {
          requestToolApproval: (request: ToolApprovalRequest) => requestToolApproval.call(deps.config, request),
        }),
      },
    };
    this.fanout = {
      signal: deps.controller.signal,
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
      ...agentIdentity(this.deps.agentId, config),
      runId: this.runId,
      iteration: this.iteration,
      signal: this.signal,
    };
  }

  emit(body: EventBody): void {
    const event = body as AgentRuntimeEvent;
    event.id = `${this.runId}.${++this.eventCount}`;
    event.agentId = this.deps.agentId;
    event.runId = this.runId;
    event.iteration = this.iteration;
    if (this.identity.parentAgentId !== undefined) event.parentAgentId = this.identity.parentAgentId;
    if (this.identity.agentRole !== undefined) event.agentRole = this.identity.agentRole;
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

  countToolCalls(count: number): void {
    this.toolCallCount += count;
  }

  setOutput(text: string): void {
    this.outputText = text;
  }

  beginTurn(): void {
    this.iteration++;
    this.emit({ type: "turn-started" });
  }

  async refreshToolset(): Promise<void> {
    if (!this.deps.readToolset) return;
    if (this.toolsetFresh) {
      this.toolsetFresh = false;
      return;
    }
    this.toolset = await this.deps.readToolset();
  }

  async callModel(request: AgentModelRequest): Promise<ModelCall> {
    const endChat = this.telemetry?.startChat(request);
    // A traced call asks for the vendor's response id and model (`gen_ai.response.id` / `.model`).
    if (endChat) request = { ...request, responseInfo: true };
    this.deps.live.status = "streaming";
    const { assembler, finish, usage, durationMs } = await streamModelTurn(this, request);
    this.deps.live.status = "running";
    endChat?.(finish, usage, () => assembler.finish().content);
    this.modelDurationMs += durationMs;
    return { assembler, finish, usage: usage ? this.addUsage(usage) : undefined };
  }

  checkpoint(): RunEnd | undefined {
    if (this.signal.aborted) {
      const reason = this.signal.reason;
      return {
        status: "aborted",
        reason: "aborted",
        detail: reason instanceof Error ? reason.message : String(reason),
      };
    }
    if (this.stop) return { status: this.stop.status, reason: this.stop.reason, detail: this.stop.detail };
    return undefined;
  }

  async execute(input: AgentMessage[], mode: "run" | "continue"): Promise<AgentRunResult> {
    const startedAt = Date.now();
    if (this.deps.config.telemetry) this.telemetry = await this.startTelemetry(input);
    this.signal.addEventListener("abort", this.handleAbort, { once: true });
    let end: RunEnd | undefined;
    try {
      await this.refreshToolset();
      this.toolsetFresh = true;
    } catch (error) {
      end = this.failed(error);
    }
    const { model } = this.deps;
    this.emit({
      type: "run-started",
      tools: this.toolset.definitions.map((tool) => tool.name),
      model: { provider: model.provider, id: model.modelId },
    });
    try {
      end ??= (await this.start(input, mode)) ?? (await this.loop());
    } catch (error) {
      end = this.failed(error);
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
      this.deps.logger.warn("an afterRun hook threw (the result stands)", error);
      this.emit({ type: "status-notice", code: "hook_error", message: (error as Error).message });
    }
    this.telemetry?.end(result);
    this.emit({ type: "run-finished", result });
    return result;
  }

  private async startTelemetry(input: AgentMessage[]): Promise<RunTelemetry> {
    const otel = await loadTelemetryApi();
    const { config, agentId, model } = this.deps;
    const conversationId = config.sessionId ?? config.conversationId;
    return new RunTelemetry(
      otel,
      asAgentTelemetry(config.telemetry!),
      {
        agentId,
        runId: this.runId,
        provider: model.provider,
        model: model.modelId,
        ...(model.baseUrl !== undefined && { serverUrl: model.baseUrl }),
        ...(config.agentRole !== undefined && { agentName: config.agentRole }),
        ...(conversationId !== undefined && { conversationId }),
        ...(config.parentAgentId !== undefined && { parentAgentId: config.parentAgentId }),
        ...clientAttributes(config),
      },
      input,
    );
  }

  /** `beforeRun`, answers for calls a crash or restore left open, then the input. An end when the run stops here. */
  private async start(input: AgentMessage[], mode: "run" | "continue"): Promise<RunEnd | undefined> {
    const { hooks, transcript } = this.deps;
    for (const hook of hooks.beforeRun) {
      const value = await callHook("beforeRun", hook, { ...this.hookBase(), messages: transcript });
      if (asksToStop(value)) {
        this.requestStop(stopRequestFrom(value, "beforeRun"));
        break;
      }
    }
    const stopped = this.checkpoint();
    if (stopped) return stopped;

    const dangling = danglingToolCalls(transcript);
    if (dangling.length > 0) {
      if (mode === "continue") {
        const outcome = await runToolCalls(
          this,
          dangling.map((part) => ({ part, parse: { ok: true, value: part.input } })),
        );
        this.append(toolResultMessage(outcome.results));
        if (outcome.completion !== undefined) {
          this.outputText = outcome.completion;
          return { status: "completed", reason: "completion_tool" };
        }
      } else {
        // A new user message after unanswered calls would make an invalid request for every vendor.
        const why = "the run was interrupted before this call ran.";
        this.append(toolResultMessage(dangling.map((call) => notRunResult(call, why))));
      }
    }
    for (const message of input) this.append(message);
    return undefined;
  }

  /** The loop: one turn step at a time, each saying what comes next. */
  private async loop(): Promise<RunEnd> {
    const state: TurnState = { overflowTried: false, reminders: 0, policyReminded: false };
    while (true) {
      const step: NextStep = await runTurn(this, state);
      switch (step.type) {
        case "final":
          return step.end;
        case "run_again":
          break;
        case "retry_smaller":
          state.overflowTried = true;
          state.overflowedSize = step.overflowedSize;
          this.emit({
            type: "status-notice",
            code: "context_overflow",
            message: "The request was too long; retrying once with a smaller projection.",
          });
          break;
        case "remind":
          this.context.add(step.text);
          break;
      }
    }
  }

  private failed(error: unknown): RunEnd {
    const end = failure(error);
    noteError(this.deps.live, end.detail ?? "", end.reason === "hook_stop" ? "hook_error" : "internal_error");
    if (end.reason === "internal_error") this.deps.logger.error("the run failed with an internal error", error);
    return end;
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

/** Cline's identity keys as span attributes, when any is set. */
function clientAttributes(config: RunDeps["config"]): { client?: { [attribute: string]: string } } {
  const client: { [attribute: string]: string } = {};
  if (config.distinctId !== undefined) client["heddle.distinct_id"] = config.distinctId;
  if (config.clientName !== undefined) client["heddle.client.name"] = config.clientName;
  if (config.clientVersion !== undefined) client["heddle.client.version"] = config.clientVersion;
  if (config.clineCoreVersion !== undefined) client["heddle.client.cline_core_version"] = config.clineCoreVersion;
  return Object.keys(client).length > 0 ? { client } : {};
}

/** A throw out of the loop: a hook's (`HookError`) fails the run as `hook_stop`, anything else is internal. */
function failure(error: unknown): RunEnd {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof HookError) {
    return {
      status: "failed",
      reason: "hook_stop",
      detail: message,
      error: { kind: "hook", message, code: error.code },
    };
  }
  return { status: "failed", reason: "internal_error", detail: message, error: { kind: "internal", message } };
}
