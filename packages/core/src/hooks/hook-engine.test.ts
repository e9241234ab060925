import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createAgent } from "@heddle/agents";
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentTool, createTool, getMessageText } from "@heddle/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { makeTempDir, waitProcessGone } from "../tools/test-utils.js";
import { createHookEngine } from "./hook-engine.js";
import type { HookSettings } from "./settings.js";

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir("heddle-hooks-"));
});
afterEach(() => cleanup());

/** Writes an executable hook script into the workspace and returns the command that runs it. */
async function script(name: string, body: string): Promise<string> {
  const file = path.join(root, "hooks", name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return `"$HEDDLE_PROJECT_DIR"/hooks/${name}`;
}

const preToolUse = (matcher: string, command: string, timeout?: number): HookSettings => ({
  hooks: { PreToolUse: [{ matcher, hooks: [{ type: "command", command, ...(timeout && { timeout }) }] }] },
});

function shellTool(ran: string[]): AgentTool {
  return createTool({
    name: "shell",
    description: "runs",
    input: z.object({ command: z.string() }),
    execute: (input) => {
      ran.push(input.command);
      return `ran ${input.command}`;
    },
  });
}

function beforeToolCtx(input: unknown, toolName = "shell") {
  return {
    agentId: "a",
    runId: "r",
    iteration: 1,
    signal: new AbortController().signal,
    toolCall: { type: "tool-call" as const, toolCallId: "call_1", toolName, input },
    tool: shellTool([]),
    input,
  };
}

async function callBeforeTool(engine: ReturnType<typeof createHookEngine>, input: unknown, toolName?: string) {
  const hook = engine.agentHooks.beforeTool as (ctx: unknown) => Promise<unknown>;
  return hook(beforeToolCtx(input, toolName));
}

describe("command hooks", () => {
  it("get the payload as JSON on stdin and may allow", async () => {
    const command = await script("log.sh", 'cat > "$HEDDLE_PROJECT_DIR/payload.json"\necho \'{"decision":"allow"}\'');
    const engine = createHookEngine({ workspaceRoot: root, sessionId: "s1", settings: preToolUse("shell", command) });
    expect(await callBeforeTool(engine, { command: "ls" })).toBeUndefined();
    const payload = JSON.parse(await readFile(path.join(root, "payload.json"), "utf8"));
    expect(payload).toMatchObject({
      session_id: "s1",
      hook_event_name: "PreToolUse",
      tool_name: "shell",
      tool_input: { command: "ls" },
      tool_use_id: "call_1",
    });
  });

  it("deny with exit 2, stderr as the reason", async () => {
    const command = await script("guard.sh", 'if grep -q "rm -rf"; then echo "rm -rf is not allowed" >&2; exit 2; fi');
    const engine = createHookEngine({ workspaceRoot: root, settings: preToolUse("shell", command) });
    expect(await callBeforeTool(engine, { command: "rm -rf /" })).toEqual({
      skip: true,
      reason: "rm -rf is not allowed",
    });
    expect(await callBeforeTool(engine, { command: "ls" })).toBeUndefined();
  });

  it("rewrite input and add context through JSON on stdout", async () => {
    const command = await script(
      "rewrite.sh",
      'cat >/dev/null\necho \'{"updatedInput":{"command":"ls -la"},"additionalContext":"Listing is cheap."}\'',
    );
    const engine = createHookEngine({ workspaceRoot: root, settings: preToolUse("shell|bash", command) });
    expect(await callBeforeTool(engine, { command: "ls" })).toEqual({
      input: { command: "ls -la" },
      appendContext: "Listing is cheap.",
    });
  });

  it("match tool names exactly, by | list, or by regex", async () => {
    const command = await script("deny.sh", "echo nope >&2; exit 2");
    const exact = createHookEngine({ workspaceRoot: root, settings: preToolUse("shell", command) });
    expect(await callBeforeTool(exact, {}, "shell_extra")).toBeUndefined();
    const regex = createHookEngine({ workspaceRoot: root, settings: preToolUse("mcp__.*__write", command) });
    expect(await callBeforeTool(regex, {}, "mcp__fs__write")).toMatchObject({ skip: true });
    expect(await callBeforeTool(regex, {}, "mcp__fs__read")).toBeUndefined();
  });

  it('match SessionStart on source and PreCompact on trigger; no matcher, "" and * match every one', async () => {
    const say = (name: string) => script(`${name}.sh`, `cat >/dev/null; echo '{"additionalContext":"${name}"}'`);
    const entry = async (name: string, matcher?: string) => ({
      ...(matcher !== undefined && { matcher }),
      hooks: [{ type: "command" as const, command: await say(name) }],
    });
    const engine = createHookEngine({
      workspaceRoot: root,
      settings: {
        hooks: {
          SessionStart: [await entry("resumed", "resume"), await entry("always"), await entry("empty", "")],
          PreCompact: [await entry("manual", "manual"), await entry("star", "*")],
        },
      },
    });
    expect((await engine.sessionStart({ source: "startup" })).additionalContext).toBe("always\n\nempty");
    expect((await engine.sessionStart({ source: "resume" })).additionalContext).toBe("resumed\n\nalways\n\nempty");
    expect((await engine.preCompact({ trigger: "auto" })).additionalContext).toBe("star");
    expect((await engine.preCompact({ trigger: "manual" })).additionalContext).toBe("manual\n\nstar");
  });

  it("run a chain in order: a rewrite is seen by the next hook, a deny ends the chain", async () => {
    const rewrite = await script("rewrite.sh", 'cat >/dev/null; echo \'{"updatedInput":{"command":"ls -la"}}\'');
    const deny = await script("deny.sh", 'cat > "$HEDDLE_PROJECT_DIR/seen.json"; echo no >&2; exit 2');
    const after = await script("after.sh", 'touch "$HEDDLE_PROJECT_DIR/after-ran"');
    const engine = createHookEngine({
      workspaceRoot: root,
      settings: {
        hooks: {
          PreToolUse: [{ hooks: [rewrite, deny, after].map((command) => ({ type: "command" as const, command })) }],
        },
      },
    });
    expect(await callBeforeTool(engine, { command: "ls" })).toMatchObject({ skip: true });
    expect(JSON.parse(await readFile(path.join(root, "seen.json"), "utf8")).tool_input).toEqual({ command: "ls -la" });
    await expect(readFile(path.join(root, "after-ran"))).rejects.toThrow();
  });

  it("read the settings file once, when the engine is created", async () => {
    const deny = await script("deny.sh", "echo no >&2; exit 2");
    await mkdir(path.join(root, ".heddle"));
    const engine = createHookEngine({ workspaceRoot: root });
    await writeFile(path.join(root, ".heddle/settings.json"), JSON.stringify(preToolUse("*", deny)));
    expect(await callBeforeTool(engine, { command: "ls" })).toBeUndefined();
    expect(await callBeforeTool(createHookEngine({ workspaceRoot: root }), { command: "ls" })).toMatchObject({
      skip: true,
    });
  });

  it("send an `ask` through the loop's one approval path: the host's requestToolApproval, with the reason", async () => {
    const command = await script("ask.sh", 'cat >/dev/null; echo \'{"decision":"ask","reason":"touches prod"}\'');
    const engine = createHookEngine({ workspaceRoot: root, settings: preToolUse("shell", command) });
    expect(await callBeforeTool(engine, {})).toEqual({ ask: true, reason: "touches prod" });

    const model = () =>
      createScriptedModel([{ toolCalls: [{ name: "shell", input: { command: "deploy" } }] }, { text: "done" }]);
    const asked: unknown[] = [];
    const ran: string[] = [];
    // The policy auto-approves shell, yet the hook's ask reaches the approver, which may change the input.
    const approved = await createAgent({
      model: model(),
      tools: [shellTool(ran)],
      hooks: engine.agentHooks,
      toolPolicies: { shell: { autoApprove: true } },
      requestToolApproval: (request) => {
        asked.push(request.reason);
        return { approved: true, updatedInput: { command: "deploy --dry-run" } };
      },
    }).run("go");
    expect(asked).toEqual(["touches prod"]);
    expect(ran).toEqual(["deploy --dry-run"]);
    expect(approved.permissionDenials).toEqual([]);

    // With no one to approve, the call is denied and listed like any other denial.
    const ranHeadless: string[] = [];
    const headless = await createAgent({
      model: model(),
      tools: [shellTool(ranHeadless)],
      hooks: engine.agentHooks,
    }).run("go");
    expect(ranHeadless).toEqual([]);
    expect(headless.permissionDenials).toEqual([
      expect.objectContaining({ toolName: "shell", reason: expect.stringContaining("touches prod") }),
    ]);
  });

  it("report other exit codes and bad JSON; a PreToolUse hook that fails denies the call", async () => {
    const crash = await script("crash.sh", "echo boom >&2; exit 1");
    const junk = await script("junk.sh", "echo '{not json'");
    const errors: string[] = [];
    const engine = createHookEngine({
      workspaceRoot: root,
      settings: {
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: "command", command: crash },
                { type: "command", command: junk },
              ],
            },
          ],
        },
      },
      onError: (error) => errors.push(error.message),
    });
    expect(await callBeforeTool(engine, {})).toMatchObject({ skip: true, reason: expect.stringMatching(/boom/) });
    // The first failure decides: the second hook does not run.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/exited with code 1: boom/);
    const junkOnly = createHookEngine({ workspaceRoot: root, settings: preToolUse("*", junk), onError: () => {} });
    expect(await callBeforeTool(junkOnly, {})).toMatchObject({ reason: expect.stringMatching(/printed invalid JSON/) });
  });

  it("report a failed hook to the logger when no onError is given", async () => {
    const crash = await script("crash-logged.sh", "echo boom >&2; exit 1");
    const warnings: unknown[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (message: string) => void warnings.push(message) };
    const engine = createHookEngine({ workspaceRoot: root, settings: preToolUse("*", crash), logger });
    expect(await callBeforeTool(engine, {})).toMatchObject({ skip: true });
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0])).toMatch(/exited with code 1: boom/);
  });

  it("kill a hook's process group on timeout", async () => {
    const command = await script("slow.sh", 'sleep 300 & echo $! > "$HEDDLE_PROJECT_DIR/sleep.pid"; wait');
    const errors: string[] = [];
    const engine = createHookEngine({
      workspaceRoot: root,
      settings: preToolUse("*", command, 0.5),
      onError: (error) => errors.push(error.message),
    });
    expect(await callBeforeTool(engine, {})).toMatchObject({ skip: true });
    expect(errors[0]).toMatch(/timed out after 500 ms/);
    const pid = Number(await readFile(path.join(root, "sleep.pid"), "utf8"));
    expect(await waitProcessGone(pid)).toBe(true);
  });

  it("read .heddle/settings.json and settings in code: both run, file first", async () => {
    const first = await script("first.sh", 'cat >/dev/null; echo \'{"additionalContext":"from file"}\'');
    const second = await script("second.sh", 'cat >/dev/null; echo \'{"additionalContext":"from code"}\'');
    await mkdir(path.join(root, ".heddle"));
    await writeFile(path.join(root, ".heddle/settings.json"), JSON.stringify(preToolUse("*", first)));
    const engine = createHookEngine({ workspaceRoot: root, settings: preToolUse("*", second) });
    expect(await callBeforeTool(engine, {})).toEqual({ appendContext: "from file\n\nfrom code" });
  });

  it("reject malformed settings naming the file and the field", async () => {
    await mkdir(path.join(root, ".heddle"));
    await writeFile(
      path.join(root, ".heddle/settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command" }] }] } }),
    );
    expect(() => createHookEngine({ workspaceRoot: root })).toThrow(
      /settings\.json:\n- hooks.PreToolUse.0.hooks.0.command/,
    );
    expect(() =>
      createHookEngine({
        workspaceRoot: root,
        loadSettingsFile: false,
        settings: { hooks: { PreToolUze: [] } } as never,
      }),
    ).toThrow(/PreToolUze|events: SessionStart/);
  });
});

describe("session-level events and programmatic hooks", () => {
  it("UserPromptSubmit: exit 2 blocks, plain stdout becomes context", async () => {
    const block = await script(
      "block.sh",
      'if grep -q secret; then echo "no secrets" >&2; exit 2; fi; echo "Today is Monday."',
    );
    const engine = createHookEngine({
      workspaceRoot: root,
      settings: { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: block }] }] } },
    });
    expect(await engine.userPromptSubmit({ prompt: "show the secret" })).toMatchObject({
      decision: "deny",
      reason: "no secrets",
    });
    expect(await engine.userPromptSubmit({ prompt: "hello" })).toMatchObject({ additionalContext: "Today is Monday." });
  });
});

describe("after a tool", () => {
  it("PostToolUse and PostToolUseFailure get the result or the error, and their answers become context", async () => {
    const post = await script("post.sh", 'cat > "$HEDDLE_PROJECT_DIR/post.json"');
    const failure = await script(
      "failure.sh",
      'cat > "$HEDDLE_PROJECT_DIR/failure.json"; echo \'{"decision":"block","reason":"Run the linter next."}\'',
    );
    const engine = createHookEngine({
      workspaceRoot: root,
      settings: {
        hooks: {
          PostToolUse: [{ hooks: [{ type: "command", command: post }] }],
          PostToolUseFailure: [{ hooks: [{ type: "command", command: failure }] }],
        },
      },
    });
    const afterTool = engine.agentHooks.afterTool as (ctx: unknown) => Promise<unknown>;
    const ctx = (output: string, isError?: boolean) => ({
      ...beforeToolCtx({ command: "ls" }),
      result: { type: "tool-result", toolCallId: "call_1", toolName: "shell", output, ...(isError && { isError }) },
    });
    expect(await afterTool(ctx("a.txt"))).toBeUndefined();
    expect(await afterTool(ctx("boom", true))).toEqual({ appendContext: "Run the linter next." });
    const payloads = await Promise.all(
      ["post.json", "failure.json"].map(async (name) => JSON.parse(await readFile(path.join(root, name), "utf8"))),
    );
    expect(payloads).toMatchObject([
      { hook_event_name: "PostToolUse", tool_name: "shell", tool_response: "a.txt" },
      { hook_event_name: "PostToolUseFailure", error: "boom" },
    ]);
  });
});

describe("with an AgentRuntime", () => {
  it("a Stop command hook fires once when the run ends, with its reason, status and output", async () => {
    const stop = await script(
      "stop.sh",
      'cat >> "$HEDDLE_PROJECT_DIR/stop.jsonl"; echo >> "$HEDDLE_PROJECT_DIR/stop.jsonl"',
    );
    const engine = createHookEngine({
      workspaceRoot: root,
      sessionId: "s1",
      settings: { hooks: { Stop: [{ hooks: [{ type: "command", command: stop }] }] } },
    });
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "shell", input: { command: "ls" } }] },
      { text: "all done" },
    ]);
    await createAgent({ model, tools: [shellTool([])], hooks: engine.agentHooks }).run("go");
    const lines = (await readFile(path.join(root, "stop.jsonl"), "utf8")).trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      hook_event_name: "Stop",
      session_id: "s1",
      reason: "end_turn",
      status: "completed",
      output_text: "all done",
    });
  });

  it("a denied call does not run, a rewrite runs, and the added context reaches the next model request", async () => {
    const guard = await script(
      "guard.sh",
      'input=$(cat)\ncase "$input" in\n  *"rm -rf"*) echo "destructive command refused" >&2; exit 2;;\nesac\n' +
        'echo \'{"updatedInput":{"command":"ls -la"},"additionalContext":"Remember: the repo uses pnpm."}\'',
    );
    const engine = createHookEngine({ workspaceRoot: root, settings: preToolUse("shell", guard) });
    const ran: string[] = [];
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "c1", name: "shell", input: { command: "rm -rf /" } },
          { id: "c2", name: "shell", input: { command: "ls" } },
        ],
      },
      { text: "done" },
    ]);
    const agent = createAgent({ model, tools: [shellTool(ran)], hooks: engine.agentHooks });
    const result = await agent.run("clean up");
    expect(result.status).toBe("completed");
    expect(ran).toEqual(["ls -la"]);
    const second = model.requests[1]!.messages;
    const toolMessage = second.find((message) => message.role === "tool")!;
    expect(JSON.stringify(toolMessage.content)).toContain("destructive command refused");
    expect(
      second.some(
        (message) => message.role === "user" && getMessageText(message).includes("Remember: the repo uses pnpm."),
      ),
    ).toBe(true);
  });
});
