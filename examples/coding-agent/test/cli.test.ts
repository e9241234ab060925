import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCliArgs, UsageError } from "../src/args.js";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [cli, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NO_COLOR: "1", ...env },
    timeout: 60_000,
  });

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
});

describe("heddle-code command line", () => {
  it("the offline demo fixes the sample project for real and checks it", () => {
    const { status, stdout } = run(["--demo"]);
    expect(stdout).toContain("DEMO — a scripted demo model, not a real one");
    expect(stdout).toMatch(/✓ bash node --test test\/ — exit 1/);
    expect(stdout).toMatch(/✓ edit_file src\/cart.js/);
    // The lead delegates the check to a sub-agent (the demo runs the full preset): its tool line is indented.
    expect(stdout).toMatch(/⤷ sub-agent: run the tests\n\s+✓ bash node --test test\/ — exit 0/);
    expect(stdout).toMatch(/✓ spawn_agent run the tests — All tests pass/);
    expect(stdout).toContain("Checked independently: `node --test test/` passes in the demo workspace.");
    expect(status).toBe(0);
  });

  it("--json prints one event per line, ending with the run's result", () => {
    const { status, stdout } = run(["--demo", "--json"]);
    const events = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.every((e) => typeof e.type === "string" && typeof e.sessionId === "string")).toBe(true);
    const finished = events.filter((e) => e.type === "run-finished");
    expect(finished).toHaveLength(1);
    expect(finished[0].result).toMatchObject({ status: "completed", reason: "completion_tool" });
    expect(events.filter((e) => e.type === "tool-finished").map((e) => e.toolCall.toolName)).toEqual([
      "bash",
      "read_file",
      "edit_file",
      "spawn_agent",
      "submit_result",
    ]);
    // The sub-agent's own events come as updates of the lead's spawn_agent call.
    const subagent = events.filter((e) => e.type === "tool-updated" && e.update?.type === "subagent-event");
    expect(subagent.map((e) => e.update.event.type)).toContain("tool-finished");
    expect(new Set(subagent.map((e) => e.update.parentToolCallId)).size).toBe(1);
    expect(status).toBe(0);
  });

  it("without a key it says which keys and providers exist, and exits 2", () => {
    const { status, stderr } = run(["-p", "hello"]);
    expect(stderr).toContain("No model key found. Set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY");
    expect(stderr).toMatch(/ollama\s+Ollama/);
    expect(stderr).toContain("heddle-code --demo");
    expect(status).toBe(2);
  });

  it("an unknown provider is named, with the ones that exist", () => {
    const { status, stderr } = run(["-p", "hello", "--provider", "nope"]);
    expect(stderr).toMatch(/nope/);
    expect(stderr).toMatch(/anthropic/);
    expect(status).not.toBe(0);
  });
});

describe("argument parsing", () => {
  it("reads the flags", () => {
    expect(
      parseCliArgs(["-p", "task", "--preset", "full", "--max-budget-usd", "0.5", "--provider", "openai"], "/w"),
    ).toMatchObject({
      print: "task",
      preset: "full",
      maxBudgetUsd: 0.5,
      provider: "openai",
      cwd: "/w",
    });
    expect(parseCliArgs(["--demo"], "/w").preset).toBe("full");
    expect(parseCliArgs([], "/w").preset).toBe("edit");
  });

  it("names the bad flag and what it accepts", () => {
    expect(() => parseCliArgs(["--preset", "yolo"])).toThrow(
      /--preset must be one of read-only, edit, full \(got "yolo"\)/,
    );
    expect(() => parseCliArgs(["--max-budget-usd", "-1"])).toThrow(UsageError);
    expect(() => parseCliArgs(["--bogus"])).toThrow(/bogus/);
    expect(() => parseCliArgs(["--json"])).toThrow(/--json works with -p/);
  });
});
