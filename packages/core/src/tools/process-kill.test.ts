import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runShellCommand } from "../process/index.js";
import { createDefaultTools } from "./default-tools.js";
import { findTool, makeTempDir, processGone, runTool } from "./test-utils.js";

// These read /proc directly (processGone), so they need no pgrep.
let root: string;
let cleanup: () => Promise<void>;
const started: number[] = [];

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir("heddle-kill-"));
});
afterEach(async () => {
  // Whatever the outcome, leave no process behind.
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  await cleanup();
});

async function readPid(file: string): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const text = await readFile(path.join(root, file), "utf8").catch(() => "");
    if (text.trim()) {
      const pid = Number(text.trim());
      started.push(pid);
      return pid;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no pid in ${file}`);
}

// A child in its own session (setsid -f: its parent exits, so it is no longer a descendant of the shell), a
// child in its own session that stays a child (setsid), and one that ignores SIGTERM.
const ESCAPERS = [
  "setsid -f sh -c 'echo $$ > fork.pid; exec sleep 300'",
  "setsid sh -c 'echo $$ > own.pid; exec sleep 300' &",
  "(trap '' TERM; echo $BASHPID > trap.pid; exec sleep 300) &",
  "wait; sleep 300",
].join("\n");

const ESCAPER_FILES = ["fork.pid", "own.pid", "trap.pid"];

describe("a timeout or an abort kills every process the command started", () => {
  it("bash timeout: setsid, setsid -f and TERM-ignoring children are gone when the tool returns", async () => {
    const bash = findTool(
      createDefaultTools({ workspaceRoot: root, preset: "full", bash: { timeoutMs: 1500 } }),
      "bash",
    );
    const call = runTool(bash, { command: ESCAPERS });
    const pids = await Promise.all(ESCAPER_FILES.map(readPid));
    await expect(call).rejects.toMatchObject({ code: "timeout" });
    for (const pid of pids) expect(processGone(pid), `pid ${pid}`).toBe(true);
  }, 15_000);

  it("abort: the same children are gone when runShellCommand resolves", async () => {
    const controller = new AbortController();
    const run = runShellCommand({
      command: ESCAPERS,
      cwd: root,
      env: { PATH: process.env.PATH },
      timeoutMs: 60_000,
      signal: controller.signal,
      maxOutputBytes: 10_000,
      killGraceMs: 200,
    });
    const pids = await Promise.all(ESCAPER_FILES.map(readPid));
    controller.abort();
    const result = await run;
    expect(result.aborted).toBe(true);
    for (const pid of pids) expect(processGone(pid), `pid ${pid}`).toBe(true);
  }, 15_000);

  it("a timeout of Infinity or past 2^31-1 ms is clamped, not turned into 1 ms", async () => {
    for (const timeoutMs of [Number.POSITIVE_INFINITY, 2 ** 31, 1e12]) {
      const result = await runShellCommand({
        command: "sleep 0.3; echo done",
        cwd: root,
        env: { PATH: process.env.PATH },
        timeoutMs,
        maxOutputBytes: 1000,
      });
      expect(result.timedOut, String(timeoutMs)).toBe(false);
      expect(result.stdout).toBe("done\n");
    }
    const bash = findTool(
      createDefaultTools({ workspaceRoot: root, preset: "full", bash: { timeoutMs: Number.POSITIVE_INFINITY } }),
      "bash",
    );
    expect(await runTool(bash, { command: "sleep 0.3; echo done" })).toBe("Exit code 0\ndone\n");
  }, 15_000);
});
