/**
 * The rule this file keeps: a child's policy is its parent's, narrowed. Whatever a child (a sub-agent, a teammate)
 * or the host that starts it asks for, the result never lets the child do something its parent may not: a disabled
 * tool stays disabled, a call the parent must be asked about still reaches the parent's approver, and limits only
 * shrink. Pure functions, no I/O.
 */
import type {
  AgentTool,
  TelemetryOption,
  ToolApprovalDecision,
  ToolApprovalRequest,
  ToolPermissions,
  ToolPolicy,
} from "@heddle/shared";
import type { FileCheckpointer } from "../checkpoints/index.js";
import type { TodoReminderOptions } from "../guidance/index.js";
import type { HookEngine } from "../hooks/index.js";
import type { SafetyOptions } from "../safety/index.js";

/** Asked about a call the tool policies do not auto-approve. */
export type ToolApprover = (request: ToolApprovalRequest) => ToolApprovalDecision | Promise<ToolApprovalDecision>;

/** Per-tool rules, by tool name or `"*"`. */
export type ToolPolicies = { [toolName: string]: ToolPolicy };

/** What guides the model besides its prompt: the task-list reminder and the skills listing. */
export interface GuidanceOptions {
  /** A reminder to update the task list after rounds without `todo_write`; `false` turns it off. */
  todoReminder?: false | TodoReminderOptions;
  /** Folders of skills whose names and descriptions are listed in the system prompt. */
  skillsDirs?: string[];
  /** What relative `skillsDirs` are resolved against (default: the process's working directory). */
  baseDir?: string;
}

/**
 * What an agent may do and what watches it. A host composes every agent's config from one; a child's comes from
 * its parent's through `narrowPolicy`.
 */
export interface AgentPolicy {
  toolPolicies?: ToolPolicies;
  requestToolApproval?: ToolApprover;
  /**
   * Command hooks, already built with the host's trust decision: absent means none run (an untrusted folder's
   * settings are never read). A child uses its parent's engine and cannot bring its own.
   */
  commandHooks?: HookEngine;
  /** Where file writes are recorded before they happen (`rewind({files: true})` puts them back). */
  checkpointer?: FileCheckpointer;
  /** Loop detection and the failure circuit breaker (on unless `false`). A child cannot turn them off. */
  safety?: false | SafetyOptions;
  guidance?: GuidanceOptions;
  telemetry?: TelemetryOption;
  /** Model calls of this agent and everything it starts. */
  maxIterations?: number;
  /** Spend of this agent and everything it starts. */
  maxBudgetUsd?: number;
}

/** What may differ for a child: each field can only make the child's policy narrower than its parent's. */
export interface PolicyNarrowing {
  toolPolicies?: ToolPolicies;
  /** Asked first; the parent's approver is still asked whenever the parent's own policy would ask. */
  requestToolApproval?: ToolApprover;
  /** Used only where the parent has turned safety off: a child cannot loosen or remove its parent's guards. */
  safety?: false | SafetyOptions;
  maxIterations?: number;
  maxBudgetUsd?: number;
}

/** The rule for one tool: its own entry over `"*"`, field by field (the loop's reading of `toolPolicies`). */
export function policyOf(policies: ToolPolicies | undefined, toolName: string): ToolPolicy {
  if (!policies) return {};
  return { ...policies["*"], ...policies[toolName] };
}

/**
 * One tool's rule for a child: disabled if either side disables it; "must ask" if either side says so. A call is
 * auto-approved only where neither side would ask anyone: each side auto-approves it, or leaves it open and has no
 * approver to ask (then that side runs such a call without asking, so an `autoApprove: true` widens nothing).
 * Otherwise the rule is left open and the chained approver (`narrowApprover`) decides.
 */
export function narrowToolPolicy(
  parent: ToolPolicy,
  child: ToolPolicy,
  asks: { parent: boolean; child: boolean },
): ToolPolicy {
  const enabled = parent.enabled === false || child.enabled === false ? false : (parent.enabled ?? child.enabled);
  let autoApprove: boolean | undefined;
  if (parent.autoApprove === false || child.autoApprove === false) autoApprove = false;
  else {
    const parentRuns = parent.autoApprove === true || !asks.parent;
    const childRuns = child.autoApprove === true || !asks.child;
    autoApprove =
      parentRuns && childRuns && (parent.autoApprove === true || child.autoApprove === true) ? true : undefined;
  }
  // Both keys are set, `undefined` included: an own `undefined` still overrides the `"*"` entry when read.
  return { enabled, autoApprove };
}

/**
 * The child's `toolPolicies`: every name either side mentions, plus `"*"`, each narrowed. `asks`: which side has
 * an approver, so that a call it does not auto-approve is asked about.
 */
export function narrowToolPolicies(
  parent: ToolPolicies | undefined,
  child: ToolPolicies | undefined,
  asks: { parent: boolean; child: boolean } = { parent: true, child: true },
): ToolPolicies {
  const names = new Set(["*", ...Object.keys(parent ?? {}), ...Object.keys(child ?? {})]);
  const narrowed: ToolPolicies = {};
  for (const name of names) narrowed[name] = narrowToolPolicy(policyOf(parent, name), policyOf(child, name), asks);
  return narrowed;
}

/**
 * The child's approver. Each side is asked where its own rule would ask (it says `autoApprove: false`, a hook asked,
 * or it has an approver and does not auto-approve the call): the child's approver first, then the parent's. A call
 * the child's rule must ask about, with no approver of its own, goes to the parent's; a side that must ask and has
 * no one to ask denies, as it would alone.
 */
export function narrowApprover(parent: ToolPermissions, child: ToolPermissions): ToolApprover | undefined {
  const parentApprover = parent.requestToolApproval;
  const own = child.requestToolApproval;
  if (!own) return parentApprover;
  return async (request) => {
    const name = request.toolCall.toolName;
    const hookAsked = request.reason !== undefined;
    const readOnly = request.tool.readOnly === true;
    const needs = (rule: ToolPolicy, approver: unknown) =>
      hookAsked || rule.autoApprove === false || (approver !== undefined && !(rule.autoApprove ?? readOnly));
    let current = request;
    let decision: ToolApprovalDecision = { approved: true };
    if (needs(policyOf(child.toolPolicies, name), own)) {
      decision = await own(current);
      if (!decision?.approved) return decision ?? { approved: false };
      if (decision.updatedInput !== undefined) current = withInput(current, decision.updatedInput);
    }
    if (needs(policyOf(parent.toolPolicies, name), parentApprover)) {
      if (!parentApprover)
        return { approved: false, reason: "this tool needs the parent's approval and the parent has no approver" };
      decision = await parentApprover(current);
      if (!decision?.approved) return decision ?? { approved: false };
      if (decision.updatedInput !== undefined) current = withInput(current, decision.updatedInput);
    }
    return current === request ? decision : { ...decision, updatedInput: current.input };
  };
}

function withInput(request: ToolApprovalRequest, input: unknown): ToolApprovalRequest {
  return { ...request, input, toolCall: { ...request.toolCall, input } };
}

/** The smaller of two optional limits. */
export function minLimit(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

/** A child's policy: the parent's, narrowed. Hooks, checkpointer, guidance and telemetry carry over as they are. */
export function narrowPolicy(parent: AgentPolicy, narrowing: PolicyNarrowing = {}): AgentPolicy {
  const requestToolApproval = narrowApprover(parent, narrowing);
  const safety = parent.safety === false ? (narrowing.safety ?? false) : parent.safety;
  const maxIterations = minLimit(parent.maxIterations, narrowing.maxIterations);
  const maxBudgetUsd = minLimit(parent.maxBudgetUsd, narrowing.maxBudgetUsd);
  return {
    ...parent,
    toolPolicies: narrowToolPolicies(parent.toolPolicies, narrowing.toolPolicies, {
      parent: parent.requestToolApproval !== undefined,
      child: narrowing.requestToolApproval !== undefined,
    }),
    requestToolApproval,
    safety,
    maxIterations,
    maxBudgetUsd,
  };
}

/** True when a policy lets a tool be offered at all. */
export function isToolEnabled(policies: ToolPolicies | undefined, tool: AgentTool): boolean {
  return policyOf(policies, tool.name).enabled !== false;
}
