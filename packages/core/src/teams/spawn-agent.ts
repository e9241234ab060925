import { childTelemetry } from "@heddle/agents";
import {
  type AgentModel,
  type AgentRunResult,
  type AgentRuntimeConfig,
  type AgentRuntimeEvent,
  type AgentTool,
  createId,
  createTool,
  type ToolContext,
} from "@heddle/shared";
import { z } from "zod";
import {
  AgentHost,
  BIND_TO_HOST,
  type HostBinding,
  type HostedTool,
  LimitScope,
  type PolicyNarrowing,
} from "../host/index.js";
import type { SafetyOptions } from "../safety/index.js";
import { TeamError } from "./errors.js";

/** Sub-agents one top-level run may start, at all depths together, unless `maxSpawns` says otherwise. */
export const DEFAULT_MAX_SPAWNS = 32;

/**
 * What `createSpawnAgentTool` takes: the child's config, the tools it may choose from, and its limits. The child's
 * policy is its parent's, narrowed by `toolPolicies`, `requestToolApproval`, `maxIterations`, `maxBudgetUsd` and
 * `safety` here: never wider.
 */
export interface SpawnAgentToolOptions
  extends Omit<AgentRuntimeConfig, "tools" | "initialMessages" | "agentId" | "parentAgentId" | "sessionId"> {
  /**
   * The tools a sub-agent may get; the model picks a subset by name with `tools`. Default: the tools of the agent
   * that holds `spawn_agent`, in this run, so they keep its workspace, sandbox and checkpoints.
   */
  tools?: AgentTool[] | (() => AgentTool[]);
  /** Tool names a sub-agent never gets (the lead's own, like `ask_user` or `submit_result`). */
  excludeTools?: string[];
  /**
   * How many levels of sub-agents may exist below the agent that holds this tool (default 1: a sub-agent cannot
   * spawn). With 2, each sub-agent gets its own `spawn_agent` and its children none.
   */
  maxDepth?: number;
  /** How many sub-agents one top-level run may start, at all depths together (default `DEFAULT_MAX_SPAWNS`). */
  maxSpawns?: number;
  /**
   * Not here: a sub-agent runs its parent's command hooks, chosen with the host's trust decision
   * (`createAgentHost({commandHooks})`, or a session's `commandHooks`). Giving it is a `TeamError`.
   */
  commandHooks?: never;
  /** The `agent_type` hooks see and match on (default `general-purpose`). */
  agentType?: string;
  /** Loop detection and the breaker inside the sub-agent: on by default; `false` only where the parent's are off. */
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

/** A sub-agent's system prompt when the host gives none: it works alone, then reports. */
export const DEFAULT_SUBAGENT_PROMPT =
  "You are a sub-agent: another agent gave you one self-contained task. Complete it with the tools you have, " +
  "without asking questions (no one will answer). When you are done, end with a short summary of what you did " +
  "and what you found: that summary is all the agent that started you will see.";

const SPAWN_INPUT = z.object({
  description: z.string().min(1).describe("A short (3-7 words) name for the task, shown to the user."),
  prompt: z.string().min(1).describe("The complete task for the sub-agent."),
  tools: z.array(z.string()).optional().describe("Names of the tools the sub-agent may use."),
});

interface SpawnPlan {
  options: SpawnAgentToolOptions;
  name: string;
  maxDepth: number;
  maxSpawns: number;
  narrowing: PolicyNarrowing;
  /** The child's own config: everything of the options that is not the plan's or the policy's. */
  config: Omit<AgentRuntimeConfig, "tools">;
}

/**
 * The `spawn_agent` tool: each call runs a child agent with its own context and a subset of tools, started by the
 * host of the agent that holds the tool, under that agent's policy narrowed, and returns its final text ("(no
 * summary)" when empty). The child's usage is reported to the parent run as it is spent; its model calls and spend
 * count against the parent's limits; the parent's abort stops it and its tool.
 */
export function createSpawnAgentTool(options: SpawnAgentToolOptions): AgentTool<SpawnAgentInput, string> {
  if (!options || typeof options !== "object")
    throw new TeamError("team_invalid_input", "createSpawnAgentTool: options must be an object");
  if ("commandHooks" in options && options.commandHooks !== undefined)
    throw new TeamError(
      "team_invalid_input",
      "createSpawnAgentTool: commandHooks belong to the host (createAgentHost({commandHooks}) or the session's): " +
        "a sub-agent runs its parent's hooks, under the host's trust decision",
    );
  if (options.model === undefined && (options.providerId === undefined) !== (options.modelId === undefined))
    throw new TeamError("team_invalid_input", 'createSpawnAgentTool: give "providerId" and "modelId" together');
  if (options.tools !== undefined && typeof options.tools !== "function" && !Array.isArray(options.tools))
    throw new TeamError("team_invalid_input", "createSpawnAgentTool: tools must be an array or a function");
  const maxDepth = options.maxDepth ?? 1;
  if (!Number.isInteger(maxDepth) || maxDepth < 1)
    throw new TeamError("team_invalid_input", "createSpawnAgentTool: maxDepth must be an integer >= 1");
  const maxSpawns = options.maxSpawns ?? DEFAULT_MAX_SPAWNS;
  if (!Number.isInteger(maxSpawns) || maxSpawns < 0)
    throw new TeamError("team_invalid_input", "createSpawnAgentTool: maxSpawns must be an integer >= 0");
  const {
    tools: _tools,
    excludeTools: _exclude,
    maxDepth: _maxDepth,
    maxSpawns: _maxSpawns,
    commandHooks: _hooks,
    agentType: _agentType,
    name: _name,
    description: _description,
    toolPolicies,
    requestToolApproval,
    maxIterations,
    maxBudgetUsd,
    safety,
    ...config
  } = options;
  const narrowing: PolicyNarrowing = {
    ...(toolPolicies && { toolPolicies }),
    ...(requestToolApproval && { requestToolApproval: requestToolApproval.bind(options) }),
    ...(maxIterations !== undefined && { maxIterations }),
    ...(maxBudgetUsd !== undefined && { maxBudgetUsd }),
    ...(safety !== undefined && { safety }),
  };
  const plan: SpawnPlan = {
    options,
    name: options.name ?? SPAWN_AGENT_TOOL_NAME,
    maxDepth,
    maxSpawns,
    narrowing,
    config,
  };
  const base = createTool({
    name: plan.name,
    description: options.description ?? DEFAULT_DESCRIPTION,
    input: SPAWN_INPUT,
    execute: () => "",
  });
  return spawnTool(base, plan, 1, undefined);
}

// The same tool object shape at every depth and binding: only `execute` and the binding differ.
function spawnTool(
  base: AgentTool<SpawnAgentInput, string>,
  plan: SpawnPlan,
  depth: number,
  binding: HostBinding | undefined,
): HostedTool<SpawnAgentInput, string> {
  return {
    ...base,
    execute: (input: SpawnAgentInput, ctx: ToolContext) =>
      runSubagent(input, ctx, plan, depth, binding ?? hostlessBinding(plan, ctx), base),
    [BIND_TO_HOST]: (bound: HostBinding) => spawnTool(base, plan, depth, bound),
  };
}

// A parent run without a host (a bare `AgentRuntime`): its tool rules and approver come from the call's context,
// its budget from what the run has left. One per parent run, so `maxSpawns` counts the whole run.
const hostless = new WeakMap<object, { host: AgentHost; scope: LimitScope }>();
/** The tools of a host-less parent: none known, so the spawn tool must be given its own. */
const HOSTLESS_TOOLS: readonly AgentTool[] = Object.freeze([]);

function hostlessBinding(plan: SpawnPlan, ctx: ToolContext): HostBinding {
  const key = ctx.permissions;
  let entry = key ? hostless.get(key) : undefined;
  if (!entry) {
    const host = new AgentHost({
      ...(key?.toolPolicies && { toolPolicies: key.toolPolicies }),
      ...(key?.requestToolApproval && { requestToolApproval: key.requestToolApproval }),
      // A host-less parent runs no safety guards of its own: the sub-agent's are the tool's choice.
      safety: plan.narrowing.safety ?? {},
    });
    const remaining = ctx.remainingBudgetUsd;
    const scope = new LimitScope({
      kind: "run",
      label: "the parent agent's run",
      ...(remaining && { externalBudgetLeft: () => remaining() }),
    });
    entry = { host, scope };
    if (key) hostless.set(key, entry);
  }
  return { host: entry.host, scope: entry.scope, model: undefined, tools: HOSTLESS_TOOLS };
}

async function runSubagent(
  input: SpawnAgentInput,
  ctx: ToolContext,
  plan: SpawnPlan,
  depth: number,
  binding: HostBinding,
  base: AgentTool<SpawnAgentInput, string>,
): Promise<string> {
  const { options, config } = plan;
  const model: AgentModel | undefined = config.model ?? (config.providerId ? undefined : binding.model);
  if (!model && !config.providerId)
    throw new TeamError(
      "subagent_failed",
      "spawn_agent has no model: give createSpawnAgentTool a model, or run it under an agent host.",
    );
  if (options.tools === undefined && binding.tools === HOSTLESS_TOOLS)
    throw new TeamError(
      "subagent_failed",
      "spawn_agent has no tools to give: pass createSpawnAgentTool tools, or run it under an agent host.",
    );
  const root = binding.scope.runRoot();
  if (root.spawns >= plan.maxSpawns)
    throw new TeamError(
      "subagent_limit_reached",
      `No more sub-agents: this task already started ${root.spawns} (the limit, maxSpawns, is ${plan.maxSpawns}). ` +
        "Do the rest yourself or report what you have.",
    );
  const parentHost = binding.host;
  const checkpointer = parentHost.policy.checkpointer?.forCall(ctx);
  const childHost = parentHost.child(plan.narrowing, {
    scope: binding.scope,
    spendRollsUp: false,
    subagent: true,
    ...(checkpointer && { checkpointer }),
  });
  const tools = childTools(plan, depth, binding, childHost, input.tools, base);
  root.spawns++;

  const subagentId = createId("agent");
  const agentType = options.agentType ?? "general-purpose";
  const engine = parentHost.policy.commandHooks;
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
      throw new TeamError(
        "subagent_failed",
        `A SubagentStart hook blocked the sub-agent: ${start.reason ?? "no reason given"}`,
      );
    hookContext = start.additionalContext;
  }
  ctx.signal.throwIfAborted();

  const prompt = [config.systemPrompt ?? DEFAULT_SUBAGENT_PROMPT, hookContext].filter(Boolean).join("\n\n");
  // The parent's telemetry (or the tool's own): the child's run span is a child of this call's execute_tool span.
  const telemetry = childTelemetry(ctx, config.telemetry ?? parentHost.policy.telemetry);
  const child = childHost.createAgent({
    ...config,
    ...(model && { model }),
    ...(telemetry && { telemetry }),
    ...(prompt !== "" ? { systemPrompt: prompt } : { systemPrompt: undefined }),
    tools,
    agentId: subagentId,
    parentAgentId: ctx.agentId,
    agentRole: config.agentRole ?? agentType,
    ...(ctx.sessionId !== undefined && { sessionId: ctx.sessionId }),
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

/**
 * The child's tools: the given ones (or the parent's), without the spawn tool itself, the excluded names and what
 * the child's policy disables; a depth-limited `spawn_agent` of its own while `maxDepth` allows; then the subset
 * the model asked for.
 */
function childTools(
  plan: SpawnPlan,
  depth: number,
  binding: HostBinding,
  childHost: AgentHost,
  requested: string[] | undefined,
  base: AgentTool<SpawnAgentInput, string>,
): AgentTool[] {
  const { options, name, maxDepth } = plan;
  const given =
    options.tools === undefined ? binding.tools : typeof options.tools === "function" ? options.tools() : options.tools;
  const excluded = new Set([name, ...(options.excludeTools ?? [])]);
  // Never the spawn tool itself from the given list: recursion only through the depth-limited copy below.
  const available = childHost.enabledTools(given.filter((tool) => !excluded.has(tool.name)));
  if (depth < maxDepth) available.push(spawnTool(base, plan, depth + 1, undefined));
  if (requested === undefined) return available;
  const byName = new Map(available.map((tool) => [tool.name, tool]));
  const unknown = requested.filter((toolName) => !byName.has(toolName));
  if (unknown.length > 0)
    throw new TeamError(
      "team_invalid_input",
      `Unknown tool${unknown.length > 1 ? "s" : ""} for the sub-agent: ${unknown.join(", ")}. Available: ${
        [...byName.keys()].join(", ") || "(none)"
      }.`,
    );
  return [...new Set(requested)].map((toolName) => byName.get(toolName)!);
}

/** The tool result: the child's final text, with a note when it did not finish. */
function summaryOf(result: AgentRunResult): string {
  if (result.status === "failed")
    throw new TeamError(
      "subagent_failed",
      `The sub-agent failed (${result.reason}): ${result.reasonDetail ?? result.error?.message ?? ""}`,
    );
  const text = result.outputText.trim() === "" ? "(no summary)" : result.outputText;
  if (result.status === "completed") return text;
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

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return reason === undefined ? "aborted" : String(reason);
}

/** True when a `tool-updated` event's update comes from a sub-agent. */
export function isSubagentUpdate(update: unknown): update is SubagentUpdate {
  return typeof update === "object" && update !== null && (update as SubagentUpdate).type === "subagent-event";
}
