/** Tools: part of Heddle's public contract (see `index.ts`). */

import type { AgentIdentity } from "./identity.js";
import type { JsonSchema } from "./json.js";
import type { AgentUsage } from "./messages.js";
import type { AgentSnapshot } from "./snapshot.js";

/** What a tool's `execute` receives besides its input. */
export interface ToolContext extends Pick<AgentIdentity, "agentId" | "sessionId" | "parentAgentId"> {
  toolCallId: string;
  /** Aborted when the run is aborted or the tool's timeout passes. */
  signal: AbortSignal;
  metadata: { [key: string]: unknown };
  /** Report progress; becomes a `tool-updated` event. */
  emitUpdate(update: unknown): void;
  /** The run this call belongs to. */
  runId: string;
  /**
   * Adds usage spent by the tool itself (a tool that calls a model, like a sub-agent) to the run's usage and cost;
   * the run's `maxBudgetUsd` counts it. Give `costUsd` already priced.
   */
  reportUsage(usage: Partial<AgentUsage>): void;
  /** What is left of the run's `maxBudgetUsd` now (tool-reported usage counted); `undefined` without a budget. */
  remainingBudgetUsd?(): number | undefined;
  /**
   * The agent's state when it is read (`agent.snapshot()`): taken on first access only, so a tool that never reads
   * it costs nothing.
   */
  readonly snapshot?: AgentSnapshot;
  /**
   * The run's tool rules (one object per run): a tool that starts another agent (a sub-agent) holds that agent to
   * them, so a child can never run what its parent may not.
   */
  permissions?: ToolPermissions;
}

/** The tool rules of one run, as its tools see them. */
export interface ToolPermissions {
  toolPolicies?: { [toolName: string]: ToolPolicy };
  requestToolApproval?(request: ToolApprovalRequest): ToolApprovalDecision | Promise<ToolApprovalDecision>;
}

/** The outcome of validating a tool's input before `execute`. */
export type ToolInputValidation<I> = { ok: true; value: I } | { ok: false; error: string };

/** A tool the model can call. */
export interface AgentTool<I = any, O = unknown> {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  execute(input: I, ctx: ToolContext): O | Promise<O>;
  /** Checks input before `execute`; `createTool` fills it from the zod schema. Without it, JSON Schema is used. */
  validate?(input: unknown): ToolInputValidation<I>;
  /** The loop cuts the call after this long and reports a timeout to the model. */
  timeoutMs?: number;
  /** Extra attempts after a thrown error (not after a validation error). */
  maxRetries?: number;
  /** `false`: never run again after a failure, whatever `maxRetries` says (a call with side effects). */
  retryable?: boolean;
  lifecycle?: { completesRun?: boolean };
  /** Does not change anything outside the run; safe to run in parallel and to auto-approve. */
  readOnly?: boolean;
}

/** Whether a tool may run, and whether it runs without asking. Keyed by tool name or `"*"`. */
export interface ToolPolicy {
  enabled?: boolean;
  autoApprove?: boolean;
}

/**
 * What `requestToolApproval` is asked. `agentId`, `parentAgentId` and `agentRole` name the agent that wants to run
 * the call: a sub-agent or teammate asks its parent's approver under its own id.
 */
export interface ToolApprovalRequest extends Partial<Pick<AgentIdentity, "agentId" | "parentAgentId" | "agentRole">> {
  toolCall: { toolCallId: string; toolName: string; input: unknown };
  tool: AgentTool;
  input: unknown;
  /** Why approval is asked when a hook asked for it (a `beforeTool` hook's `{ask: true, reason}`). */
  reason?: string;
}

/** The host's answer to an approval request. `updatedInput` replaces the input when approved. */
export interface ToolApprovalDecision {
  approved: boolean;
  reason?: string;
  updatedInput?: unknown;
}

/** A tool call that was not allowed to run. */
export interface PermissionDenial {
  toolCallId: string;
  toolName: string;
  input: unknown;
  reason?: string;
}
