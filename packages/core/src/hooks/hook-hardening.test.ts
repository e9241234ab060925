import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../tools/test-utils.js";
import { createHookEngine } from "./hook-engine.js";
import { hookEnvironment, isSecretEnvName } from "./hook-env.js";
import type { HookSettings } from "./settings.js";

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir("heddle-hooks-hard-"));
});
afterEach(() => cleanup());

async function script(name: string, body: string): Promise<string> {
  const file = path.join(root, "hooks", name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return `"$HEDDLE_PROJECT_DIR"/hooks/${name}`;
}

const preToolUse = (command: string, timeout?: number): HookSettings => ({
  hooks: { PreToolUse: [{ hooks: [{ type: "command", command, ...(timeout !== undefined && { timeout }) }] }] },
});

async function beforeTool(engine: ReturnType<typeof createHookEngine>) {
  const hook = engine.agentHooks.beforeTool as (ctx: unknown) => Promise<unknown>;
  return hook({
    agentId: "a",
    runId: "r",
    iteration: 1,
    signal: new AbortController().signal,
    toolCall: { type: "tool-call", toolCallId: "call_1", toolName: "bash", input: {} },
    tool: {},
    input: {},
  });
}

describe("a PreToolUse hook that cannot decide fails closed", () => {
  for (const [what, body, timeout] of [
    ["crashes", "echo boom >&2; exit 1", undefined],
    ["prints garbage", "echo '{not json'", undefined],
    ["times out", "sleep 5", 0.3],
  ] as const) {
    it(`denies the call when the hook ${what}`, async () => {
      const errors: string[] = [];
      const engine = createHookEngine({
        workspaceRoot: root,
        settings: preToolUse(await script("h.sh", body), timeout),
        onError: (error) => errors.push(error.message),
      });
      const result = (await beforeTool(engine)) as { skip?: boolean; reason?: string };
      expect(result?.skip).toBe(true);
      expect(result.reason).toMatch(/PreToolUse hook .* could not decide/);
      expect(errors).toHaveLength(1);
    }, 10_000);
  }

  it("a deny hook with timeout Infinity-like seconds still denies (no 1 ms timer)", async () => {
    const deny = await script("deny.sh", "sleep 0.2; echo no >&2; exit 2");
    const engine = createHookEngine({ workspaceRoot: root, settings: preToolUse(deny, 1e10) });
    expect(await beforeTool(engine)).toMatchObject({ skip: true, reason: "no" });
  });

  it("refuseCommand: a hook the host no longer trusts is not run, and its PreToolUse call is denied", async () => {
    const ran = await script("ran.sh", 'touch "$HEDDLE_PROJECT_DIR/ran"');
    const asked: string[] = [];
    const engine = createHookEngine({
      workspaceRoot: root,
      settings: preToolUse(ran),
      onError: () => {},
      refuseCommand: (event, hook) => {
        asked.push(`${event} ${hook.command}`);
        return "its script changed since it was trusted";
      },
    });
    const result = (await beforeTool(engine)) as { skip?: boolean; reason?: string };
    expect(asked).toEqual([`PreToolUse ${ran}`]);
    expect(result).toMatchObject({ skip: true });
    expect(result.reason).toMatch(/was not run: its script changed since it was trusted/);
    await expect(readFile(path.join(root, "ran"))).rejects.toThrow(/ENOENT/);
  });

  it("a PostToolUse hook that crashes is reported and ignored (fails open)", async () => {
    const crash = await script("crash.sh", "exit 1");
    const errors: string[] = [];
    const engine = createHookEngine({
      workspaceRoot: root,
      settings: { hooks: { PostToolUse: [{ hooks: [{ type: "command", command: crash }] }] } },
      onError: (error) => errors.push(error.message),
    });
    const outcome = await engine.run("PostToolUse", { tool_name: "x" });
    expect(outcome.decision).toBeUndefined();
    expect(errors).toHaveLength(1);
  });
});

describe("command hooks in the sandbox", () => {
  it("a sandboxed hook cannot write outside the workspace", async () => {
    const outside = await makeTempDir("heddle-hooks-outside-");
    try {
      const hook = await script("w.sh", `echo x > ${outside.dir}/f; echo rc=$? > "$HEDDLE_PROJECT_DIR/rc.txt"`);
      const engine = createHookEngine({
        workspaceRoot: root,
        sandbox: { network: "none" },
        settings: { hooks: { SessionStart: [{ hooks: [{ type: "command", command: hook }] }] } },
      });
      await engine.sessionStart({ source: "startup" });
      expect(await readFile(path.join(root, "rc.txt"), "utf8")).toMatch(/rc=[1-9]/);
      await expect(readFile(path.join(outside.dir, "f"), "utf8")).rejects.toThrow(/ENOENT/);
    } finally {
      await outside.cleanup();
    }
  }, 20_000);
});

describe("command hooks do not get provider keys", () => {
  it("drops *_API_KEY, *_TOKEN, secrets and passwords unless passEnv names them", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      ANTHROPIC_API_KEY: "sk-ant-secret",
      GITHUB_TOKEN: "ghp-secret",
      MY_PASSWORD: "pw",
      MY_VAR: "kept-by-name",
      HEDDLE_TEST_PLAIN: "plain",
    });
    try {
      const dump = await script("dump.sh", 'env > "$HEDDLE_PROJECT_DIR/env.txt"');
      const engine = createHookEngine({
        workspaceRoot: root,
        settings: {
          passEnv: ["GITHUB_TOKEN"],
          hooks: { SessionStart: [{ hooks: [{ type: "command", command: dump }] }] },
        } as HookSettings,
      });
      await engine.sessionStart({ source: "startup" });
      const env = await readFile(path.join(root, "env.txt"), "utf8");
      expect(env).not.toContain("sk-ant-secret");
      expect(env).not.toContain("MY_PASSWORD");
      expect(env).toContain("GITHUB_TOKEN=ghp-secret");
      expect(env).toContain("HEDDLE_TEST_PLAIN=plain");
      expect(env).toContain(`HEDDLE_PROJECT_DIR=${root}`);
    } finally {
      process.env = saved;
    }
  });

  it("names the rule", () => {
    for (const name of ["OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "NPM_TOKEN", "DB_PASSWORD"])
      expect(isSecretEnvName(name), name).toBe(true);
    for (const name of ["PATH", "HOME", "KEYBOARD_LAYOUT", "TERM", "PWD"])
      expect(isSecretEnvName(name), name).toBe(false);
    expect(hookEnvironment({ A_TOKEN: "x", B: "y" }, [])).toEqual({ B: "y" });
  });
});
