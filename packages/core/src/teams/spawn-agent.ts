import { AgentRuntime, childTelemetry } from "@heddle/agents";
import {
  type AgentHooks,
  type AgentRunResult,
  type AgentRuntimeConfig,
  type AgentRuntimeEvent,
  type AgentTool,
  createId,
  createTool,
  type StopCondition,
  type ToolContext,
} from "@heddle/shared";
import { z } from "zod";
import { createHookEngine, type HookEngine, type HookEngineOptions } from "../hooks/index.js";
import { createSafetyHooks, mergeHooks, type SafetyOptions } from "../safety/index.js";
import { TeamError } from "./errors.js";

/** What `createSpawnAgentTool` takes: a child agent's config, the tools it may choose from, and its limits. */
export interface SpawnAgentToolOptions
  extends Omit<AgentRuntimeConfig, "tools" | "initialMessages" | "agentId" | "parentAgentId" | "sessionId"> {
  /** The tools a sub-agent may get; the model picks a subset by name with `tools` (default: all of them). */
  tools: AgentTool[] | (() => AgentTool[]);
  /**
   * How many levels of sub-agents may exist below the agent that holds this tool (default 1: a sub-agent cannot
   * spawn). With 2, each sub-agent gets its own `spawn_agent` and its children none.
   */
  maxDepth?: number;
  /** Command hooks: `SubagentStart`/`SubagentStop` fire around each sub-agent, and the tool hooks inside it. */
  commandHooks?: HookEngine | HookEngineOptions;
  /** The `agent_type` hooks see and match on (default `general-purpose`). */
  agentType?: string;
  /** Loop detection and the failure circuit breaker inside the sub-agent: on by default. */
  safety?: false | SafetyOptions;
  /** The tool's name (default `spawn_agent`) and description. */
  name?: string;
  description?: string;
}

/** What the model gives `spawn_agent`. */
export interface SpawnAgentInput {
  description: string;
  prompt: string;
  tools?: string[];
}

/**
 * What a host sees of a sub-agent: every event of the child, wrapped, as the `update` of the parent's
 * `tool-updated` event for the `spawn_agent` call. `run-finished` carries the result without its messages.
 */
export interface SubagentUpdate {
  type: "subagent-event";
  /** The child's agent id (also `event.agentId`). */
  subagentId: string;
  /** The parent agent and the tool call that runs the child. */
  parentAgentId: string;
  parentToolCallId: string;
  description: string;
  /** Nesting level: 1 for a child of the top agent. */
  depth: number;
  event: AgentRuntimeEvent;
}

const DEFAULT_DESCRIPTION =
  "Start a sub-agent with its own fresh context for a self-contained task (a search, a check, a focused change). " +
  "It sees only the prompt you give it, so include every detail it needs. Its final answer comes back as this " +
  "tool's result. `tools` lists the tool names it may use (default: all available to it).";

export const SPAWN_AGENT_TOOL_NAME = "spawn_agent";

/** True for an object that looks like a `HookEngine` rather than its options. */
function isHookEngine(value: HookEngine | HookEngineOptions): value is HookEngine {
  return typeof (value as HookEngine).run === "function" && "agentHooks" in value;
}

/**
 * The `spawn_agent` tool: each call runs a child `AgentRuntime` with its own context and a subset of `tools`, and
 * returns its final text ("(no summary)" when empty). The child's usage is reported to the parent run as it is
 * spent, it gets at most what is left of the parent's budget, and the parent's abort stops it and its tool.
 */
export function createSpawnAgentTool(options: SpawnAgentToolOptions): AgentTool<SpawnAgentInput, string> {
  if (!options || typeof options !== "object")
    throw new TeamError("team_invalid_input", "createSpawnAgentTool: options must be an object");
  if (!options.model && (!options.providerId || !options.modelId))
    throw new TeamError("team_invalid_input", 'createSpawnAgentTool: give "model", or "providerId" and "modelId"');
  if (typeof options.tools !== "function" && !Array.isArray(options.tools))
    throw new TeamError("team_invalid_input", "createSpawnAgentTool: tools must be an array or a function");
  const maxDepth = options.maxDepth ?? 1;
  if (!Number.isInteger(maxDepth) || maxDepth < 1)
    throw new TeamError("team_invalid_input", "createSpawnAgentTool: maxDepth must be an integer >= 1");
  let engine: HookEngine | undefined;
  const hookEngine = (): HookEngine | undefined => {
    if (!options.commandHooks) return undefined;
    engine ??= isHookEngine(options.commandHooks) ? options.commandHooks : createHookEngine(options.commandHooks);
    return engine;
  };
  return buildTool(options, 1, maxDepth, hookEngine);
}

function buildTool(
  options: SpawnAgentToolOptions,
  depth: number,
  maxDepth: number,
  hookEngine: () => HookEngine | undefined,
): AgentTool<SpawnAgentInput, string> {
  const name = options.name ?? SPAWN_AGENT_TOOL_NAME;
  return createTool({
    name,
    description: options.description ?? DEFAULT_DESCRIPTION,
    input: z.object({
      description: z.string().min(1).describe("A short (3-7 words) name for the task, shown to the user."),
      prompt: z.string().min(1).describe("The complete task for the sub-agent."),
      tools: z.array(z.string()).optional().describe("Names of the tools the sub-agent may use."),
    }),
    execute: (input, ctx) => runSubagent(input, ctx, { options, depth, maxDepth, hookEngine, name }),
  });
}

interface SubagentPlan {
  options: SpawnAgentToolOptions;
  depth: number;
  maxDepth: number;
  hookEngine: () => HookEngine | undefined;
  name: string;
}

function childTools(plan: SubagentPlan, requested: string[] | undefined): AgentTool[] {
  const { options, depth, maxDepth, hookEngine, name } = plan;
  const given = typeof options.tools === "function" ? options.tools() : options.tools;
  // Never the spawn tool itself from the given list: recursion only through the depth-limited copy below.
  const available = given.filter((tool) => tool.name !== name);
  if (depth < maxDepth) available.push(buildTool(options, depth + 1, maxDepth, hookEngine));
  if (requested === undefined) return available;
  const byName = new Map(available.map((tool) => [tool.name, tool]));
  const unknown = requested.filter((toolName) => !byName.has(toolName));
  if (unknown.length > 0)
    throw new Error(
      `Unknown tool${unknown.length > 1 ? "s" : ""} for the sub-agent: ${unknown.join(", ")}. Available: ${
        [...byName.keys()].join(", ") || "(none)"
      }.`,
    );
  return [...new Set(requested)].map((toolName) => byName.get(toolName)!);
}

async function runSubagent(input: SpawnAgentInput, ctx: ToolContext, plan: SubagentPlan): Promise<string> {
  const { options, depth } = plan;
  const tools = childTools(plan, input.tools);
  const subagentId = createId("agent");
  const agentType = options.agentType ?? "general-purpose";
  const engine = plan.hookEngine();
  const hookFields = {
    agent_id: subagentId,
    agent_type: agentType,
    parent_agent_id: ctx.agentId,
    description: input.description,
    ...(ctx.sessionId !== undefined && { session_id: ctx.sessionId }),
  };
  let hookContext: string | undefined;
  if (engine) {
    const start = await engine.subagentStart({ ...hookFields, prompt: input.prompt, signal: ctx.signal });
    if (start.decision === "deny" || start.stop)
      throw new Error(`A SubagentStart hook blocked the sub-agent: ${start.reason ?? "no reason given"}`);
    hookContext = start.additionalContext;
  }
  ctx.signal.throwIfAborted();

  const {
    tools: _tools,
    maxDepth: _maxDepth,
    commandHooks: _commandHooks,
    agentType: _agentType,
    safety,
    name: _name,
    description: _description,
    hooks,
    stopWhen,
    maxBudgetUsd,
    systemPrompt,
    ...config
  } = options;
  // The child may spend at most what its parent has left (and its own cap); a parent whose budget runs out
  // while siblings spend in parallel stops it at its next step.
  const parentLeft = ctx.remainingBudgetUsd?.();
  const budget = minDefined(maxBudgetUsd, parentLeft);
  const parentBudgetGone: StopCondition = () => (ctx.remainingBudgetUsd?.() ?? 1) <= 0;
  const ownStops = stopWhen === undefined ? [] : Array.isArray(stopWhen) ? stopWhen : [stopWhen];
  const prompt = [systemPrompt, hookContext].filter(Boolean).join("\n\n");
  // The parent's telemetry (or the tool's own): the child's run span is a child of this call's execute_tool span.
  const telemetry = childTelemetry(ctx, config.telemetry);
  const child = new AgentRuntime({
    ...config,
    ...(telemetry && { telemetry }),
    ...(prompt !== "" && { systemPrompt: prompt }),
    tools,
    agentId: subagentId,
    parentAgentId: ctx.agentId,
    agentRole: options.agentRole ?? agentType,
    ...(ctx.sessionId !== undefined && { sessionId: ctx.sessionId }),
    ...(budget !== undefined && { maxBudgetUsd: budget }),
    stopWhen: parentLeft === undefined ? ownStops : [...ownStops, parentBudgetGone],
    hooks: mergeHooks(
      hooks,
      ...(safety === false ? [] : createSafetyHooks(safety ?? {})),
      // The tool hooks run inside the child too; its end is SubagentStop, not the session's Stop.
      engine && ({ beforeTool: engine.agentHooks.beforeTool, afterTool: engine.agentHooks.afterTool } as AgentHooks),
    ),
  });

  const unsubscribe = child.subscribe((event) => {
    if (event.type === "usage-updated") ctx.reportUsage(event.delta);
    ctx.emitUpdate(wrapEvent(event, { subagentId, ctx, description: input.description, depth }));
  });
  const stop = () => child.abort(`the parent agent stopped: ${reasonText(ctx.signal.reason)}`);
  ctx.signal.addEventListener("abort", stop, { once: true });
  let result: AgentRunResult;
  try {
    const running = child.run(input.prompt);
    if (ctx.signal.aborted) stop();
    result = await running;
  } finally {
    ctx.signal.removeEventListener("abort", stop);
    unsubscribe();
  }
  if (engine) {
    // Not tied to the parent's signal: the hook still hears about a sub-agent the parent aborted.
    await engine.subagentStop({
      ...hookFields,
      status: result.status,
      reason: result.reason,
      output_text: result.outputText,
    });
  }
  return summaryOf(result);
}

/** The tool result: the child's final text, with a note when it did not finish. */
function summaryOf(result: AgentRunResult): string {
  if (result.status === "failed")
    throw new Error(`The sub-agent failed (${result.reason}): ${result.reasonDetail ?? result.error?.message ?? ""}`);
  const text = result.outputText.trim() === "" ? "(no summary)" : result.outputText;
  if (result.status === "completed" && result.reason !== "max_budget" && result.reason !== "max_iterations")
    return text;
  const why = result.reasonDetail ? `${result.reason}: ${result.reasonDetail}` : result.reason;
  return `${text}\n\n(The sub-agent stopped before finishing: ${why}.)`;
}

function wrapEvent(
  event: AgentRuntimeEvent,
  info: { subagentId: string; ctx: ToolContext; description: string; depth: number },
): SubagentUpdate {
  // The child's whole transcript stays out of events: a host asks for it by listening to message-added.
  const light =
    event.type === "run-finished"
      ? ({ ...event, result: { ...event.result, messages: [], newMessages: [] } } as AgentRuntimeEvent)
      : event;
  return {
    type: "subagent-event",
    subagentId: info.subagentId,
    parentAgentId: info.ctx.agentId,
    parentToolCallId: info.ctx.toolCallId,
    description: info.description,
    depth: info.depth,
    event: light,
  };
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return reason === undefined ? "aborted" : String(reason);
}

/** True when a `tool-updated` event's update comes from a sub-agent. */
export function isSubagentUpdate(update: unknown): update is SubagentUpdate {
  return typeof update === "object" && update !== null && (update as SubagentUpdate).type === "subagent-event";
}
