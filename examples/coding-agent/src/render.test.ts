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

describe("command output", () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

  it("shows a command's output under its line, collapsed to its first and last lines; /expand shows it whole", () => {
    const { r, out } = renderer();
    r.toolFinished(bash("npm test"), result(`Exit code 1\n${lines(20)}\n`), 5);
    expect(out()).toBe(
      [
        "✗ bash npm test — exit 1",
        "    line 1",
        "    line 2",
        "    … 12 more lines",
        ...[15, 16, 17, 18, 19, 20].map((n) => `    line ${n}`),
        "",
      ].join("\n"),
    );
    const before = out().length;
    r.expandLast();
    expect(out().slice(before)).toBe(`bash npm test — 20 lines:\n${lines(20).replace(/^/gm, "    ")}\n`);
  });

  it("shows short output whole, no output not at all, and cuts a long line", () => {
    const { r, out } = renderer();
    r.toolFinished(bash("echo hi"), result("Exit code 0\nhi\n"), 5);
    r.toolFinished(bash("true"), result("Exit code 0\n(no output)"), 5);
    r.toolFinished(bash("cat min.js"), result(`Exit code 0\n${"x".repeat(500)}`), 5);
    expect(out()).toBe(
      `✓ bash echo hi — exit 0\n    hi\n✓ bash true — exit 0\n✓ bash cat min.js — exit 0\n    ${"x".repeat(199)}…\n`,
    );
  });
});
