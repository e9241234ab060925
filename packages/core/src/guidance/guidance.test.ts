import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentMessage, type AgentTool, getMessageText } from "@heddle/shared";
import { afterAll, describe, expect, it } from "vitest";
import { createSession, MemorySessionStore } from "../sessions/index.js";
import { createDefaultTools } from "../tools/index.js";
import { DEFAULT_TODO_REMINDER } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-guidance-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tool = (name: string): AgentTool => ({
  name,
  description: name,
  inputSchema: { type: "object" },
  execute: () => "ok",
});
const reminded = (messages: readonly AgentMessage[]) =>
  messages.some((m) => m.role === "user" && getMessageText(m).includes(DEFAULT_TODO_REMINDER));

describe("the todo reminder", () => {
  const rounds = (names: string[]) => [
    ...names.map((name) => ({ toolCalls: [{ name, input: {} }] })),
    { text: "done" },
  ];

  it("reaches the next request after 3 rounds of tool calls without todo_write, and not before", async () => {
    const model = createScriptedModel(rounds(["look", "look", "look", "look"]));
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      tools: [tool("look"), tool("todo_write")],
      compaction: false,
    });
    await session.send("work");
    const seen = model.requests.map((request) => reminded(request.messages));
    // Requests 1-3 come before three rounds have passed; the 4th request follows the 3rd round.
    expect(seen).toEqual([false, false, false, true, true]);
    // It is stored with the transcript, like every notice.
    expect(reminded(await session.history())).toBe(true);
  });

  it("counts from zero after a todo_write, is silent without todo_write on offer, and can be turned off", async () => {
    const withTodo = createScriptedModel(rounds(["look", "look", "todo_write", "look", "look"]));
    const a = await createSession({
      store: new MemorySessionStore(),
      model: withTodo,
      tools: [tool("look"), tool("todo_write")],
      compaction: false,
    });
    await a.send("work");
    expect(withTodo.requests.some((r) => reminded(r.messages))).toBe(false);

    const noTodo = createScriptedModel(rounds(["look", "look", "look", "look"]));
    const b = await createSession({
      store: new MemorySessionStore(),
      model: noTodo,
      tools: [tool("look")],
      compaction: false,
    });
    await b.send("work");
    expect(noTodo.requests.some((r) => reminded(r.messages))).toBe(false);

    const off = createScriptedModel(rounds(["look", "look", "look", "look"]));
    const c = await createSession({
      store: new MemorySessionStore(),
      model: off,
      tools: [tool("look"), tool("todo_write")],
      compaction: false,
      todoReminder: false,
    });
    await c.send("work");
    expect(off.requests.some((r) => reminded(r.messages))).toBe(false);

    const early = createScriptedModel(rounds(["look"]));
    const d = await createSession({
      store: new MemorySessionStore(),
      model: early,
      tools: [tool("look"), tool("todo_write")],
      compaction: false,
      todoReminder: { afterRounds: 1, text: "Update the list, please." },
    });
    await d.send("work");
    expect(getMessageText(early.requests[1]!.messages.at(-1)!)).toContain("Update the list, please.");
  });
});

describe("skills in the system prompt", () => {
  it("lists each skill's name and description when skillsDirs is set, and load_skill loads it", async () => {
    const root = join(dir, "ws");
    mkdirSync(join(root, "skills", "release"), { recursive: true });
    writeFileSync(
      join(root, "skills", "release", "SKILL.md"),
      "---\nname: release\ndescription: Cut a release with changesets\n---\nRun pnpm changeset version.\n",
    );
    const model = createScriptedModel([
      { toolCalls: [{ name: "load_skill", input: { name: "release" } }] },
      { text: "ok" },
    ]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      workspaceRoot: root,
      systemPrompt: "You are careful.",
      skillsDirs: ["skills"],
      tools: createDefaultTools({ workspaceRoot: root, preset: "read-only", skillsDirs: ["skills"] }),
      compaction: false,
    });
    await session.send("release it");
    const prompt = model.requests[0]!.systemPrompt ?? "";
    expect(prompt.startsWith("You are careful.")).toBe(true);
    expect(prompt).toContain("- release: Cut a release with changesets");
    const result = model.requests[1]!.messages.at(-1)!.content[0] as { output: unknown };
    expect(String(result.output)).toContain("Run pnpm changeset version.");
    await session.close();

    const plain = createScriptedModel([{ text: "ok" }]);
    const without = await createSession({
      store: new MemorySessionStore(),
      model: plain,
      workspaceRoot: root,
      systemPrompt: "You are careful.",
      compaction: false,
    });
    await without.send("hi");
    expect(plain.requests[0]!.systemPrompt).toBe("You are careful.");
  });
});
