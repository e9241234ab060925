import type { AgentTool, ToolCallPart, ToolPolicy, ToolResultPart } from "@heddle/shared";
import { toolOutputText } from "@heddle/shared";
import { asksToStop, callHooks, stopRequestFrom } from "./hooks.js";
import type { RunExecution } from "./run.js";
import type { AssembledToolCall } from "./stream-assembler.js";
import { executeTool, runBounded } from "./tool-execution.js";
import { invalidJsonMessage, validateToolInput } from "./tool-input.js";
import { notRunResult } from "./transcript.js";

/** A call after preparation: either ready to run with its final input, or already answered with an error. */
interface PreparedCall {
  call: ToolCallPart;
  tool?: AgentTool;
  input: unknown;
  result?: ToolResultPart;
  /** The call never reached a tool or a hook decision (stop/abort), so `afterTool` hooks are not asked. */
  silent?: boolean;
  startedAt: number;
}

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
 * Prepares, runs and reports the calls of one assistant turn. Preparation (parse, validation, `beforeTool`,
 * policy, approval) is always sequential so approval prompts come one at a time; execution is sequential or
 * bounded-parallel, and results are returned in call order either way.
 */
export async function runToolCalls(run: RunExecution, calls: AssembledToolCall[]): Promise<ToolCallsOutcome> {
  const results: ToolResultPart[] = new Array(calls.length);
  let completion: string | undefined;
  const finish = async (prepared: PreparedCall, index: number) => {
    const result = await execute(run, prepared);
    results[index] = result;
    if (prepared.tool?.lifecycle?.completesRun && !result.isError && completion === undefined) {
      completion = toolOutputText(result.output);
    }
  };
  if (run.deps.config.toolExecution === "parallel") {
    const prepared: PreparedCall[] = [];
    for (const call of calls) prepared.push(await prepare(run, call));
    await runBounded(prepared.length, run.deps.maxParallelTools, (index) => finish(prepared[index]!, index));
  } else {
    for (let index = 0; index < calls.length; index++) await finish(await prepare(run, calls[index]!), index);
  }
  return { results, ...(completion !== undefined && { completion }) };
}

async function prepare(run: RunExecution, { part: call, parse }: AssembledToolCall): Promise<PreparedCall> {
  const { config, tools, hooks } = run.deps;
  const startedAt = Date.now();
  run.toolCallCount++;
  run.emit({ type: "tool-started", toolCall: call });
  const answered = (result: ToolResultPart, tool?: AgentTool, silent = false): PreparedCall => ({
    call,
    input: call.input,
    result,
    startedAt,
    silent,
    ...(tool && { tool }),
  });
  if (run.signal.aborted) return answered(notRunResult(call, "the run was aborted."), undefined, true);
  if (run.stop)
    return answered(
      notRunResult(call, `the run was stopped (${run.stop.detail ?? run.stop.reason}).`),
      undefined,
      true,
    );

  const tool = tools.get(call.toolName);
  if (!tool || run.deps.disabledTools.has(call.toolName)) {
    if (tool) {
      run.permissionDenials.push({
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: call.input,
        reason: "disabled by policy",
      });
      return answered(errorResult(call, `Tool "${call.toolName}" is disabled by policy and cannot be called.`), tool);
    }
    const available = run.deps.toolDefinitions.map((t) => t.name).join(", ") || "(none)";
    return answered(
      errorResult(
        call,
        `Unknown tool "${call.toolName}". Available tools: ${available}. Call one of these by its exact name.`,
      ),
    );
  }
  if (!parse.ok) return answered(errorResult(call, invalidJsonMessage(call.toolName, parse)), tool);
  const first = validateToolInput(tool, parse.value);
  if (!first.ok) return answered(errorResult(call, first.error), tool);
  let input = first.value;
  let rewritten = false;

  for (const hook of hooks.beforeTool) {
    const [value] = await callHooks<any>("beforeTool", [hook], { ...run.hookBase(), toolCall: call, tool, input });
    if (!value) continue;
    run.context.add(value.appendContext);
    if (asksToStop(value)) {
      run.requestStop(stopRequestFrom(value, "beforeTool"));
      return answered(notRunResult(call, `a hook stopped the run (${value.reason ?? "no reason given"}).`), tool);
    }
    if (value.skip === true) {
      return answered(errorResult(call, value.reason ?? `A hook skipped this call to "${call.toolName}".`), tool);
    }
    if (value.input !== undefined) {
      input = value.input;
      rewritten = true;
    }
  }
  if (rewritten) {
    const again = validateToolInput(tool, input);
    if (!again.ok) return answered(errorResult(call, `${again.error}\n(The input was rewritten by a hook.)`), tool);
    input = again.value;
  }

  const policy = policyFor(config.toolPolicies, call.toolName);
  const autoApprove = policy.autoApprove ?? tool.readOnly === true;
  // A policy that explicitly asks for approval never runs silently: with no one to ask, the call is denied.
  if (!config.requestToolApproval && policy.autoApprove === false) {
    const reason = "this tool needs approval and no approver is configured";
    run.permissionDenials.push({ toolCallId: call.toolCallId, toolName: call.toolName, input, reason });
    return answered(
      errorResult(call, `Permission to run "${call.toolName}" was not granted: ${reason}. Choose another approach.`),
      tool,
    );
  }
  if (config.requestToolApproval && !autoApprove) {
    let decision: { approved: boolean; reason?: string; updatedInput?: unknown };
    try {
      decision = await config.requestToolApproval({
        toolCall: { toolCallId: call.toolCallId, toolName: call.toolName, input },
        tool,
        input,
      });
    } catch (error) {
      decision = {
        approved: false,
        reason: `the approval request failed: ${(error as Error)?.message ?? String(error)}`,
      };
    }
    if (run.signal.aborted) return answered(notRunResult(call, "the run was aborted."), tool, true);
    if (!decision?.approved) {
      const reason = decision?.reason;
      run.permissionDenials.push({
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input,
        ...(reason !== undefined && { reason }),
      });
      const because = reason ? `: ${reason}` : ".";
      return answered(
        errorResult(
          call,
          `The user denied permission to run "${call.toolName}"${because} Do not repeat this call; choose another approach or ask the user.`,
        ),
        tool,
      );
    }
    if (decision.updatedInput !== undefined) {
      const updated = validateToolInput(tool, decision.updatedInput);
      if (!updated.ok)
        return answered(errorResult(call, `${updated.error}\n(The input was changed at approval.)`), tool);
      input = updated.value;
    }
  }
  // The tool's duration counts from here: the wait for hooks and for a person's approval is not the tool's.
  return { call, tool, input, startedAt: Date.now() };
}

async function execute(run: RunExecution, prepared: PreparedCall): Promise<ToolResultPart> {
  const { call, tool } = prepared;
  let result = prepared.result;
  if (!result && tool) {
    const outcome = await executeTool(tool, prepared.input, {
      toolCallId: call.toolCallId,
      metadata: run.deps.config.metadata ?? {},
      fanout: run.fanout,
      emitUpdate: (update) => run.emit({ type: "tool-updated", toolCall: call, update }),
      run: run.toolRunContext,
    });
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
      const [value] = await callHooks<any>("afterTool", [hook], {
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
  run.emit({ type: "tool-finished", toolCall: call, result: result!, durationMs: Date.now() - prepared.startedAt });
  return result!;
}
