import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { createScriptedModel } from "@heddle/llms/testing";
import { getMessageText, userMessage } from "@heddle/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemorySessionStore } from "../backends/memory/index.js";
import { createSession } from "../sessions/create-session.js";
import { createDefaultTools } from "../tools/default-tools.js";
import { findTool, makeTempDir, runTool, toolContext } from "../tools/test-utils.js";
import {
  FileCheckpointError,
  FileCheckpointer,
  previewFileRestore,
  restoreFileCheckpoints,
} from "./file-checkpointer.js";

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir("heddle-checkpoints-"));
});
afterEach(() => cleanup());

const exists = (rel: string) =>
  stat(path.join(root, rel)).then(
    () => true,
    () => false,
  );
const read = (rel: string) => readFile(path.join(root, rel), "utf8");

describe("FileCheckpointer with the file tools", () => {
  it("stores each file's prior content (or absence) once per message, before the write", async () => {
    const store = new MemorySessionStore();
    const session = await store.createSession({ id: "s" });
    await store.appendMessage("s", userMessage("go", { id: "u1" }));
    await writeFile(path.join(root, "a.txt"), "original");
    const checkpointer = new FileCheckpointer({ store, sessionId: "s", workspaceRoot: root });
    const tools = createDefaultTools({ workspaceRoot: root, preset: "edit", checkpointer });
    checkpointer.setMessageId("u1");
    await runTool(findTool(tools, "write_file"), { path: "a.txt", content: "first" });
    await runTool(findTool(tools, "edit_file"), { path: "a.txt", old_text: "first", new_text: "second" });
    await runTool(findTool(tools, "write_file"), { path: "new/b.txt", content: "b" });
    const checkpoints = await store.listFileCheckpoints(session.id);
    expect(checkpoints.map((c) => [c.messageId, c.path, c.content && Buffer.from(c.content).toString()])).toEqual([
      ["u1", "a.txt", "original"],
      ["u1", "new/b.txt", null],
    ]);
    expect(await previewFileRestore({ store, sessionId: "s", workspaceRoot: root })).toEqual([
      { path: "a.txt", action: "restore" },
      { path: "new/b.txt", action: "delete" },
    ]);
    await restoreFileCheckpoints({ store, sessionId: "s", workspaceRoot: root });
    expect(await read("a.txt")).toBe("original");
    expect(await exists("new/b.txt")).toBe(false);
    expect(await previewFileRestore({ store, sessionId: "s", workspaceRoot: root })).toEqual([]);
  });

  it("refuses to write when it cannot tell which message the change belongs to", async () => {
    const checkpointer = new FileCheckpointer({ store: new MemorySessionStore(), sessionId: "s", workspaceRoot: root });
    const write = findTool(createDefaultTools({ workspaceRoot: root, preset: "edit", checkpointer }), "write_file");
    await expect(runTool(write, { path: "x.txt", content: "x" }, toolContext())).rejects.toThrow(FileCheckpointError);
    expect(await exists("x.txt")).toBe(false);
  });

  it("guardTools checkpoints the file a file tool names before it runs, keeps a class tool's methods, and leaves other tools alone", async () => {
    const store = new MemorySessionStore();
    await store.createSession({ id: "s" });
    await writeFile(path.join(root, "k.txt"), "kept");
    class WriteTool {
      name = "write_file";
      description = "writes";
      inputSchema = { type: "object" };
      validate(input: unknown) {
        return { ok: true as const, value: input };
      }
      async execute(input: { path: string; content: string }) {
        await writeFile(path.join(root, input.path), input.content);
        return "written";
      }
    }
    const other = { name: "echo", description: "", inputSchema: {}, execute: () => "hi" };
    const checkpointer = new FileCheckpointer({ store, sessionId: "s", workspaceRoot: root });
    checkpointer.setMessageId("m1");
    const [guarded, untouched] = checkpointer.guardTools([new WriteTool(), other]);
    expect(untouched).toBe(other);
    expect(guarded!.validate?.({ a: 1 })).toEqual({ ok: true, value: { a: 1 } });
    expect(await runTool(guarded!, { path: "k.txt", content: "changed" })).toBe("written");
    const [checkpoint] = await store.listFileCheckpoints("s");
    expect(checkpoint).toMatchObject({ messageId: "m1", path: "k.txt" });
    expect(Buffer.from(checkpoint!.content!).toString()).toBe("kept");
  });

  it("never restores outside the workspace, whatever the store says", async () => {
    const store = new MemorySessionStore();
    await store.createSession({ id: "s" });
    await store.appendMessage("s", userMessage("go", { id: "u1" }));
    await store.saveFileCheckpoint({
      sessionId: "s",
      messageId: "u1",
      path: "../evil.txt",
      content: null,
      createdAt: 1,
    });
    await expect(restoreFileCheckpoints({ store, sessionId: "s", workspaceRoot: root })).rejects.toThrow(
      /outside the workspace/,
    );
  });
});

describe("session rewind with files", () => {
  // "session": the session checkpoints by itself (its workspace is set); "host": the host wires its own.
  it.each(["session", "host"] as const)(
    "a session whose agent edits three files is rewound to before the edits: contents and transcript back, a created file removed (checkpointer from the %s)",
    async (wiring) => {
      await mkdir(path.join(root, "src"));
      await writeFile(path.join(root, "src/a.ts"), "export const a = 1;\n");
      await writeFile(path.join(root, "src/b.ts"), "export const b = 1;\n");
      const store = new MemorySessionStore();
      const checkpointer = wiring === "host" ? new FileCheckpointer({ store, workspaceRoot: root }) : undefined;
      const tools = createDefaultTools({ workspaceRoot: root, preset: "edit", ...(checkpointer && { checkpointer }) });
      const model = createScriptedModel([
        { text: "Hello." },
        {
          toolCalls: [
            { id: "e1", name: "edit_file", input: { path: "src/a.ts", old_text: "a = 1", new_text: "a = 2" } },
            { id: "e2", name: "write_file", input: { path: "src/b.ts", content: "export const b = 2;\n" } },
          ],
        },
        {
          toolCalls: [{ id: "e3", name: "write_file", input: { path: "src/c.ts", content: "export const c = 3;\n" } }],
        },
        { text: "Edited three files." },
      ]);
      const session = await createSession({
        store,
        model,
        tools,
        ...(checkpointer && { hooks: checkpointer.hooks }),
        workspaceRoot: root,
      });
      await session.send("say hello");
      const before = await session.history();
      const result = await session.send("edit the files");
      expect(result.status).toBe("completed");
      expect(await read("src/a.ts")).toBe("export const a = 2;\n");
      expect(await read("src/c.ts")).toBe("export const c = 3;\n");
      // One checkpoint per file, whichever checkpointer took it.
      expect((await store.listFileCheckpoints(session.id)).map((c) => c.path).sort()).toEqual([
        "src/a.ts",
        "src/b.ts",
        "src/c.ts",
      ]);

      const lastKept = before.at(-1)!.id;
      const preview = await session.previewRewind(lastKept);
      expect(preview.files).toEqual([
        { path: "src/a.ts", action: "restore" },
        { path: "src/b.ts", action: "restore" },
        { path: "src/c.ts", action: "delete" },
      ]);
      await session.rewind(lastKept, { files: true });
      expect(await read("src/a.ts")).toBe("export const a = 1;\n");
      expect(await read("src/b.ts")).toBe("export const b = 1;\n");
      expect(await exists("src/c.ts")).toBe(false);
      expect((await session.history()).map(getMessageText)).toEqual(before.map(getMessageText));
      await session.close();
    },
  );

  it("rewind(null) undoes the first turn too: an empty history and the files as they were before it", async () => {
    await writeFile(path.join(root, "kept.txt"), "original");
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "w1", name: "write_file", input: { path: "kept.txt", content: "changed" } },
          { id: "w2", name: "write_file", input: { path: "made.txt", content: "new" } },
        ],
      },
      { text: "Wrote both." },
      { text: "Fresh start." },
    ]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      tools: createDefaultTools({ workspaceRoot: root, preset: "edit" }),
      workspaceRoot: root,
    });
    await session.send("write the files");
    expect(await read("kept.txt")).toBe("changed");
    expect((await session.previewRewind(null)).messagesRemoved).toBe(4);
    const result = await session.rewind(null, { files: true });
    expect(result.headMessageId).toBeNull();
    expect(await session.history()).toEqual([]);
    expect(await read("kept.txt")).toBe("original");
    expect(await exists("made.txt")).toBe(false);
    await session.send("again");
    expect((await session.history()).map(getMessageText)).toEqual(["again", "Fresh start."]);
    await session.close();
  });

  it("a rewind removes a file the agent created and leaves the folders it created in place", async () => {
    const model = createScriptedModel([
      { text: "Hello." },
      { toolCalls: [{ id: "w", name: "write_file", input: { path: "new/deep/f.txt", content: "x" } }] },
      { text: "Wrote it." },
    ]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      tools: createDefaultTools({ workspaceRoot: root, preset: "edit" }),
      workspaceRoot: root,
    });
    await session.send("say hello");
    const [, kept] = await session.history();
    await session.send("write the file");
    expect(await exists("new/deep/f.txt")).toBe(true);
    await session.rewind(kept!.id, { files: true });
    expect(await exists("new/deep/f.txt")).toBe(false);
    expect((await stat(path.join(root, "new/deep"))).isDirectory()).toBe(true);
    await session.close();
  });

  it("checkpoints the file a call runs with: a path changed at approval is the one saved, a denied call saves none", async () => {
    await writeFile(path.join(root, "asked.txt"), "asked before");
    await writeFile(path.join(root, "approved.txt"), "approved before");
    await writeFile(path.join(root, "denied.txt"), "denied before");
    const store = new MemorySessionStore();
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "w1", name: "write_file", input: { path: "asked.txt", content: "new" } },
          { id: "w2", name: "write_file", input: { path: "denied.txt", content: "never" } },
        ],
      },
      { text: "done" },
    ]);
    const session = await createSession({
      store,
      model,
      workspaceRoot: root,
      compaction: false,
      tools: createDefaultTools({ workspaceRoot: root, preset: "edit" }),
      toolPolicies: { "*": { autoApprove: false } },
      requestToolApproval: ({ input }) => {
        const asked = input as { path: string; content: string };
        if (asked.path === "denied.txt") return { approved: false, reason: "no" };
        return { approved: true, updatedInput: { ...asked, path: "approved.txt" } };
      },
    });
    await session.send("write the files");
    expect(await read("approved.txt")).toBe("new");
    expect(await read("asked.txt")).toBe("asked before");
    expect(await read("denied.txt")).toBe("denied before");
    expect((await store.listFileCheckpoints(session.id)).map((c) => c.path)).toEqual(["approved.txt"]);
    const [first] = await session.history();
    await session.rewind(first!.id, { files: true });
    expect(await read("approved.txt")).toBe("approved before");
    await session.close();
  });
});
