// Helpers for this folder's tests: a temp workspace and a way to call a tool the way the loop does.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AgentTool, ToolContext } from "@heddle/shared";

export async function makeTempDir(prefix = "heddle-tools-"): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function toolContext(overrides: Partial<ToolContext> = {}): ToolContext & { updates: unknown[] } {
  const updates: unknown[] = [];
  return {
    toolCallId: "call_test",
    signal: new AbortController().signal,
    metadata: {},
    emitUpdate: (update) => updates.push(update),
    runId: "run_test",
    agentId: "agent_test",
    reportUsage: () => {},
    updates,
    ...overrides,
  } as ToolContext & { updates: unknown[] };
}

/** Validates the input as the loop does (zod errors become a thrown error), then executes. */
export async function runTool(tool: AgentTool, input: unknown, ctx: ToolContext = toolContext()): Promise<any> {
  const checked = tool.validate ? tool.validate(input) : { ok: true as const, value: input };
  if (!checked.ok) throw new Error(checked.error);
  return tool.execute(checked.value, ctx);
}

export function findTool(tools: AgentTool[], name: string): AgentTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

/** True once `pid` has exited (a zombie waiting to be reaped counts as exited). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** Polls until `pid` is gone or `ms` pass. */
export async function waitProcessGone(pid: number, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (processGone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return processGone(pid);
}
