import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolConfigError } from "../workspace/index.js";
import { createDefaultTools, defaultToolPolicies } from "./default-tools.js";
import { formatSkillsForPrompt, listSkills } from "./skills.js";
import { findTool, makeTempDir, runTool } from "./test-utils.js";
import type { TodoItem } from "./todo.js";

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

const names = (preset: "read-only" | "edit" | "full") =>
  createDefaultTools({ workspaceRoot: root, preset }).map((tool) => tool.name);

describe("presets", () => {
  it("read-only has no write tools and no bash; edit and full have them", () => {
    expect(names("read-only")).toEqual([
      "read_file",
      "list_files",
      "search",
      "todo_write",
      "ask_user",
      "submit_result",
    ]);
    for (const preset of ["edit", "full"] as const) {
      expect(names(preset)).toEqual(expect.arrayContaining(["write_file", "edit_file", "bash"]));
    }
  });

  it("marks read-only tools readOnly and submit_result as completing the run", () => {
    const tools = createDefaultTools({ workspaceRoot: root, preset: "full" });
    expect(tools.filter((tool) => tool.readOnly).map((tool) => tool.name)).not.toContain("write_file");
    expect(findTool(tools, "read_file").readOnly).toBe(true);
    expect(findTool(tools, "bash").readOnly).toBeFalsy();
    expect(findTool(tools, "submit_result").lifecycle).toEqual({ completesRun: true });
  });

  it("maps presets to policies: read-only disables writes, edit asks for bash, full approves all", () => {
    expect(defaultToolPolicies("read-only")).toMatchObject({
      write_file: { enabled: false },
      bash: { enabled: false },
      read_file: { autoApprove: true },
    });
    expect(defaultToolPolicies("edit")).toMatchObject({
      edit_file: { autoApprove: true },
      bash: { enabled: true, autoApprove: false },
    });
    expect(defaultToolPolicies("full")).toMatchObject({
      bash: { autoApprove: true },
      write_file: { autoApprove: true },
    });
  });

  it("rejects an unknown preset and a missing root with a typed error", () => {
    expect(() => createDefaultTools({ workspaceRoot: root, preset: "yolo" as never })).toThrow(ToolConfigError);
    expect(() => defaultToolPolicies("all" as never)).toThrow(/preset must be one of read-only, edit, full/);
    expect(() => createDefaultTools({ workspaceRoot: path.join(root, "no"), preset: "edit" })).toThrow(ToolConfigError);
  });
});

describe("todo_write", () => {
  it("renders the list back and reports it to the host", async () => {
    const seen: TodoItem[][] = [];
    const tools = createDefaultTools({
      workspaceRoot: root,
      preset: "read-only",
      onTodosChange: (todos) => seen.push(todos),
    });
    const out = await runTool(findTool(tools, "todo_write"), {
      todos: [
        { content: "Read the code", status: "completed" },
        { content: "Fix the bug", status: "in_progress" },
        { content: "Add a test", status: "pending" },
      ],
    });
    expect(out).toBe("Tasks (1/3 done):\n[x] t1. Read the code\n[>] t2. Fix the bug\n[ ] t3. Add a test");
    expect(seen[0]).toEqual([
      { id: "t1", content: "Read the code", status: "completed" },
      { id: "t2", content: "Fix the bug", status: "in_progress" },
      { id: "t3", content: "Add a test", status: "pending" },
    ]);
  });

  it("keeps the list and its ids between calls: ids given back, the same text, merge by id", async () => {
    const seen: TodoItem[][] = [];
    const todo = findTool(
      createDefaultTools({ workspaceRoot: root, preset: "read-only", onTodosChange: (t) => seen.push(t) }),
      "todo_write",
    );
    await runTool(todo, {
      todos: [
        { content: "Read the code", status: "in_progress" },
        { content: "Fix the bug", status: "pending" },
      ],
    });
    // The whole list again: t1 by id, t2 by its text, a new item gets t3.
    await runTool(todo, {
      todos: [
        { id: "t1", content: "Read the code", status: "completed" },
        { content: "Fix the bug", status: "in_progress" },
        { content: "Add a test", status: "pending" },
      ],
    });
    expect(seen[1]!.map((t) => [t.id, t.status])).toEqual([
      ["t1", "completed"],
      ["t2", "in_progress"],
      ["t3", "pending"],
    ]);
    // merge: only t2 changes; the rest of the list is kept.
    const out = await runTool(todo, {
      merge: true,
      todos: [{ id: "t2", content: "Fix the bug", status: "completed" }],
    });
    expect(seen[2]!.map((t) => [t.id, t.status])).toEqual([
      ["t1", "completed"],
      ["t2", "completed"],
      ["t3", "pending"],
    ]);
    expect(out).toContain("Tasks (2/3 done)");
    await expect(
      runTool(todo, {
        merge: true,
        todos: [
          { id: "t3", content: "Add a test", status: "in_progress" },
          { id: "t4", content: "x", status: "in_progress" },
        ],
      }),
    ).rejects.toThrow(/At most one item may be in_progress/);
  });

  it("refuses two items in progress and unknown statuses", async () => {
    const todo = findTool(createDefaultTools({ workspaceRoot: root, preset: "read-only" }), "todo_write");
    const two = [
      { content: "a", status: "in_progress" },
      { content: "b", status: "in_progress" },
    ];
    await expect(runTool(todo, { todos: two })).rejects.toThrow(/At most one item may be in_progress/);
    await expect(runTool(todo, { todos: [{ content: "a", status: "doing" }] })).rejects.toThrow(/todos.0.status/);
  });
});

describe("ask_user", () => {
  it("asks the host callback and returns the answer", async () => {
    const tools = createDefaultTools({
      workspaceRoot: root,
      preset: "read-only",
      askUser: ({ question, options }) => `${question} -> ${options?.[1]}`,
    });
    expect(await runTool(findTool(tools, "ask_user"), { question: "Which?", options: ["a", "b"] })).toBe(
      "User answered: Which? -> b",
    );
  });

  it("denies clearly when headless", async () => {
    const tools = createDefaultTools({ workspaceRoot: root, preset: "read-only" });
    await expect(runTool(findTool(tools, "ask_user"), { question: "Which?" })).rejects.toThrow(
      /No user can answer: this run is headless/,
    );
  });
});

describe("skills", () => {
  beforeEach(async () => {
    await mkdir(path.join(root, "skills/release"), { recursive: true });
    await writeFile(
      path.join(root, "skills/release/SKILL.md"),
      '---\nname: release-notes\ndescription: "Write release notes from merged PRs"\n---\n# Release notes\nGroup by type.\n',
    );
    await mkdir(path.join(root, "skills/empty"), { recursive: true });
  });

  it("lists skills by name and description for the system prompt", async () => {
    const skills = await listSkills(["skills", "missing-dir"], root);
    expect(skills.map(({ name, description }) => ({ name, description }))).toEqual([
      { name: "release-notes", description: "Write release notes from merged PRs" },
    ]);
    expect(formatSkillsForPrompt(skills)).toContain("- release-notes: Write release notes from merged PRs");
  });

  it("loads a skill's body on demand and names the available ones for an unknown name", async () => {
    const tools = createDefaultTools({ workspaceRoot: root, preset: "read-only", skillsDirs: ["skills"] });
    const load = findTool(tools, "load_skill");
    const out = await runTool(load, { name: "release-notes" });
    expect(out).toContain("# Release notes\nGroup by type.");
    expect(out).not.toContain("description:");
    await expect(runTool(load, { name: "deploy" })).rejects.toThrow(
      /No skill named "deploy". Available: release-notes/,
    );
  });
});

describe("submit_result", () => {
  it("returns the result text", async () => {
    const submit = findTool(createDefaultTools({ workspaceRoot: root, preset: "read-only" }), "submit_result");
    expect(await runTool(submit, { result: "All done" })).toBe("All done");
  });
});
