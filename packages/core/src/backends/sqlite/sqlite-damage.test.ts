import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScriptedModel } from "@heddle/llms/testing";
import {
  type AgentMessage,
  assistantMessage,
  getMessageText,
  isHeddleError,
  toolResultMessage,
  userMessage,
} from "@heddle/shared";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createSession, openSession } from "../../sessions/index.js";
import { SessionDatabaseError } from "./sqlite-errors.js";
import type { UnreadableRow } from "./sqlite-rows.js";
import { defaultSessionDbPath, SqliteSessionStore } from "./sqlite-store.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-damage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe("a session database that cannot be used", () => {
  it("a file of garbage bytes is a database_corrupt error naming the file, from the store and from createSession", async () => {
    const path = join(dir, "garbage.db");
    writeFileSync(path, Buffer.from("this is not an SQLite file at all, just some bytes ".repeat(200)));
    let error: unknown;
    try {
      new SqliteSessionStore({ path });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SessionDatabaseError);
    expect(isHeddleError(error, "database_corrupt")).toBe(true);
    expect((error as SessionDatabaseError).path).toBe(path);
    expect((error as Error).message).toContain(path);
    expect((error as SessionDatabaseError).sqliteCode).toBe("SQLITE_NOTADB");

    const workspaceRoot = join(dir, "workspace-with-garbage");
    const dbPath = defaultSessionDbPath(workspaceRoot);
    new SqliteSessionStore({ path: dbPath }).close();
    rmSync(`${dbPath}-wal`, { force: true });
    rmSync(`${dbPath}-shm`, { force: true });
    writeFileSync(dbPath, Buffer.alloc(8192, 0x5a));
    await expect(createSession({ workspaceRoot, model: createScriptedModel([]) })).rejects.toMatchObject({
      code: "database_corrupt",
      path: dbPath,
    });
  });
});

describe("a session with an unreadable row", () => {
  async function damagedSession(): Promise<{ path: string; messages: AgentMessage[] }> {
    const path = join(dir, `bad-row-${Date.now()}-${Math.random()}.db`);
    const store = new SqliteSessionStore({ path });
    await store.createSession({ id: "ses_bad" });
    const messages = [
      userMessage("read a.txt"),
      assistantMessage([{ type: "tool-call", toolCallId: "c1", toolName: "read_file", input: { path: "a.txt" } }]),
      toolResultMessage([{ type: "tool-result", toolCallId: "c1", toolName: "read_file", output: "contents" }]),
      assistantMessage("a.txt says contents"),
      userMessage("thanks"),
      assistantMessage("you are welcome"),
    ];
    for (const message of messages) await store.appendMessage("ses_bad", message);
    await store.close();
    // The assistant message with the tool call is damaged on disk (a bad write, a manual edit, a disk error).
    const db = new Database(path);
    db.prepare("UPDATE messages SET data = ? WHERE id = ?").run('{"id": "broken", "role": "assist', messages[1]!.id);
    db.close();
    return { path, messages };
  }

  it("is skipped and reported once; the rest loads, is valid for the next request, and new turns are stored", async () => {
    const { path, messages } = await damagedSession();
    const reported: UnreadableRow[] = [];
    const warnings: string[] = [];
    const store = new SqliteSessionStore({
      path,
      logger: { ...quiet, warn: (message) => void warnings.push(message) },
      onUnreadableRow: (row) => void reported.push(row),
    });
    const model = createScriptedModel([{ text: "still here" }]);
    const session = await openSession({ store, id: "ses_bad", model, compaction: false });
    const history = await session.history();
    // The call's result lost its call, so it goes too: no tool result without its call reaches a vendor.
    expect(history.map(getMessageText)).toEqual(["read a.txt", "a.txt says contents", "thanks", "you are welcome"]);
    expect(reported).toEqual([
      expect.objectContaining({ path, table: "messages", sessionId: "ses_bad", messageId: messages[1]!.id }),
    ]);
    expect(store.unreadableRows()).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(path);

    const result = await session.send("one more question");
    expect(result.outputText).toBe("still here");
    const request = model.requests[0]!.messages;
    expect(request.some((m) => m.role === "tool")).toBe(false);
    expect(request.map(getMessageText).slice(-2)).toEqual(["you are welcome", "one more question"]);
    expect((await session.history()).map(getMessageText).slice(-2)).toEqual(["one more question", "still here"]);
    expect(reported).toHaveLength(1);
    await session.close();
    await store.close();
  });

  it("a damaged head row still lets the session go on: new messages link to the stored head", async () => {
    const path = join(dir, "bad-head.db");
    const store = new SqliteSessionStore({ path, logger: quiet });
    await store.createSession({ id: "ses_head" });
    const first = userMessage("hello");
    const last = assistantMessage("hi there");
    await store.appendMessage("ses_head", first);
    await store.appendMessage("ses_head", last);
    const db = new Database(path);
    db.prepare("UPDATE messages SET data = 'not json' WHERE id = ?").run(last.id);
    db.close();
    const session = await openSession({
      store,
      id: "ses_head",
      model: createScriptedModel([{ text: "answer" }]),
      compaction: false,
    });
    await session.send("next");
    expect((await session.history()).map(getMessageText)).toEqual(["hello", "next", "answer"]);
    expect((await store.getMessage("ses_head", (await session.history())[1]!.id))?.parentId).toBe(last.id);
    await session.close();
    await store.close();
  });

  it("an unreadable usage column reads as zero usage, reported, and the session still opens", async () => {
    const path = join(dir, "bad-usage.db");
    const store = new SqliteSessionStore({ path, logger: quiet });
    await store.createSession({ id: "ses_usage" });
    const db = new Database(path);
    db.prepare("UPDATE sessions SET usage = '{oops' WHERE id = 'ses_usage'").run();
    db.close();
    const record = await store.getSession("ses_usage");
    expect(record?.usage.inputTokens).toBe(0);
    expect(store.unreadableRows()).toEqual([expect.objectContaining({ table: "sessions", sessionId: "ses_usage" })]);
    const after = await store.addUsage("ses_usage", undefined, { inputTokens: 3 });
    expect(after.usage.inputTokens).toBe(3);
    await store.close();
  });
});
