import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_BASH_ENV } from "./bash.js";
import { createDefaultTools } from "./default-tools.js";
import { findTool, makeTempDir, processGone, runTool, toolContext, waitProcessGone } from "./test-utils.js";

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

function bashTool(bash: Parameters<typeof createDefaultTools>[0]["bash"] = {}) {
  return findTool(createDefaultTools({ workspaceRoot: root, preset: "full", bash }), "bash");
}

/** Starts a background `sleep` whose pid the command writes to a file, then waits forever. */
const SPAWNS_SLEEP = "sleep 300 & echo $! > sleep.pid; wait";

async function readPid(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const text = await readFile(path.join(root, "sleep.pid"), "utf8").catch(() => "");
    if (text.trim()) return Number(text.trim());
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("no pid file");
}

describe("bash", () => {
  it("runs in the workspace and streams output through emitUpdate", async () => {
    const ctx = toolContext();
    const out = await runTool(bashTool(), { command: "pwd; echo out; echo err >&2" }, ctx);
    expect(out).toMatch(/^Exit code 0\n/);
    expect(out).toContain(await import("node:fs").then((fs) => fs.realpathSync(root)));
    expect(out).toContain("err");
    expect(ctx.updates).toContainEqual({ stream: "stderr", text: "err\n" });
  });

  it("reports a non-zero exit as a normal result stating the code", async () => {
    expect(await runTool(bashTool(), { command: "echo failing; exit 3" })).toBe("Exit code 3\nfailing\n");
  });

  it("passes only allowlisted environment variables, plus those set in options", async () => {
    process.env.HEDDLE_TEST_SECRET = "s3cret";
    try {
      const out = await runTool(bashTool({ env: { GREETING: "hi" } }), {
        command: 'echo "[$HEDDLE_TEST_SECRET][$GREETING]"; test -n "$PATH" && echo has-path',
      });
      expect(out).toContain("[][hi]");
      expect(out).toContain("has-path");
    } finally {
      delete process.env.HEDDLE_TEST_SECRET;
    }
  });

  it("defaults: bash, stdin at /dev/null, a fresh shell per call, 30 000 bytes of output, 120 s up to 600 s", async () => {
    const bash = bashTool();
    expect(await runTool(bash, { command: 'test -n "$BASH_VERSION" && echo is-bash', timeout_ms: 5000 })).toBe(
      "Exit code 0\nis-bash\n",
    );
    expect(await runTool(bash, { command: "cat; echo read-nothing", timeout_ms: 5000 })).toBe(
      "Exit code 0\nread-nothing\n",
    );
    await runTool(bash, { command: "cd /; export CARRIED=yes" });
    const fresh = await runTool(bash, { command: 'pwd; echo "[$CARRIED]"' });
    expect(fresh).toContain(await import("node:fs").then((fs) => fs.realpathSync(root)));
    expect(fresh).toContain("[]");
    const long = await runTool(bash, { command: "head -c 100000 /dev/zero | tr '\\0' x" });
    expect(long).toMatch(/\[… \d+ bytes of output omitted …\]/);
    expect(long.length).toBeGreaterThan(29_000);
    expect(long.length).toBeLessThan(30_200);
    expect(bash.description).toContain("Default timeout 120000 ms, at most 600000 ms.");
    expect(DEFAULT_BASH_ENV).toEqual([
      "PATH",
      "HOME",
      "USER",
      "LOGNAME",
      "SHELL",
      "LANG",
      "LC_ALL",
      "LC_CTYPE",
      "TERM",
      "TMPDIR",
      "TZ",
    ]);
  });

  it("keeps the head and tail of long output", async () => {
    const out = await runTool(bashTool({ maxOutputBytes: 100 }), {
      command: "echo START; for i in $(seq 1 500); do echo line$i; done; echo END",
    });
    expect(out).toContain("START");
    expect(out).toContain("END");
    expect(out).toMatch(/\[… \d+ bytes of output omitted …\]/);
    expect(out.length).toBeLessThan(250);
  });

  it("on timeout kills the whole process group: a child sleep does not survive", async () => {
    const error = await runTool(bashTool(), { command: SPAWNS_SLEEP, timeout_ms: 400 }).catch((e: Error) => e);
    expect(error.message).toMatch(/timed out after 400 ms/);
    expect(await waitProcessGone(await readPid())).toBe(true);
  });

  it("on abort kills the whole process group", async () => {
    const controller = new AbortController();
    const running = runTool(bashTool(), { command: SPAWNS_SLEEP }, toolContext({ signal: controller.signal }));
    const pid = await readPid();
    expect(processGone(pid)).toBe(false);
    controller.abort();
    await expect(running).rejects.toThrow(/aborted/);
    expect(await waitProcessGone(pid)).toBe(true);
  });
});
