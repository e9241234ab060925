import {
  type AgentMessage,
  type AgentModel,
  type AgentRunInput,
  type AgentRunResult,
  type AgentRuntimeConfig,
  type AgentRuntimeEvent,
  type AgentSnapshot,
  type AgentTool,
  type AgentUsage,
  createId,
  emptyUsage,
  eventStream,
  normalizeRunInput,
  type StopCondition,
  type ToolDefinition,
  userMessage,
} from "@heddle/shared";
import { AgentRuntimeAbortError, AgentRuntimeError } from "./errors.js";
import { EventBus } from "./events.js";
import { buildHookTable, type HookTable } from "./hooks.js";
import { resolveProviderModel } from "./resolve-model.js";
import { RunExecution } from "./run.js";
import { policyFor } from "./tool-calls.js";
import { assertMessages } from "./transcript.js";
import { DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_PARALLEL_TOOLS, validateConfig } from "./validate-config.js";

/** What plugin setup produced: every tool and every hook, merged once. */
interface Setup {
  tools: Map<string, AgentTool>;
  toolDefinitions: ToolDefinition[];
  disabledTools: Set<string>;
  hooks: HookTable;
}

/** The events of one run, then its result; leaving the loop early aborts the run. */
export interface AgentRunStream extends AsyncIterable<AgentRuntimeEvent> {
  /** Resolves with the run's result (also carried by the last event, `run-finished`). */
  readonly result: Promise<AgentRunResult>;
}

/**
 * The stateless tool-calling loop: messages and tools in, a run result out. The only state kept between runs is
 * the transcript (`initialMessages`, then whatever runs added or `restore` set), so a host can build a fresh
 * runtime per turn, replay or retry a run.
 */
export class AgentRuntime {
  readonly agentId: string;
  private readonly config: AgentRuntimeConfig;
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

  constructor(config: AgentRuntimeConfig) {
    validateConfig(config);
    this.config = config;
    this.agentId = config.agentId ?? createId("agent");
    this.transcript = [...(config.initialMessages ?? [])];
    this.model = config.model;
    this.bus = new EventBus(
      () => this.hooks?.onEvent ?? [],
      (error) => globalThis.console?.error?.("[heddle] an event listener threw (the run goes on):", error),
    );
  }

  /** True while a run is going. */
  get running(): boolean {
    return this.busy;
  }

  /** Appends `input` to the transcript and runs the loop until it ends. Rejects only on programmer error. */
  run(input: AgentRunInput): Promise<AgentRunResult> {
    let messages: AgentMessage[];
    try {
      messages = this.normalize(input, "run");
      if (messages.length === 0 || (typeof input === "string" && input.trim() === ""))
        throw new AgentRuntimeError(
          "invalid_input",
          "run(input): input is empty; use continue() to run without new input",
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

  /** Like `run` (or `continue` without input), as an async iterable of events ending with `run-finished`. */
  stream(input?: AgentRunInput): AgentRunStream {
    if (this.busy) throw this.busyError();
    return eventStream<AgentRuntimeEvent, AgentRunResult>(
      (listener) => this.bus.subscribe(listener),
      () => (input === undefined ? this.continue() : this.run(input)),
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

  /** The full state, copied: safe to keep or serialize. */
  snapshot(): AgentSnapshot {
    const run = this.current;
    return {
      agentId: this.agentId,
      ...(run && { runId: run.runId }),
      running: this.busy,
      iteration: run ? run.iteration : this.lastIteration,
      messages: this.transcript.slice(),
      usage: { ...(run ? run.usage : this.lastUsage) },
    };
  }

  /** Replaces the transcript explicitly (the only way history is ever dropped). Not allowed during a run. */
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
    const controller = new AbortController();
    this.controller = controller;
    try {
      const setup = await this.ensureSetup();
      this.model ??= await resolveProviderModel(this.config);
      const stopWhen = this.config.stopWhen;
      const run = new RunExecution({
        agentId: this.agentId,
        config: this.config,
        model: this.model,
        tools: setup.tools,
        toolDefinitions: setup.toolDefinitions,
        disabledTools: setup.disabledTools,
        hooks: setup.hooks,
        transcript: this.transcript,
        bus: this.bus,
        controller,
        maxIterations: this.config.maxIterations ?? DEFAULT_MAX_ITERATIONS,
        maxParallelTools: this.config.maxParallelTools ?? DEFAULT_MAX_PARALLEL_TOOLS,
        stopWhen: (stopWhen === undefined ? [] : Array.isArray(stopWhen) ? stopWhen : [stopWhen]) as StopCondition[],
        takeSteered: () => this.steered.splice(0),
      });
      this.current = run;
      const result = await run.execute(input, mode);
      this.lastIteration = result.iterations;
      this.lastUsage = result.usage;
      return result;
    } finally {
      this.busy = false;
      this.controller = undefined;
      this.current = undefined;
    }
  }

  private ensureSetup(): Promise<Setup> {
    this.setup ??= this.runSetup().catch((error) => {
      this.setup = undefined;
      throw error;
    });
    return this.setup;
  }

  // Plugins are set up once, before the first run, so constructing a runtime stays cheap and synchronous.
  private async runSetup(): Promise<Setup> {
    const config = this.config;
    const tools = [...(config.tools ?? [])];
    const hookSets = [config.hooks];
    const owners = ["config.hooks"];
    for (const plugin of config.plugins ?? []) {
      let contributed: Awaited<ReturnType<typeof plugin.setup>>;
      try {
        contributed = await plugin.setup({
          agentId: this.agentId,
          ...(config.sessionId !== undefined && { sessionId: config.sessionId }),
          ...(config.conversationId !== undefined && { conversationId: config.conversationId }),
          metadata: config.metadata ?? {},
        });
      } catch (error) {
        throw new AgentRuntimeError(
          "plugin_setup_failed",
          `plugin "${plugin.name}" failed to set up: ${(error as Error)?.message ?? String(error)}`,
          { cause: error },
        );
      }
      tools.push(...(contributed?.tools ?? []));
      hookSets.push(contributed?.hooks);
      owners.push(`plugin "${plugin.name}"`);
    }
    const byName = new Map<string, AgentTool>();
    for (const tool of tools) {
      if (!tool || typeof tool.name !== "string" || typeof tool.execute !== "function") {
        throw new AgentRuntimeError("invalid_config", "every tool needs a name and an execute() function");
      }
      if (byName.has(tool.name)) throw new AgentRuntimeError("invalid_config", `two tools are named "${tool.name}"`);
      byName.set(tool.name, tool);
    }
    const disabledTools = new Set<string>();
    const toolDefinitions: ToolDefinition[] = [];
    for (const tool of byName.values()) {
      // A disabled tool is not offered to the model; a call to it anyway is answered as disabled.
      if (policyFor(config.toolPolicies, tool.name).enabled === false) disabledTools.add(tool.name);
      else toolDefinitions.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
    }
    if (
      config.completionPolicy?.requireCompletionTool &&
      ![...byName.values()].some((t) => t.lifecycle?.completesRun && !disabledTools.has(t.name))
    ) {
      throw new AgentRuntimeError(
        "invalid_config",
        "completionPolicy.requireCompletionTool is set but no enabled tool has lifecycle.completesRun",
      );
    }
    let hooks: HookTable;
    try {
      hooks = buildHookTable(hookSets, (index) => owners[index]!);
    } catch (error) {
      throw new AgentRuntimeError("invalid_config", (error as Error).message);
    }
    this.hooks = hooks;
    return { tools: byName, toolDefinitions, disabledTools, hooks };
  }
}

/** Alias of `AgentRuntime`. */
export { AgentRuntime as Agent };

/** Creates an `AgentRuntime`. */
export function createAgentRuntime(config: AgentRuntimeConfig): AgentRuntime {
  return new AgentRuntime(config);
}

/** Creates an `AgentRuntime` (same as `createAgentRuntime`). */
export const createAgent = createAgentRuntime;
