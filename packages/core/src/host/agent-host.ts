/**
 * The rule this file keeps: every agent Heddle starts (a session's turn, a teammate's turn, a sub-agent) is a fresh
 * `AgentRuntime` whose config one `AgentHost` composes from its policy, and a child's host is its parent's,
 * narrowed. Nothing else in core assembles an agent's tool rules, approver, command hooks, checkpoints, safety,
 * guidance, telemetry or limits.
 */
import { AgentRuntime, mergeHooks } from "@heddle/agents";
import type {
  AgentHooks,
  AgentRuntimeConfig,
  AgentTool,
  AgentToolSource,
  CompletionGuardContext,
} from "@heddle/shared";
import type { FileCheckpointer } from "../checkpoints/index.js";
import { createSkillsPromptHooks, createTodoReminderHooks } from "../guidance/index.js";
import { createHookEngine, type HookEngine, type HookEngineOptions } from "../hooks/index.js";
import { createSafetyHooks, type SafetyListeners } from "../safety/index.js";
import { LimitScope } from "./limits.js";
import { withPermissionHooks } from "./permission-hooks.js";
import {
  type AgentPolicy,
  type GuidanceOptions,
  isToolEnabled,
  narrowPolicy,
  type PolicyNarrowing,
  type ToolApprover,
  type ToolPolicies,
} from "./policy.js";

/** What `createAgentHost` takes: the policy of the agents it starts (the root of a tree of hosts). */
export interface AgentHostOptions {
  toolPolicies?: ToolPolicies;
  requestToolApproval?: ToolApprover;
  /**
   * Command hooks: an engine, or its options (then `.heddle/settings.json` under `workspaceRoot` is read now).
   * Give them only for a folder the user trusts: every agent of this host and its children runs them.
   */
  commandHooks?: HookEngine | HookEngineOptions;
  checkpointer?: FileCheckpointer;
  safety?: AgentPolicy["safety"];
  guidance?: GuidanceOptions;
  telemetry?: AgentPolicy["telemetry"];
  maxIterations?: number;
  maxBudgetUsd?: number;
}

/**
 * One agent to start: its own config. Its `toolPolicies`, `requestToolApproval`, `maxIterations` and
 * `maxBudgetUsd` narrow the host's policy for this agent only.
 */
export interface AgentSpec extends AgentRuntimeConfig {
  /** Hooks of whoever starts the agent that must run before every other set (a session's write flush). */
  firstHooks?: AgentHooks;
  /** Hooks of whoever starts the agent that run after every other set (a session's hook context). */
  lastHooks?: AgentHooks;
  /** Told when loop detection or the circuit breaker fires. */
  safetyListeners?: SafetyListeners;
}

/** What a tool that starts agents learns about the agent holding it, at the start of each of that agent's runs. */
export interface HostBinding {
  /** The host of the agent holding the tool, with that agent's own narrowing applied. */
  host: AgentHost;
  /** The limits the holding agent's run counts against. */
  scope: LimitScope;
  /** The holding agent's model and its tools as given (before checkpoint guards). */
  model: AgentRuntimeConfig["model"];
  tools: readonly AgentTool[];
}

/** A tool carrying this key is handed a `HostBinding` by the host before each run (see `spawn_agent`). */
export const BIND_TO_HOST: unique symbol = Symbol.for("heddle.bindToHost");

/** A tool that starts agents and so must know the host of the agent that holds it. */
export interface HostedTool<I = any, O = unknown> extends AgentTool<I, O> {
  [BIND_TO_HOST](binding: HostBinding): AgentTool<I, O>;
}

export function isHostedTool(tool: AgentTool): tool is HostedTool {
  return typeof (tool as Partial<HostedTool>)[BIND_TO_HOST] === "function";
}

/** How a child host hangs under its parent. */
export interface ChildHostOptions {
  /** The limits its runs count against: the parent's run (a sub-agent) or the team (a teammate). */
  scope?: LimitScope;
  /** Whether its runs' spend is added to `scope` (yes for a teammate; a sub-agent's is reported by its tool). */
  spendRollsUp?: boolean;
  /** A sub-agent: its runs get the hooks' tool events only (its end is SubagentStop, not Stop). */
  subagent?: boolean;
  /** Where its writes are recorded instead of the parent's checkpointer (a sub-agent's, bound to its call). */
  checkpointer?: FileCheckpointer;
  /** Its own guidance and telemetry, in place of the parent's (they steer and observe; they permit nothing). */
  guidance?: GuidanceOptions;
  telemetry?: AgentPolicy["telemetry"];
}

interface HostLinks {
  scope: LimitScope | undefined;
  spendRollsUp: boolean;
  subagent: boolean;
}

/** Starts every agent under one policy; `child` gives the host of a sub-agent or teammate. */
export class AgentHost {
  readonly policy: Readonly<AgentPolicy>;
  readonly #links: HostLinks;

  constructor(policy: AgentPolicy, links: Partial<HostLinks> = {}) {
    this.policy = Object.freeze({ ...policy });
    this.#links = { scope: links.scope, spendRollsUp: links.spendRollsUp ?? false, subagent: links.subagent ?? false };
  }

  /** True for the host of a sub-agent. */
  get subagent(): boolean {
    return this.#links.subagent;
  }

  /** The host of a child: this policy narrowed by `narrowing` (never widened), under `options.scope`. */
  child(narrowing: PolicyNarrowing = {}, options: ChildHostOptions = {}): AgentHost {
    const policy = narrowPolicy(this.policy, narrowing);
    if (options.checkpointer) policy.checkpointer = options.checkpointer;
    if (options.guidance) policy.guidance = options.guidance;
    if (options.telemetry) policy.telemetry = options.telemetry;
    return new AgentHost(policy, {
      scope: options.scope ?? this.#links.scope,
      spendRollsUp: options.spendRollsUp ?? (options.scope ? false : this.#links.spendRollsUp),
      subagent: options.subagent ?? this.#links.subagent,
    });
  }

  /**
   * A fresh `AgentRuntime` for one run: the spec's own config, with the tool rules, approver, limits, telemetry and
   * hooks of this host's policy. Hooks run in this order: `firstHooks`, the checkpointer's, the spec's own, the
   * limits', safety, guidance, command hooks, `lastHooks`.
   */
  createAgent(spec: AgentSpec): AgentRuntime {
    const {
      firstHooks,
      lastHooks,
      safetyListeners,
      hooks,
      tools,
      toolPolicies,
      requestToolApproval,
      maxIterations,
      maxBudgetUsd,
      telemetry,
      ...config
    } = spec;
    const narrows =
      toolPolicies !== undefined ||
      requestToolApproval !== undefined ||
      maxIterations !== undefined ||
      maxBudgetUsd !== undefined;
    const host = narrows
      ? new AgentHost(
          narrowPolicy(this.policy, {
            ...(toolPolicies && { toolPolicies }),
            ...(requestToolApproval && { requestToolApproval: requestToolApproval.bind(spec) }),
            maxIterations,
            maxBudgetUsd,
          }),
          this.#links,
        )
      : this;
    const { policy } = host;
    const scope = new LimitScope({
      kind: "run",
      label: this.#links.subagent ? "the parent agent's run" : "the run",
      limits: { maxIterations: policy.maxIterations, maxBudgetUsd: policy.maxBudgetUsd },
      parent: this.#links.scope,
      spendRollsUp: this.#links.spendRollsUp,
    });
    const iterationsLeft = scope.iterationsLeft();
    const budgetLeft = scope.budgetLeft();
    const engine = policy.commandHooks;
    const guidance = policy.guidance;
    const offered = tools && host.#offer(tools, { host, scope, model: config.model });
    const effectiveTelemetry = telemetry ?? policy.telemetry;
    // A Stop hook may block the end of a session's or teammate's run, a SubagentStop hook the end of a sub-agent's.
    const hookGuard = !engine
      ? undefined
      : this.#links.subagent
        ? engine.subagentGuard &&
          ((ctx: CompletionGuardContext) =>
            engine.subagentGuard!(ctx, {
              ...(config.agentRole !== undefined && { agentType: config.agentRole }),
              ...(config.parentAgentId !== undefined && { parentAgentId: config.parentAgentId }),
            }))
        : engine.completionGuard;
    const stopGuard = hookGuard ? stopHookGuard(hookGuard, config) : undefined;
    return new AgentRuntime({
      ...config,
      ...stopGuard,
      ...(offered && { tools: offered }),
      ...(policy.toolPolicies && { toolPolicies: policy.toolPolicies }),
      ...(policy.requestToolApproval && { requestToolApproval: policy.requestToolApproval }),
      ...(iterationsLeft !== undefined && { maxIterations: Math.max(1, iterationsLeft) }),
      ...(budgetLeft !== undefined && { maxBudgetUsd: budgetLeft }),
      ...(effectiveTelemetry && { telemetry: effectiveTelemetry }),
      hooks: mergeHooks(
        firstHooks,
        policy.checkpointer?.hooks,
        hooks,
        scope.hooks(),
        ...(policy.safety === false ? [] : createSafetyHooks(policy.safety ?? {}, safetyListeners)),
        guidance?.todoReminder === false ? undefined : createTodoReminderHooks(guidance?.todoReminder),
        guidance?.skillsDirs?.length
          ? createSkillsPromptHooks({ skillsDirs: guidance.skillsDirs, baseDir: guidance.baseDir ?? process.cwd() })
          : undefined,
        engine && (this.#links.subagent ? toolHooksOf(engine) : engine.agentHooks),
        lastHooks,
      ),
    });
  }

  // The tools a run offers: tools that start agents bound to this host, and file tools checkpointed. A tool the
  // policy disables stays in the list: the loop refuses it and tells the model why. A tools function is wrapped:
  // read before each model call, and offered again only when it returns a different list.
  #offer(tools: AgentTool[] | AgentToolSource, binding: Omit<HostBinding, "tools">): AgentTool[] | AgentToolSource {
    if (typeof tools !== "function") return this.#offerList(tools, binding);
    let lastList: AgentTool[] | undefined;
    let lastOffered: AgentTool[] = [];
    return async () => {
      const list = await tools();
      if (list !== lastList && Array.isArray(list)) {
        lastOffered = this.#offerList(list, binding);
        lastList = list;
      }
      return Array.isArray(list) ? lastOffered : list;
    };
  }

  #offerList(tools: AgentTool[], binding: Omit<HostBinding, "tools">): AgentTool[] {
    const bound = tools.some(isHostedTool)
      ? tools.map((tool) => (isHostedTool(tool) ? tool[BIND_TO_HOST]({ ...binding, tools }) : tool))
      : tools;
    return this.policy.checkpointer ? this.policy.checkpointer.guardTools(bound) : bound;
  }

  /** The tools of `tools` this host's policy does not disable. */
  enabledTools(tools: readonly AgentTool[]): AgentTool[] {
    return tools.filter((tool) => isToolEnabled(this.policy.toolPolicies, tool));
  }
}

/** Claude Code ends a turn after 8 consecutive Stop-hook blocks; so does a host (unless the spec says otherwise). */
const STOP_HOOK_BLOCK_CAP = 8;

/**
 * The spec's own completion guard (either spelling) followed by the engine's Stop hooks: the spec's reminder wins,
 * else a Stop hook may block the end of the run.
 */
function stopHookGuard(
  hooks: (ctx: CompletionGuardContext) => Promise<string | undefined>,
  config: Omit<AgentSpec, "firstHooks" | "lastHooks" | "safetyListeners">,
): Pick<AgentRuntimeConfig, "completionGuard" | "completionPolicy" | "maxCompletionReminders"> {
  const policy = config.completionPolicy;
  const own = config.completionGuard ?? (policy?.completionGuard ? policy.completionGuard.bind(policy) : undefined);
  const completionPolicy = policy ? { ...policy, completionGuard: undefined } : undefined;
  return {
    completionGuard: async (ctx) => (own ? await own(ctx) : undefined) || (await hooks(ctx)),
    ...(completionPolicy && { completionPolicy }),
    maxCompletionReminders: config.maxCompletionReminders ?? STOP_HOOK_BLOCK_CAP,
  };
}

/** The hook engine's tool events only, for a sub-agent. */
function toolHooksOf(engine: HookEngine): AgentHooks {
  const { beforeTool, afterTool } = engine.agentHooks;
  return { ...(beforeTool && { beforeTool }), ...(afterTool && { afterTool }) };
}

/** True for an object that looks like a `HookEngine` rather than its options. */
export function isHookEngine(value: HookEngine | HookEngineOptions): value is HookEngine {
  return typeof (value as HookEngine).run === "function" && "agentHooks" in value;
}

/** The root of a tree of hosts. */
export function createAgentHost(options: AgentHostOptions = {}): AgentHost {
  const { commandHooks, requestToolApproval, ...policy } = options;
  const engine = commandHooks
    ? isHookEngine(commandHooks)
      ? commandHooks
      : createHookEngine(commandHooks)
    : undefined;
  // The hooks of a permission prompt wrap the root's approver, so every child's request (which ends there) runs them.
  const approver =
    requestToolApproval && engine ? withPermissionHooks(requestToolApproval, engine) : requestToolApproval;
  return new AgentHost({
    ...policy,
    ...(approver && { requestToolApproval: approver }),
    ...(engine && { commandHooks: engine }),
  });
}
