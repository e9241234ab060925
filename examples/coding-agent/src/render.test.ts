import type { AgentRunResult, ToolCallPart, ToolResultPart } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { TerminalRenderer } from "./render.js";

function renderer() {
  let out = "";
  const r = new TerminalRenderer({ write: (s) => (out += s), color: false, tty: false });
  return { r, out: () => out };
}
const bash = (command: string): ToolCallPart => ({
  type: "tool-call",
  toolCallId: "c1",
  toolName: "bash",
  input: { command },
});
const result = (text: string, isError = false): ToolResultPart =>
  ({ type: "tool-result", toolCallId: "c1", toolName: "bash", output: text, isError }) as ToolResultPart;

describe("tool lines", () => {
  it("a command that exits non-zero is a failure (✗), with its exit code", () => {
    const { r, out } = renderer();
    r.toolFinished(bash("exit 1"), result("Exit code 1\n(no output)"), 5);
    expect(out()).toBe("✗ bash exit 1 — exit 1\n");
  });

  it("a command that exits 0 is a success (✓)", () => {
    const { r, out } = renderer();
    r.toolFinished(bash("true"), result("Exit code 0\n(no output)"), 5);
    expect(out()).toBe("✓ bash true — exit 0\n");
  });

  it("a command killed by a signal is a failure", () => {
    const { r, out } = renderer();
    r.toolFinished(bash("kill -9 $$"), result("Killed by signal SIGKILL\n(no output)"), 5);
    expect(out()).toBe("✗ bash kill -9 $$ — killed by signal sigkill\n");
  });
});

describe("turn summary", () => {
  const usage = { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 };
  it("prints the reason once when it only repeats the status", () => {
    const { r, out } = renderer();
    r.turnSummary({ status: "aborted", reason: "aborted", usage } as unknown as AgentRunResult);
    expect(out()).toContain("· aborted\n");
    expect(out()).not.toContain("aborted (aborted)");
  });
  it("keeps a reason that adds something", () => {
    const { r, out } = renderer();
    r.turnSummary({ status: "failed", reason: "max_iterations", usage } as unknown as AgentRunResult);
    expect(out()).toContain("· failed (max_iterations)");
  });
});
