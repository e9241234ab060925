import {
  type AgentMessage,
  type AgentModel,
  type AgentRunInput,
  type AgentRunResult,
  type AgentRuntimeConfig,
  type AgentRuntimeEvent,
  type AgentSnapshot,
  type AgentUsage,
  consoleLogger,
  createId,
  emptyUsage,
  type Logger,
  normalizeRunInput,
  type StopCondition,
  userMessage,
} from "@heddle/shared";
import { resolveConfigNames } from "./config-names.js";
import { AgentRuntimeAbortError, AgentRuntimeError } from "./errors.js";
import { EventBus } from "./events.js";
import type { HookTable } from "./hooks.js";
import { agentIdentity } from "./identity.js";
import { resolveProviderModel } from "./resolve-model.js";
import { RunExecution } from "./run.js";
import type { LiveState, Toolset } from "./run-context.js";
import { type AgentRunStream, runEventStream } from "./run-stream.js";
import { ABORTED, EMPTY_TOOLSET, emptySetup, type Setup, setUpPlugins, toolsetReader, unlessAborted } from "./setup.js";
import { assertMessages } from "./transcript.js";
import {
  DEFAULT_MAX_COMPLETION_REMINDERS,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_MAX_PARALLEL_TOOLS,
  DEFAULT_PLUGIN_SETUP_TIMEOUT_MS,
  validateConfig,
} from "./validate-config.js";

export type { AgentRunStream } from "./run-stream.js";

/**
 * The stateless tool-calling loop: messages and tools in, a run result out. The only state kept between runs is
 * the transcript (`initialMessages`, then whatever runs added or `restore` set), so a host can build a fresh
 * runtime per turn, replay or retry a run.
 */
export class AgentRuntime {
  readonly agentId: string;
  private readonly config: AgentRuntimeConfig;
  private readonly logger: Logger;
  private transcript: AgentMessage[];
  private readonly bus: EventBus;
  private setup: Promise<Setup> | undefined;
  private hooks: HookTable | undefined;
  private model: AgentModel | undefined;
  private busy = false;
  private controller: AbortController | undefined;
  private current: RunExecution | undefined;
  private steered: AgentMessage[] = [];
  private lastIteration = 0;
  private lastUsage: AgentUsage = emptyUsage();
  private readonly live: LiveState = { status: "idle", pendingToolCalls: new Set() };
  private readToolset: (() => Promise<Toolset>) | undefined;

  constructor(config: AgentRuntimeConfig) {
    validateConfig(config);
    this.config = resolveConfigNames(config);
    this.logger = config.logger ?? consoleLogger;
    this.agentId = config.agentId ?? createId("agent");
    this.transcript = [...(config.initialMessages ?? [])];
    this.model = config.model;
    this.bus = new EventBus(
      () => this.hooks?.onEvent ?? [],
      (error) => this.logger.error("an event listener threw (the run goes on)", error),
    );
  }

  /** True while a run is going. */
  get running(): boolean {
    return this.busy;
  }

  /**
   * Appends `input` to the transcript and runs the loop until it ends. Without input it continues the conversation,
   * like `continue()`. Rejects only on programmer error.
   */
  run(input?: AgentRunInput): Promise<AgentRunResult> {
    if (input === undefined) return this.continue();
    let messages: AgentMessage[];
    try {
      messages = this.normalize(input, "run");
      if (messages.length === 0 || (typeof input === "string" && input.trim() === ""))
        throw new AgentRuntimeError(
          "invalid_input",
          "run(input): input is empty; call run() or continue() without input to run without new input",
        );
    } catch (error) {
      return Promise.reject(error);
    }
    return this.start(messages, "run");
  }

  /** Runs again from the current transcript, with optional new input: after an abort, or to answer pending calls. */
  continue(input?: AgentRunInput): Promise<AgentRunResult> {
    let messages: AgentMessage[];
    try {
      messages = input === undefined ? [] : this.normalize(input, "continue");
    } catch (error) {
      return Promise.reject(error);
    }
    return this.start(messages, "continue");
  }

  /**
   * Like `run` (or `continue` without input), as an async iterable of events ending with `run-finished`. A consumer
   * that lags behind a tool's `tool-updated` events gets the latest few of each call, not all (see `RunEventQueue`).
   */
  stream(input?: AgentRunInput): AgentRunStream {
    if (this.busy) throw this.busyError();
    return runEventStream(
      (listener) => this.bus.subscribe(listener),
      () => this.run(input),
      () => this.abort("the stream's consumer stopped reading"),
    );
  }

  /** Aborts the current run (no-op when idle): it ends promptly with status "aborted", mid-stream or mid-tool. */
  abort(reason?: string): void {
    if (this.controller && !this.controller.signal.aborted) {
      this.controller.abort(new AgentRuntimeAbortError(reason ?? "aborted by the host"));
    }
  }

  /** Listens to every event of every run; returns the function that stops listening. */
  subscribe(listener: (event: AgentRuntimeEvent) => void): () => void {
    return this.bus.subscribe(listener);
  }

  /** The full state, deep-copied: safe to keep, change or serialize without touching the live transcript. */
  snapshot(): AgentSnapshot {
    const run = this.current;
    return {
      ...agentIdentity(this.agentId, this.config),
      ...(run && { runId: run.runId }),
      running: this.busy,
      status: this.live.status,
      pendingToolCalls: [...this.live.pendingToolCalls],
      ...(this.live.lastError !== undefined && { lastError: this.live.lastError }),
      ...(this.live.lastErrorClass !== undefined && { lastErrorClass: this.live.lastErrorClass }),
      iteration: run ? run.iteration : this.lastIteration,
      messages: structuredClone(this.transcript),
      usage: { ...(run ? run.usage : this.lastUsage) },
    };
  }

  /**
   * Replaces the transcript explicitly (the only way history is ever dropped). During a run it throws an
   * `AgentRuntimeError` with code `busy`.
   */
  restore(messages: AgentMessage[]): void {
    if (this.busy) throw this.busyError("restore");
    assertMessages(messages, "restore(messages)");
    this.transcript = messages.slice();
    this.lastIteration = 0;
    this.lastUsage = emptyUsage();
  }

  /** Queues a user message, injected before the next model call (of this run, or of the next one). */
  steer(text: string): void {
    if (typeof text !== "string" || text.trim() === "")
      throw new AgentRuntimeError("invalid_input", "steer(text): text must be a non-empty string");
    this.steered.push(userMessage(text, { metadata: { heddle: { kind: "steer" } } }));
  }

  private normalize(input: AgentRunInput, method: string): AgentMessage[] {
    if (input === null || (typeof input !== "string" && typeof input !== "object")) {
      throw new AgentRuntimeError(
        "invalid_input",
        `${method}(input): expected text, content parts or messages, got ${input === null ? "null" : typeof input}`,
      );
    }
    const messages = normalizeRunInput(input);
    assertMessages(messages, `${method}(input)`);
    return messages;
  }

  private busyError(method = "run"): AgentRuntimeError {
    return new AgentRuntimeError(
      "busy",
      `${method}(): agent ${this.agentId} is already running; await the current run or abort() it first`,
    );
  }

  private async start(input: AgentMessage[], mode: "run" | "continue"): Promise<AgentRunResult> {
    if (this.busy) throw this.busyError(mode);
    this.busy = true;
    this.live.status = "running";
    const controller = new AbortController();
    this.controller = controller;
    try {
      // Plugin setup and model resolution may wait on the network: an abort() wins over both.
      const setup = await unlessAborted(this.ensureSetup(), controller.signal);
      const model = setup === ABORTED ? ABORTED : await unlessAborted(this.ensureModel(), controller.signal);
      const run = this.newRun(
        setup === ABORTED || model === ABORTED ? emptySetup() : setup,
        model === ABORTED ? (this.model ?? unresolvedModel(this.config)) : model,
        controller,
      );
      this.current = run;
      const result = await run.execute(input, mode);
      this.lastIteration = result.iterations;
      this.lastUsage = result.usage;
      return result;
    } finally {
      this.busy = false;
      this.live.status = "idle";
      this.live.pendingToolCalls.clear();
      this.controller = undefined;
      this.current = undefined;
    }
  }

  private newRun(setup: Setup, model: AgentModel, controller: AbortController): RunExecution {
    const config = this.config;
    const stopWhen = config.stopWhen;
    // One reader per runtime, so an unchanged tool list is not checked again run after run.
    if (typeof config.tools === "function") this.readToolset ??= toolsetReader(config.tools, setup.pluginTools, config);
    return new RunExecution({
      agentId: this.agentId,
      config,
      model,
      toolset: setup.toolset ?? EMPTY_TOOLSET,
      ...(typeof config.tools === "function" && setup.toolset === undefined && { readToolset: this.readToolset! }),
      live: this.live,
      snapshot: () => this.snapshot(),
      hooks: setup.hooks,
      transcript: this.transcript,
      bus: this.bus,
      controller,
      logger: this.logger,
      maxIterations: config.maxIterations ?? DEFAULT_MAX_ITERATIONS,
      maxParallelTools: config.maxParallelTools ?? DEFAULT_MAX_PARALLEL_TOOLS,
      maxCompletionReminders: config.maxCompletionReminders ?? DEFAULT_MAX_COMPLETION_REMINDERS,
      stopWhen: (stopWhen === undefined ? [] : Array.isArray(stopWhen) ? stopWhen : [stopWhen]) as StopCondition[],
      takeSteered: () => this.steered.splice(0),
    });
  }

  private async ensureModel(): Promise<AgentModel> {
    this.model ??= await resolveProviderModel(this.config);
    return this.model;
  }

  // Plugins are set up once, before the first run, so constructing a runtime stays cheap and synchronous.
  private ensureSetup(): Promise<Setup> {
    const { config } = this;
    this.setup ??= setUpPlugins(
      config,
      {
        ...agentIdentity(this.agentId, config),
        ...(config.systemPrompt !== undefined && { systemPrompt: config.systemPrompt }),
        metadata: config.metadata ?? {},
      },
      config.pluginSetupTimeoutMs ?? DEFAULT_PLUGIN_SETUP_TIMEOUT_MS,
    ).then(
      (setup) => {
        this.hooks = setup.hooks;
        return setup;
      },
      (error) => {
        this.setup = undefined;
        throw error;
      },
    );
    return this.setup;
  }
}

/** Stands in for a model a run was aborted before resolving; never called (the run ends before any turn). */
function unresolvedModel(config: AgentRuntimeConfig): AgentModel {
  return {
    provider: config.providerId ?? "unknown",
    modelId: config.modelId ?? "unknown",
    async *stream() {
      yield { type: "finish", reason: "aborted" };
    },
  };
}

/** Alias of `AgentRuntime`. */
export { AgentRuntime as Agent };

/** Creates an `AgentRuntime`. */
export function createAgentRuntime(config: AgentRuntimeConfig): AgentRuntime {
  return new AgentRuntime(config);
}

/** Creates an `AgentRuntime` (same as `createAgentRuntime`). */
export const createAgent = createAgentRuntime;
