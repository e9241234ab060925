import {
  type AfterToolContext,
  type AfterToolResult,
  type AgentHooks,
  type AgentIdentity,
  type BeforeToolContext,
  type BeforeToolResult,
  type CompletionGuardContext,
  getMessageText,
  type ToolResultOutput,
  toolOutputText,
} from "@heddle/shared";
import type { FireHookEvent } from "./engine-types.js";

/** Calls remembered as allowed by a compatibility-mode hook, at most (the oldest are forgotten first). */
const MAX_APPROVED_CALLS = 1024;

/** What the loop's hooks need from the engine. */
export interface LoopHookDeps {
  fire: FireHookEvent;
  sessionId: string | undefined;
  /** Only then is there a `completionGuard` (a run without Stop hooks ends as it always did). */
  hasStopHooks: boolean;
  /** Only then is there a `subagentGuard`. */
  hasSubagentStopHooks: boolean;
}

/** Who a sub-agent is, for its SubagentStop payload. */
export interface SubagentInfo extends Pick<AgentIdentity, "parentAgentId"> {
  agentType?: string;
}

/**
 * The engine's hooks for the loop: PreToolUse before each call, PostToolUse/PostToolUseFailure after it, and Stop
 * when the run would end (`completionGuard`, where a hook may block the stop) or did end (`afterRun`, once per run).
 */
export function createLoopHooks(deps: LoopHookDeps): {
  agentHooks: AgentHooks;
  completionGuard?: (ctx: CompletionGuardContext) => Promise<string | undefined>;
  subagentGuard?: (ctx: CompletionGuardContext, info: SubagentInfo) => Promise<string | undefined>;
  /** True once for a sub-agent whose SubagentStop the guard already fired (its tool's own call is then skipped). */
  subagentStopFired(agentId: unknown): boolean;
  hookApproved(toolCallId: string): boolean;
} {
  const { fire } = deps;
  const approved = new Set<string>();
  // Per run: how many times a Stop hook blocked the stop, and whether Stop already fired for its end.
  const stopBlocks = new Map<string, number>();
  const stopFired = new Set<string>();
  const subagentBlocks = new Map<string, number>();
  const subagentFired = new Set<string>();
  const session = (sessionId: string | undefined) =>
    sessionId !== undefined && deps.sessionId === undefined ? { session_id: sessionId } : {};

  const beforeTool = async (ctx: BeforeToolContext): Promise<BeforeToolResult | void> => {
    const outcome = await fire("PreToolUse", {
      ...session(ctx.sessionId),
      tool_name: ctx.toolCall.toolName,
      tool_input: ctx.input,
      tool_use_id: ctx.toolCall.toolCallId,
      signal: ctx.signal,
    });
    const result: BeforeToolResult = {};
    if (outcome.additionalContext) result.appendContext = outcome.additionalContext;
    if (outcome.stop) return { ...result, stop: true, reason: outcome.reason ?? "Stopped by a PreToolUse hook." };
    const input = outcome.updatedInput;
    if (outcome.decision === "deny") return { ...result, skip: true, reason: outcome.reason! };
    // One approval path: the loop asks the host's requestToolApproval (with this reason), whatever the policy.
    if (outcome.decision === "ask")
      Object.assign(result, { ask: true, reason: outcome.reason ?? "a PreToolUse hook asked" });
    if (outcome.bypassApproval) {
      approved.add(ctx.toolCall.toolCallId);
      if (approved.size > MAX_APPROVED_CALLS) approved.delete(approved.values().next().value!);
    }
    if (input !== undefined) result.input = input;
    return Object.keys(result).length > 0 ? result : undefined;
  };

  const afterTool = async (ctx: AfterToolContext): Promise<AfterToolResult | void> => {
    approved.delete(ctx.toolCall.toolCallId);
    const failed = ctx.result.isError === true;
    const text = toolOutputText(ctx.result.output);
    const outcome = await fire(
      failed ? "PostToolUseFailure" : "PostToolUse",
      {
        ...session(ctx.sessionId),
        tool_name: ctx.toolCall.toolName,
        tool_input: ctx.input,
        tool_use_id: ctx.toolCall.toolCallId,
        ...(failed ? { error: text } : { tool_response: text }),
        signal: ctx.signal,
      },
      ctx.result,
    );
    // After the fact a deny cannot undo the call: its reason goes to the model, as Claude Code does with "block".
    const context = [outcome.decision === "deny" ? outcome.reason : undefined, outcome.additionalContext].filter(
      Boolean,
    );
    const result: AfterToolResult = {};
    if (context.length > 0) result.appendContext = context.join("\n\n");
    if (outcome.updatedToolOutput !== undefined && ctx.toolCall.toolName.startsWith("mcp__"))
      result.result = { ...ctx.result, output: asToolOutput(outcome.updatedToolOutput) };
    if (outcome.stop) Object.assign(result, { stop: true, reason: outcome.reason ?? "Stopped by a PostToolUse hook." });
    return Object.keys(result).length > 0 ? result : undefined;
  };

  const completionGuard = async (ctx: CompletionGuardContext): Promise<string | undefined> => {
    const blocks = stopBlocks.get(ctx.runId) ?? 0;
    const text = getMessageText(ctx.lastMessage);
    const outcome = await fire("Stop", {
      reason: "end_turn",
      status: "completed",
      output_text: text,
      last_assistant_message: text,
      stop_hook_active: blocks > 0,
      signal: ctx.signal,
    });
    if (outcome.decision === "deny" && !outcome.stop) {
      stopBlocks.set(ctx.runId, blocks + 1);
      return outcome.reason ?? "A Stop hook asked you to go on before stopping.";
    }
    stopFired.add(ctx.runId);
    return undefined;
  };

  // A sub-agent's end: SubagentStop, which may block it as Stop blocks a run (Claude Code's SubagentStop).
  const subagentGuard = async (ctx: CompletionGuardContext, info: SubagentInfo): Promise<string | undefined> => {
    const blocks = subagentBlocks.get(ctx.runId) ?? 0;
    const text = getMessageText(ctx.lastMessage);
    const outcome = await fire("SubagentStop", {
      agent_id: ctx.agentId,
      ...(info.agentType !== undefined && { agent_type: info.agentType }),
      ...(info.parentAgentId !== undefined && { parent_agent_id: info.parentAgentId }),
      reason: "end_turn",
      status: "completed",
      output_text: text,
      last_assistant_message: text,
      stop_hook_active: blocks > 0,
      signal: ctx.signal,
    });
    if (outcome.decision === "deny" && !outcome.stop) {
      subagentBlocks.set(ctx.runId, blocks + 1);
      return outcome.reason ?? "A SubagentStop hook asked you to go on before stopping.";
    }
    subagentBlocks.delete(ctx.runId);
    subagentFired.add(ctx.agentId);
    return undefined;
  };

  const agentHooks: AgentHooks = {
    beforeTool,
    afterTool,
    afterRun: async (ctx) => {
      const blocks = stopBlocks.get(ctx.runId) ?? 0;
      stopBlocks.delete(ctx.runId);
      if (stopFired.delete(ctx.runId)) return;
      await fire("Stop", {
        ...session(ctx.sessionId),
        reason: ctx.result.reason,
        status: ctx.result.status,
        output_text: ctx.result.outputText,
        last_assistant_message: ctx.result.outputText,
        stop_hook_active: blocks > 0,
      });
    },
  };

  return {
    agentHooks,
    ...(deps.hasStopHooks && { completionGuard }),
    ...(deps.hasSubagentStopHooks && { subagentGuard }),
    subagentStopFired: (agentId) => typeof agentId === "string" && subagentFired.delete(agentId),
    hookApproved: (toolCallId) => approved.delete(toolCallId),
  };
}

/** What a hook gave as a tool's new output: text as is, anything else as JSON text. */
function asToolOutput(value: unknown): ToolResultOutput {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((part) => part && typeof part === "object" && part.type === "text"))
    return value.map((part) => ({ type: "text" as const, text: String(part.text) }));
  return JSON.stringify(value);
}
