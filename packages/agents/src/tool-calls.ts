import type { AgentTool, ToolApprovalDecision, ToolCallPart, ToolPolicy, ToolResultPart } from "@heddle/shared";
import { toolOutputText } from "@heddle/shared";
import { asksToStop, callHook, stopRequestFrom } from "./hooks.js";
import { noteError, type RunContext } from "./run-context.js";
import type { AssembledToolCall } from "./stream-assembler.js";
import { executeTool, runBounded } from "./tool-execution.js";
import { invalidJsonMessage, validateToolInput } from "./tool-input.js";
import { notRunResult } from "./transcript.js";

/** A call going through preparation. Each stage may answer it (with an error result) or pass it on. */
interface PendingCall {
  call: ToolCallPart;
  parse: AssembledToolCall["parse"];
  tool?: AgentTool;
  input: unknown;
  /** When set, the call is answered and does not run. */
  result?: ToolResultPart;
  /** The call never reached a tool or a hook decision (stop/abort), so `afterTool` hooks are not asked. */
  silent?: boolean;
  /** A `beforeTool` hook asked for approval: the approver decides whatever the policy says. */
  ask?: { reason: string | undefined };
  startedAt: number;
}

/** One preparation stage: it may change the call's tool or input, or answer it. */
type Stage = (run: RunContext, pending: PendingCall) => void | Promise<void>;

/** What the tool calls of one turn produced: results in call order, and a completion tool's output if one ran. */
export interface ToolCallsOutcome {
  results: ToolResultPart[];
  completion?: string;
}

function errorResult(call: ToolCallPart, text: string): ToolResultPart {
  return { type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output: text, isError: true };
}

/** The policy for a tool: its own entry over the `"*"` entry, field by field. */
export function policyFor(policies: { [name: string]: ToolPolicy } | undefined, name: string): ToolPolicy {
  if (!policies) return {};
  return { ...policies["*"], ...policies[name] };
}

/**
 * Prepares, runs and reports the calls of one assistant turn. Preparation is always sequential so approval prompts
 * come one at a time; execution is sequential or bounded-parallel, and results are returned in call order either way.
 */
export async function runToolCalls(run: RunContext, calls: AssembledToolCall[]): Promise<ToolCallsOutcome> {
  const results: ToolResultPart[] = new Array(calls.length);
  let completion: string | undefined;
  for (const { part } of calls) run.deps.live.pendingToolCalls.add(part.toolCallId);
  const finish = async (prepared: PendingCall, index: number) => {
    const result = await execute(run, prepared);
    results[index] = result;
    if (prepared.tool?.lifecycle?.completesRun && !result.isError && completion === undefined) {
      completion = toolOutputText(result.output);
    }
  };
  if (run.deps.config.toolExecution === "parallel") {
    const prepared: PendingCall[] = [];
    for (const call of calls) prepared.push(await prepare(run, call));
    await runBounded(prepared.length, run.deps.maxParallelTools, (index) => finish(prepared[index]!, index));
  } else {
    for (let index = 0; index < calls.length; index++) await finish(await prepare(run, calls[index]!), index);
  }
  return { results, ...(completion !== undefined && { completion }) };
}

/** The stages every call goes through, in order; the first that answers the call ends its preparation. */
const STAGES: Stage[] = [gate, resolveTool, parse, validate, beforeTool, policy, approval];

async function prepare(run: RunContext, { part: call, parse }: AssembledToolCall): Promise<PendingCall> {
  run.countToolCalls(1);
  run.emit({ type: "tool-started", toolCall: call });
  const pending: PendingCall = { call, parse, input: call.input, startedAt: Date.now() };
  for (const stage of STAGES) {
    // Most stages are synchronous: awaiting only a returned promise saves a microtask hop per stage and call.
    const waiting = stage(run, pending);
    if (waiting) await waiting;
    if (pending.result) return pending;
  }
  // The tool's duration counts from here: the wait for hooks and for a person's approval is not the tool's.
  pending.startedAt = Date.now();
  return pending;
}

/** An aborted or stopped run runs no more calls; they get results saying so. */
function gate(run: RunContext, pending: PendingCall): void {
  if (run.signal.aborted) {
    pending.result = notRunResult(pending.call, "the run was aborted.");
    pending.silent = true;
  } else if (run.stop) {
    pending.result = notRunResult(pending.call, `the run was stopped (${run.stop.detail ?? run.stop.reason}).`);
    pending.silent = true;
  }
}

/** An unknown tool is an error the model can fix; a disabled one is a denial. */
function resolveTool(run: RunContext, pending: PendingCall): void {
  const { call } = pending;
  const tool = run.toolset.tools.get(call.toolName);
  if (!tool) {
    const available = run.toolset.definitions.map((t) => t.name).join(", ") || "(none)";
    pending.result = errorResult(
      call,
      `Unknown tool "${call.toolName}". Available tools: ${available}. Call one of these by its exact name.`,
    );
    return;
  }
  pending.tool = tool;
  if (run.toolset.disabled.has(call.toolName)) {
    deny(run, pending, "disabled by policy");
    pending.result = errorResult(call, `Tool "${call.toolName}" is disabled by policy and cannot be called.`);
  }
}

function parse(_run: RunContext, pending: PendingCall): void {
  if (!pending.parse.ok)
    pending.result = errorResult(pending.call, invalidJsonMessage(pending.call.toolName, pending.parse));
  else pending.input = pending.parse.value;
}

function validate(_run: RunContext, pending: PendingCall, note = ""): void {
  const checked = validateToolInput(pending.tool!, pending.input);
  if (checked.ok) pending.input = checked.value;
  else pending.result = errorResult(pending.call, note ? `${checked.error}\n${note}` : checked.error);
}

/** `beforeTool` hooks, in order: each may stop, skip, rewrite the input (validated again) or add context. */
async function beforeTool(run: RunContext, pending: PendingCall): Promise<void> {
  const { call } = pending;
  let rewritten = false;
  for (const hook of run.deps.hooks.beforeTool) {
    const value = await callHook("beforeTool", hook, {
      ...run.hookBase(),
      toolCall: call,
      // resolveTool answered every call to an unknown tool before this stage.
      tool: pending.tool!,
      input: pending.input,
    });
    if (!value) continue;
    run.context.add(value.appendContext);
    if (asksToStop(value)) {
      run.requestStop(stopRequestFrom(value, "beforeTool"));
      pending.result = notRunResult(call, `a hook stopped the run (${value.reason ?? "no reason given"}).`);
      return;
    }
    if (value.skip === true) {
      pending.result = errorResult(call, value.reason ?? `A hook skipped this call to "${call.toolName}".`);
      return;
    }
    if (value.input !== undefined) {
      pending.input = value.input;
      rewritten = true;
    }
    if (value.ask === true) pending.ask = { reason: value.reason };
  }
  if (rewritten) validate(run, pending, "(The input was rewritten by a hook.)");
}

/** A policy that explicitly asks for approval never runs silently: with no one to ask, the call is denied. */
function policy(run: RunContext, pending: PendingCall): void {
  const { config } = run.deps;
  const mustAsk =
    pending.ask !== undefined || policyFor(config.toolPolicies, pending.call.toolName).autoApprove === false;
  if (config.requestToolApproval || !mustAsk) return;
  const reason = pending.ask
    ? `a hook asked for approval and no approver is configured${pending.ask.reason ? ` (${pending.ask.reason})` : ""}`
    : "this tool needs approval and no approver is configured";
  deny(run, pending, reason);
  pending.result = errorResult(
    pending.call,
    `Permission to run "${pending.call.toolName}" was not granted: ${reason}. Choose another approach.`,
  );
}

/**
 * Asks the host's approver about every call that is not auto-approved (by policy, or by being read-only). Heddle
 * asks whenever an approver exists and the tool is not read-only: safer than asking only for some tool kinds.
 */
async function approval(run: RunContext, pending: PendingCall): Promise<void> {
  const { config } = run.deps;
  const { call, tool } = pending;
  const autoApprove =
    pending.ask === undefined && (policyFor(config.toolPolicies, call.toolName).autoApprove ?? tool!.readOnly === true);
  if (!config.requestToolApproval || autoApprove) return;
  let decision: ToolApprovalDecision;
  run.deps.live.status = "awaiting_approval";
  try {
    decision = await config.requestToolApproval({
      toolCall: { toolCallId: call.toolCallId, toolName: call.toolName, input: pending.input },
      tool: tool!,
      input: pending.input,
      ...(pending.ask?.reason !== undefined && { reason: pending.ask.reason }),
      ...run.approvalIdentity,
    });
  } catch (error) {
    decision = {
      approved: false,
      reason: `the approval request failed: ${(error as Error)?.message ?? String(error)}`,
    };
  }
  run.deps.live.status = "running";
  if (run.signal.aborted) {
    pending.result = notRunResult(call, "the run was aborted.");
    pending.silent = true;
    return;
  }
  if (!decision?.approved) {
    const reason = decision?.reason;
    deny(run, pending, reason);
    const because = reason ? `: ${reason}` : ".";
    pending.result = errorResult(
      call,
      `The user denied permission to run "${call.toolName}"${because} Do not repeat this call; choose another approach or ask the user.`,
    );
    return;
  }
  if (decision.updatedInput !== undefined) {
    pending.input = decision.updatedInput;
    validate(run, pending, "(The input was changed at approval.)");
  }
}

function deny(run: RunContext, pending: PendingCall, reason: string | undefined): void {
  run.permissionDenials.push({
    toolCallId: pending.call.toolCallId,
    toolName: pending.call.toolName,
    input: pending.input,
    ...(reason !== undefined && { reason }),
  });
}

async function execute(run: RunContext, prepared: PendingCall): Promise<ToolResultPart> {
  const { call, tool } = prepared;
  const span = run.telemetry?.startTool(call, prepared.input, tool?.description);
  let errorType: string | undefined;
  let result = prepared.result;
  if (!result && tool) {
    const outcome = await executeTool(tool, prepared.input, {
      toolCallId: call.toolCallId,
      metadata: run.deps.config.metadata ?? {},
      fanout: run.fanout,
      emitUpdate: (update) => run.emit({ type: "tool-updated", toolCall: call, update }),
      run: run.toolRunContext,
      snapshot: run.deps.snapshot,
      ...(span && { span }),
    });
    if (outcome.kind !== "ok") errorType = outcome.kind;
    result = {
      type: "tool-result",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: outcome.output,
      ...(outcome.kind !== "ok" && { isError: true }),
    };
  }
  result ??= notRunResult(call, "no tool.");
  if (!prepared.silent && !run.signal.aborted) {
    for (const hook of run.deps.hooks.afterTool) {
      const value = await callHook("afterTool", hook, {
        ...run.hookBase(),
        toolCall: call,
        tool,
        input: prepared.input,
        result,
      });
      if (!value) continue;
      if (value.result) result = value.result as ToolResultPart;
      run.context.add(value.appendContext);
      if (asksToStop(value)) run.requestStop(stopRequestFrom(value, "afterTool"));
    }
  }
  span?.end(result!, errorType);
  if (result!.isError) noteError(run.deps.live, toolOutputText(result!.output), "tool_error");
  run.deps.live.pendingToolCalls.delete(call.toolCallId);
  run.emit({ type: "tool-finished", toolCall: call, result: result!, durationMs: Date.now() - prepared.startedAt });
  return result!;
}
