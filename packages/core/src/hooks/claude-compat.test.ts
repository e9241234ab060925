import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createScriptedModel } from "@heddle/llms/testing";
import { getMessageText } from "@heddle/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentHost } from "../host/index.js";
import { createSession } from "../sessions/index.js";
import { createSpawnAgentTool } from "../teams/index.js";
import { createDefaultTools, defaultToolPolicies } from "../tools/index.js";
import { makeTempDir } from "../tools/test-utils.js";
import { createHookEngine } from "./hook-engine.js";

// Claude Code compatibility mode in the engine: the same settings a Claude Code user has, read from .claude/.
let root: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir("heddle-claude-compat-"));
});
afterEach(() => cleanup());

async function claudeSettings(value: unknown, file = "settings.json"): Promise<void> {
  await mkdir(path.join(root, ".claude"), { recursive: true });
  await writeFile(path.join(root, ".claude", file), JSON.stringify(value));
}
const hook = (command: string, matcher?: string) => [
  { ...(matcher !== undefined && { matcher }), hooks: [{ type: "command", command }] },
];
function beforeTool(engine: ReturnType<typeof createHookEngine>, toolName: string, input: unknown, id = "call_1") {
  const fn = engine.agentHooks.beforeTool as (ctx: unknown) => Promise<any>;
  return fn({
    agentId: "a",
    runId: "r",
    iteration: 1,
    signal: new AbortController().signal,
    toolCall: { type: "tool-call", toolCallId: id, toolName, input },
    tool: { name: toolName },
    input,
  });
}
const logs = () => {
  const lines: string[] = [];
  const push = (message: string) => void lines.push(message);
  return { lines, logger: { debug: push, info: push, warn: push, error: push } };
};

describe("Claude Code compatibility mode", () => {
  it("reads .claude/settings.json and .local only when asked, and matches Claude Code's tool names and inputs", async () => {
    await claudeSettings({ hooks: { PreToolUse: hook('cat > "$CLAUDE_PROJECT_DIR/bash.json"', "Bash") } });
    await claudeSettings({ hooks: { PreToolUse: hook("cat > edit.json", "Edit|Write") } }, "settings.local.json");
    const off = createHookEngine({ workspaceRoot: root });
    expect(off.settings.hooks?.PreToolUse).toBeUndefined();

    const engine = createHookEngine({
      workspaceRoot: root,
      claudeSettings: true,
      sessionId: "s1",
      permissionMode: "acceptEdits",
      transcriptPath: (id) => `/t/${id}.jsonl`,
    });
    await beforeTool(engine, "bash", { command: "npm test", timeout_ms: 5000 });
    await beforeTool(engine, "edit_file", { path: "src/a.ts", old_text: "a", new_text: "b" });
    await beforeTool(engine, "read_file", { path: "src/a.ts" });
    const bash = JSON.parse(await readFile(path.join(root, "bash.json"), "utf8"));
    expect(bash).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm test", timeout: 5000 },
      session_id: "s1",
      transcript_path: "/t/s1.jsonl",
      permission_mode: "acceptEdits",
    });
    // Only the Edit call reached the Edit|Write hook (the Read call did not overwrite it).
    expect(JSON.parse(await readFile(path.join(root, "edit.json"), "utf8"))).toMatchObject({
      tool_name: "Edit",
      tool_input: { file_path: path.join(root, "src/a.ts"), old_string: "a", new_string: "b" },
    });
  });

  it("exit 1 is a non-blocking error in compatibility mode; the same hook in .heddle/settings.json denies", async () => {
    await claudeSettings({ hooks: { PreToolUse: hook("echo broken >&2; exit 1", "Bash") } });
    const { lines, logger } = logs();
    const compat = createHookEngine({ workspaceRoot: root, claudeSettings: true, logger });
    expect(await beforeTool(compat, "bash", { command: "ls" })).toBeUndefined();
    expect(lines.join("\n")).toContain("exited with code 1: broken");

    const heddle = createHookEngine({
      workspaceRoot: root,
      logger,
      settings: { hooks: { PreToolUse: hook("exit 1", "bash") as never } },
    });
    expect(await beforeTool(heddle, "bash", { command: "ls" })).toMatchObject({ skip: true });
  });

  it("an updatedInput in Claude Code's field names comes back in Heddle's, paths relative to the workspace", async () => {
    const updated = { file_path: path.join(root, "docs/b.md"), content: "safe" };
    await claudeSettings({
      hooks: {
        PreToolUse: hook(
          `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: updated } })}'`,
          "Write",
        ),
      },
    });
    const engine = createHookEngine({ workspaceRoot: root, claudeSettings: true });
    expect(await beforeTool(engine, "write_file", { path: "a.md", content: "x" }, "call_w")).toEqual({
      input: { path: "docs/b.md", content: "safe" },
    });
    // A compatibility-mode allow skips the person's approval, once; Heddle's own allow never does.
    expect(engine.hookApproved?.("call_w")).toBe(true);
    expect(engine.hookApproved?.("call_w")).toBe(false);
    const heddle = createHookEngine({
      workspaceRoot: root,
      settings: { hooks: { PreToolUse: hook('echo \'{"decision":"allow"}\'') as never } },
    });
    await beforeTool(heddle, "bash", { command: "ls" }, "call_h");
    expect(heddle.hookApproved?.("call_h")).toBe(false);
  });

  it("settings with unknown events, prompt hooks, bad matchers or bad JSON load with notes, never an error", async () => {
    await claudeSettings({
      model: "opus",
      hooks: {
        Notification: hook("true", ""),
        PostToolBatch: hook("true"),
        MadeUpEvent: hook("true"),
        Stop: [{ hooks: [{ type: "prompt", prompt: "Are you done?" }] }],
        PreToolUse: [{ matcher: "(", hooks: [{ type: "command", command: "true" }] }, ...hook("true", "Bash")],
      },
    });
    await mkdir(path.join(root, ".claude"), { recursive: true });
    await writeFile(path.join(root, ".claude", "settings.local.json"), "{ not json");
    const { lines, logger } = logs();
    const engine = createHookEngine({ workspaceRoot: root, claudeSettings: true, logger });
    expect(engine.settings.hooks?.Notification).toHaveLength(1);
    expect(engine.settings.hooks?.PreToolUse).toEqual([
      { matcher: "Bash", hooks: [{ type: "command", command: "true" }] },
    ]);
    expect(engine.settings.hooks?.Stop).toBeUndefined();
    const text = lines.join("\n");
    expect(text).toContain("PostToolBatch hooks load but never run");
    expect(text).toContain('unknown hook event "MadeUpEvent"');
    expect(text).toContain('a "prompt" hook, which Heddle does not run');
    expect(text).toContain('matcher "(" is not a valid regular expression');
    expect(text).toContain(".claude/settings.local.json is not valid JSON");
  });

  it("disableAllHooks in a .claude file turns off the hooks of both, not Heddle's own", async () => {
    await claudeSettings({ hooks: { PreToolUse: hook("exit 2", "Bash") } });
    await claudeSettings({ disableAllHooks: true }, "settings.local.json");
    const engine = createHookEngine({ workspaceRoot: root, claudeSettings: true, logger: logs().logger });
    expect(engine.settings.hooks?.PreToolUse).toBeUndefined();
  });

  it("a Stop hook's block makes the session go on with its reason; the next Stop sees stop_hook_active", async () => {
    const script = [
      "input=$(cat)",
      'echo "$input" >> stops.jsonl',
      'if [ "$(echo "$input" | jq -r .stop_hook_active)" = "true" ]; then exit 0; fi',
      'echo \'{"decision":"block","reason":"Run the tests before you stop."}\'',
    ].join("\n");
    await claudeSettings({ hooks: { Stop: hook(script) } });
    const model = createScriptedModel([{ text: "Done." }, { text: "Tests pass. Done." }]);
    const session = await createSession({
      model,
      workspaceRoot: root,
      tools: createDefaultTools({ workspaceRoot: root, preset: "read-only" }),
      toolPolicies: defaultToolPolicies("read-only"),
      commandHooks: { claudeSettings: true, loadSettingsFile: false },
    });
    const result = await session.send("finish up");
    await session.close();
    expect(result.outputText).toBe("Tests pass. Done.");
    expect(getMessageText(model.requests[1]!.messages.at(-1)!)).toContain("Run the tests before you stop.");
    const stops = (await readFile(path.join(root, "stops.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(stops.map((s) => [s.stop_hook_active, s.last_assistant_message])).toEqual([
      [false, "Done."],
      [true, "Tests pass. Done."],
    ]);
  });

  it("a SubagentStop hook's block keeps the sub-agent working; it fires once per sub-agent end", async () => {
    const script = [
      "input=$(cat)",
      'echo "$input" >> subagent-stops.jsonl',
      'if [ "$(echo "$input" | jq -r .stop_hook_active)" = "true" ]; then exit 0; fi',
      "echo 'Check the edge cases too.' >&2; exit 2",
    ].join("\n");
    await claudeSettings({ hooks: { SubagentStop: hook(script) } });
    const child = createScriptedModel([{ text: "Checked." }, { text: "Checked, edge cases too." }]);
    const spawn = createSpawnAgentTool({ model: child, tools: [], agentType: "checker" });
    const host = createAgentHost({
      commandHooks: { workspaceRoot: root, claudeSettings: true, loadSettingsFile: false },
    });
    const lead = host.createAgent({
      model: createScriptedModel([
        { toolCalls: [{ id: "s", name: "spawn_agent", input: { description: "check", prompt: "Check it." } }] },
        { text: "ok" },
      ]),
      tools: [spawn],
      agentId: "lead",
    });
    const result = await lead.run("go");
    expect(getMessageText(child.requests[1]!.messages.at(-1)!)).toContain("Check the edge cases too.");
    expect(JSON.stringify(result.messages)).toContain("Checked, edge cases too.");
    const stops = (await readFile(path.join(root, "subagent-stops.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(stops.map((s) => [s.agent_type, s.stop_hook_active, s.last_assistant_message])).toEqual([
      ["checker", false, "Checked."],
      ["checker", true, "Checked, edge cases too."],
    ]);
  });

  it("a block where Claude Code cannot block (PreCompact exit 2) is only shown; stdout that is not JSON is plain text", async () => {
    await claudeSettings({
      hooks: {
        PreCompact: hook("echo 'compaction noted' >&2; exit 2"),
        UserPromptSubmit: hook("echo '{this is not json'"),
      },
    });
    const { lines, logger } = logs();
    const model = createScriptedModel([{ text: "hi" }, { text: "summary" }]);
    const session = await createSession({ model, workspaceRoot: root, logger, commandHooks: { claudeSettings: true } });
    await session.send("hello");
    expect(getMessageText(model.requests[0]!.messages.at(-1)!)).toContain("{this is not json");
    expect((await session.compact()).compacted).toBe(true);
    await session.close();
    expect(lines.join("\n")).toContain("PreCompact hook: compaction noted");
  });

  it("SessionStart fires again with source compact after a compaction, and its context reaches the next request", async () => {
    await claudeSettings({ hooks: { SessionStart: hook("echo 'Reminder: use Bun, not npm.'", "compact") } });
    const model = createScriptedModel([{ text: "hi" }, { text: "summary of it all" }, { text: "ok" }]);
    const session = await createSession({ model, workspaceRoot: root, commandHooks: { claudeSettings: true } });
    await session.send("hello");
    expect(getMessageText(model.requests[0]!.messages.at(-1)!)).not.toContain("Reminder");
    expect((await session.compact()).compacted).toBe(true);
    await session.send("next");
    await session.close();
    expect(model.requests[2]!.messages.map(getMessageText).join("\n")).toContain("Reminder: use Bun, not npm.");
  });
});
