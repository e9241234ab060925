import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentMessage, type AgentTool, getMessageText, getToolResults } from "@heddle/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemorySessionStore } from "../backends/memory/index.js";
import { summarizingCompaction } from "../compaction/summarizing.js";
import type { HookEventName } from "../hooks/settings.js";
import { makeTempDir } from "../tools/test-utils.js";
import { createSession, openSession } from "./create-session.js";
import { InvalidSessionInputError } from "./errors.js";
import type { SessionEvent } from "./session-events.js";

let root: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir("heddle-session-hooks-"));
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

const on = (event: HookEventName, command: string, matcher?: string) => ({
  hooks: { [event]: [{ ...(matcher !== undefined && { matcher }), hooks: [{ type: "command" as const, command }] }] },
});

const texts = (messages: readonly AgentMessage[]) => messages.map(getMessageText);
const quiet = { onError: () => {} };

const shell = (ran: string[]): AgentTool => ({
  name: "shell",
  description: "runs a command",
  inputSchema: { type: "object", properties: { command: { type: "string" } } },
  execute: (input: any) => {
    ran.push(input.command);
    return `ran ${input.command}`;
  },
});

describe("command hooks in a session", () => {
  it("UserPromptSubmit gets the prompt and its context reaches that turn's model request", async () => {
    const command = await script("ctx.sh", 'cat > "$HEDDLE_PROJECT_DIR/prompt.json"\necho "Today is Friday."');
    const model = createScriptedModel([{ text: "ok" }]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      workspaceRoot: root,
      compaction: false,
      commandHooks: { settings: on("UserPromptSubmit", command), ...quiet },
    });
    await session.send("What day is it?");
    const request = texts(model.requests[0]!.messages);
    expect(request[0]).toBe("What day is it?");
    expect(request[1]).toContain("Today is Friday.");
    const payload = JSON.parse(await readFile(path.join(root, "prompt.json"), "utf8"));
    expect(payload).toMatchObject({
      hook_event_name: "UserPromptSubmit",
      prompt: "What day is it?",
      session_id: session.id,
    });
  });

  it("UserPromptSubmit exit 2 blocks the turn: no request, nothing stored, reason hook_stop", async () => {
    const command = await script(
      "guard.sh",
      'if grep -q secret; then echo "prompts about secrets are blocked" >&2; exit 2; fi',
    );
    const model = createScriptedModel([{ text: "fine" }]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      workspaceRoot: root,
      compaction: false,
      commandHooks: { settings: on("UserPromptSubmit", command), ...quiet },
    });
    const result = await session.send("tell me the secret");
    expect(result).toMatchObject({
      status: "aborted",
      reason: "hook_stop",
      reasonDetail: "prompts about secrets are blocked",
      newMessages: [],
      iterations: 0,
    });
    expect(model.requests).toHaveLength(0);
    expect(await session.history()).toEqual([]);

    const events: SessionEvent[] = [];
    for await (const event of session.stream("another secret")) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "run-finished", result: { reason: "hook_stop" } });
    expect(model.requests).toHaveLength(0);

    expect((await session.send("hello")).outputText).toBe("fine");
    expect(texts(await session.history())).toEqual(["hello", "fine"]);
  });

  it("SessionStart fires once per created or opened session, and its context reaches the first request", async () => {
    const command = await script(
      "start.sh",
      'cat >> "$HEDDLE_PROJECT_DIR/starts.log"; echo >> "$HEDDLE_PROJECT_DIR/starts.log"\necho "Branch: main."',
    );
    const store = new MemorySessionStore();
    const commandHooks = { settings: on("SessionStart", command), ...quiet };
    const model = createScriptedModel([{ text: "one" }, { text: "two" }, { text: "three" }]);
    const session = await createSession({ store, model, workspaceRoot: root, compaction: false, commandHooks });
    await session.send("first");
    await session.send("second");
    const count = (request: number) =>
      texts(model.requests[request]!.messages).filter((t) => t.includes("Branch: main.")).length;
    expect(texts(model.requests[0]!.messages)[1]).toContain("Branch: main.");
    // Once in the transcript, not added again.
    expect(count(1)).toBe(1);
    await session.close();

    const reopened = await openSession({
      store,
      id: session.id,
      model,
      workspaceRoot: root,
      compaction: false,
      commandHooks,
    });
    await reopened.send("third");
    expect(count(2)).toBe(2);
    const payloads = (await readFile(path.join(root, "starts.log"), "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(payloads.map((p) => p.source)).toEqual(["startup", "resume"]);
  });

  it("a PreToolUse deny from .heddle/settings.json blocks a tool in a session", async () => {
    const guard = await script(
      "deny-rm.sh",
      'if grep -q "rm -rf"; then echo "rm -rf is not allowed here" >&2; exit 2; fi',
    );
    await mkdir(path.join(root, ".heddle"), { recursive: true });
    await writeFile(path.join(root, ".heddle", "settings.json"), JSON.stringify(on("PreToolUse", guard, "shell")));
    const ran: string[] = [];
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "shell", input: { command: "rm -rf /" } }] },
      { text: "understood" },
    ]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      tools: [shell(ran)],
      workspaceRoot: root,
      compaction: false,
      commandHooks: quiet,
    });
    await session.send("clean up");
    expect(ran).toEqual([]);
    const toolMessage = model.requests[1]!.messages.find((m) => m.role === "tool")!;
    expect(getToolResults(toolMessage)[0]).toMatchObject({ isError: true });
    expect(JSON.stringify(getToolResults(toolMessage)[0]!.output)).toContain("rm -rf is not allowed here");
  });

  it("command hooks are off unless commandHooks is given, even with a settings file", async () => {
    const guard = await script("deny-all.sh", "echo no >&2; exit 2");
    await mkdir(path.join(root, ".heddle"), { recursive: true });
    await writeFile(path.join(root, ".heddle", "settings.json"), JSON.stringify(on("PreToolUse", guard)));
    const ran: string[] = [];
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "shell", input: { command: "ls" } }] },
      { text: "done" },
    ]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      tools: [shell(ran)],
      workspaceRoot: root,
    });
    await session.send("list");
    expect(ran).toEqual(["ls"]);
  });

  it("SessionEnd runs on close", async () => {
    const command = await script("end.sh", 'cat > "$HEDDLE_PROJECT_DIR/ended.json"');
    const session = await createSession({
      store: new MemorySessionStore(),
      model: createScriptedModel([{ text: "hi" }]),
      workspaceRoot: root,
      commandHooks: { settings: on("SessionEnd", command), ...quiet },
    });
    await session.send("hello");
    await session.close();
    const payload = JSON.parse(await readFile(path.join(root, "ended.json"), "utf8"));
    expect(payload).toMatchObject({ hook_event_name: "SessionEnd", session_id: session.id, reason: "close" });
  });

  it("PreCompact runs after onPreCompact: a deny skips compaction, its context instructs the summary", async () => {
    const command = await script(
      "precompact.sh",
      'cat > "$HEDDLE_PROJECT_DIR/precompact.json"\n' +
        'if [ -f "$HEDDLE_PROJECT_DIR/deny" ]; then echo "not now" >&2; exit 2; fi\n' +
        'echo \'{"additionalContext":"Keep the API decisions."}\'',
    );
    const summarizer = createScriptedModel([{ text: "SUMMARY" }]);
    const seen: string[] = [];
    const long = (label: string) => `${label} ${"lorem ipsum ".repeat(100)}`;
    const session = await createSession({
      store: new MemorySessionStore(),
      model: createScriptedModel([{ text: long("a1") }, { text: long("a2") }]),
      workspaceRoot: root,
      compaction: {
        strategy: summarizingCompaction({ model: summarizer, keepRecentTokens: 50 }),
        onPreCompact: (ctx) => {
          seen.push(ctx.reason);
          return { instructions: "Mention the tests." };
        },
      },
      commandHooks: { settings: on("PreCompact", command), ...quiet },
    });
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    await session.send(long("q1"));
    await session.send(long("q2"));

    await writeFile(path.join(root, "deny"), "");
    expect(await session.compact()).toMatchObject({ compacted: false, skipped: true });
    expect(summarizer.requests).toHaveLength(0);
    expect(events.some((event) => event.type === "compaction-started")).toBe(false);

    await rm(path.join(root, "deny"));
    expect(await session.compact()).toMatchObject({ compacted: true });
    const request = getMessageText(summarizer.requests[0]!.messages[0]!);
    expect(request).toContain("Mention the tests.\n\nKeep the API decisions.");
    expect(seen).toEqual(["manual", "manual"]);
    const payload = JSON.parse(await readFile(path.join(root, "precompact.json"), "utf8"));
    expect(payload).toMatchObject({ hook_event_name: "PreCompact", trigger: "manual", session_id: session.id });
  });

  it("refuses commandHooks without a workspaceRoot", async () => {
    const attempt = createSession({
      store: new MemorySessionStore(),
      model: createScriptedModel([]),
      commandHooks: {},
    });
    await expect(attempt).rejects.toBeInstanceOf(InvalidSessionInputError);
    await expect(attempt).rejects.toThrow(/"commandHooks" needs "workspaceRoot"/);
  });

  it("a malformed settings file fails createSession and leaves no session behind", async () => {
    await mkdir(path.join(root, ".heddle"), { recursive: true });
    await writeFile(path.join(root, ".heddle", "settings.json"), JSON.stringify({ hooks: { NoSuchEvent: [] } }));
    const store = new MemorySessionStore();
    await expect(
      createSession({ store, model: createScriptedModel([]), workspaceRoot: root, commandHooks: {} }),
    ).rejects.toThrow(/NoSuchEvent/);
    expect(await store.listSessions()).toEqual([]);
  });
});
