import { type AgentMessage, assistantMessage, toolResultMessage, userMessage } from "@heddle/shared";
import { afterEach, describe, expect, it } from "vitest";
import {
  InvalidSessionInputError,
  MessageNotFoundError,
  SessionExistsError,
  SessionNotFoundError,
  SessionStoreClosedError,
} from "../sessions/errors.js";
import type { SessionStore } from "../sessions/store.js";

/**
 * Opens a store at `location`. Calling it again with the same location must open the same data (a reopen after
 * a restart); a new location must be empty. Each test gets its own location.
 */
export type MakeSessionStore = (location: string) => SessionStore | Promise<SessionStore>;

let locationCounter = 0;

/**
 * The behaviour every `SessionStore` must have, as a vitest suite. Call it at the top level of a test file:
 * `runSessionStoreConformance("my store", (location) => new MyStore(location))`.
 */
export function runSessionStoreConformance(name: string, makeStore: MakeSessionStore): void {
  describe(`SessionStore conformance: ${name}`, () => {
    const opened: SessionStore[] = [];
    let location = "";
    const open = async (): Promise<SessionStore> => {
      const store = await makeStore(location);
      opened.push(store);
      return store;
    };
    const fresh = async (): Promise<SessionStore> => {
      location = `conformance-${process.pid}-${Date.now()}-${++locationCounter}`;
      return open();
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    const chain = async (store: SessionStore, sessionId: string, texts: string[]): Promise<AgentMessage[]> => {
      const out: AgentMessage[] = [];
      for (const text of texts) {
        const message = userMessage(text);
        await store.appendMessage(sessionId, message);
        out.push(message);
      }
      return out;
    };

    it("creates, gets, lists, updates and deletes sessions", async () => {
      const store = await fresh();
      const a = await store.createSession({ id: "ses_a", title: "A", model: { provider: "p", id: "m" }, cwd: "/w" });
      expect(a).toMatchObject({ id: "ses_a", title: "A", model: { provider: "p", id: "m" }, cwd: "/w" });
      expect(a.headMessageId).toBeNull();
      expect(a.usage.inputTokens).toBe(0);
      await expect(store.createSession({ id: "ses_a" })).rejects.toBeInstanceOf(SessionExistsError);
      const b = await store.createSession({ title: "B" });
      expect(b.id).toMatch(/\S/);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.appendMessage(a.id, userMessage("touch a so it is the most recent"));
      const list = await store.listSessions();
      expect(list.map((s) => s.id)).toEqual([a.id, b.id]);
      expect(await store.listSessions({ limit: 1 })).toHaveLength(1);
      const updated = await store.updateSession(b.id, { title: "B2", metadata: { tag: "x" } });
      expect(updated).toMatchObject({ title: "B2", metadata: { tag: "x" } });
      expect(await store.getSession("missing")).toBeUndefined();
      expect(await store.deleteSession(a.id)).toBe(true);
      expect(await store.deleteSession(a.id)).toBe(false);
      expect(await store.getSession(a.id)).toBeUndefined();
      await expect(store.getHistory(a.id)).rejects.toBeInstanceOf(SessionNotFoundError);
    });

    it("appends messages in order and reads the history root first", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      const first = userMessage("hello");
      const reply = assistantMessage([{ type: "tool-call", toolCallId: "c1", toolName: "t", input: { a: 1 } }], {
        model: { provider: "p", id: "m" },
        usage: {
          inputTokens: 1,
          outputTokens: 2,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          reasoningTokens: 0,
          costUsd: 0.5,
        },
      });
      const result = toolResultMessage([{ type: "tool-result", toolCallId: "c1", toolName: "t", output: "ok" }]);
      const s1 = await store.appendMessage(id, first);
      const s2 = await store.appendMessage(id, reply);
      await store.appendMessage(id, result);
      expect(s1.parentId).toBeNull();
      expect(s2.parentId).toBe(first.id);
      expect(s2.seq).toBeGreaterThan(s1.seq);
      expect(await store.getHistory(id)).toEqual([first, reply, result]);
      expect((await store.getSession(id))?.headMessageId).toBe(result.id);
      expect((await store.getMessage(id, reply.id))?.message).toEqual(reply);
      expect(await store.getMessage(id, "nope")).toBeUndefined();
    });

    it("rejects bad input with typed errors", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      await expect(store.appendMessage("missing", userMessage("x"))).rejects.toBeInstanceOf(SessionNotFoundError);
      await expect(store.appendMessage(id, { ...userMessage("x"), id: "" })).rejects.toBeInstanceOf(
        InvalidSessionInputError,
      );
      await expect(store.appendMessage(id, userMessage("x"), { parentId: "msg_nope" })).rejects.toBeInstanceOf(
        MessageNotFoundError,
      );
      const m = userMessage("once");
      await store.appendMessage(id, m);
      await expect(store.appendMessage(id, m)).rejects.toBeInstanceOf(InvalidSessionInputError);
      await expect(store.setHead(id, "msg_nope")).rejects.toBeInstanceOf(MessageNotFoundError);
      await expect(store.forkSession(id, "msg_nope")).rejects.toBeInstanceOf(MessageNotFoundError);
      expect(await store.getHistory(id)).toEqual([m]);
    });

    it("does not keep a reference to the caller's message", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      const m = userMessage("original");
      await store.appendMessage(id, m);
      (m.content[0] as { text: string }).text = "mutated";
      const [read] = await store.getHistory(id);
      expect((read!.content[0] as { text: string }).text).toBe("original");
    });

    it("forks at a message: the fork has the path, later writes stay apart, deleting the source keeps the fork", async () => {
      const store = await fresh();
      const { id } = await store.createSession({ title: "src" });
      const [m1, m2, m3] = await chain(store, id, ["one", "two", "three"]);
      const fork = await store.forkSession(id, m2!.id, { title: "fork" });
      expect(fork).toMatchObject({
        parentSessionId: id,
        forkedFromMessageId: m2!.id,
        headMessageId: m2!.id,
        title: "fork",
      });
      expect(await store.getHistory(fork.id)).toEqual([m1, m2]);
      const f3 = userMessage("fork three");
      await store.appendMessage(fork.id, f3);
      expect(await store.getHistory(fork.id)).toEqual([m1, m2, f3]);
      expect(await store.getHistory(id)).toEqual([m1, m2, m3]);
      await store.deleteSession(id);
      expect(await store.getHistory(fork.id)).toEqual([m1, m2, f3]);
    });

    it("rewinds by moving the head; a new append branches and the old branch stays readable", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      const [m1, m2, m3] = await chain(store, id, ["one", "two", "three"]);
      await store.setHead(id, m1!.id);
      expect(await store.getHistory(id)).toEqual([m1]);
      const b2 = userMessage("branch two");
      const stored = await store.appendMessage(id, b2);
      expect(stored.parentId).toBe(m1!.id);
      expect(await store.getHistory(id)).toEqual([m1, b2]);
      expect(await store.getHistory(id, { headMessageId: m3!.id })).toEqual([m1, m2, m3]);
      await store.setHead(id, null);
      expect(await store.getHistory(id)).toEqual([]);
      const root = userMessage("new root");
      expect((await store.appendMessage(id, root)).parentId).toBeNull();
    });

    it("keeps everything across a reopen", async () => {
      const store = await fresh();
      const { id } = await store.createSession({ title: "kept", cwd: "/w" });
      const messages = await chain(store, id, ["a", "b", "c"]);
      await store.addUsage(id, { provider: "p", id: "m" }, { inputTokens: 10, outputTokens: 4, costUsd: 0.25 });
      await store.saveWorkingContext(id, {
        messages: [userMessage("summary")],
        basedOnMessageId: messages[1]!.id,
        strategy: "summarizing",
        createdAt: 1,
      });
      await store.saveFileCheckpoint({
        sessionId: id,
        messageId: messages[2]!.id,
        path: "a.txt",
        content: null,
        createdAt: 2,
      });
      await store.close();
      const reopened = await open();
      expect(await reopened.getHistory(id)).toEqual(messages);
      expect(await reopened.getSession(id)).toMatchObject({ title: "kept", cwd: "/w", headMessageId: messages[2]!.id });
      expect((await reopened.getSession(id))?.usage).toMatchObject({ inputTokens: 10, outputTokens: 4, costUsd: 0.25 });
      expect((await reopened.getWorkingContext(id))?.basedOnMessageId).toBe(messages[1]!.id);
      expect(await reopened.listFileCheckpoints(id)).toHaveLength(1);
    });

    it("loses nothing under concurrent appends, to one session and to several, from two store handles", async () => {
      const store = await fresh();
      const other = await open();
      const { id } = await store.createSession();
      const ids = await Promise.all([1, 2, 3, 4].map(async () => (await store.createSession()).id));
      const batch = Array.from({ length: 40 }, (_, i) => userMessage(`m${i}`));
      await Promise.all(batch.map((m, i) => (i % 2 ? other : store).appendMessage(id, m)));
      const history = await store.getHistory(id);
      expect(history).toHaveLength(40);
      expect(new Set(history.map((m) => m.id))).toEqual(new Set(batch.map((m) => m.id)));
      await Promise.all(
        ids.flatMap((sid) => [0, 1, 2].map((i) => other.appendMessage(sid, userMessage(`${sid}-${i}`)))),
      );
      for (const sid of ids) expect(await store.getHistory(sid)).toHaveLength(3);
    });

    it("round-trips unicode and a 1 MB message exactly", async () => {
      const store = await fresh();
      const { id } = await store.createSession({ title: "Ünïcødé 🧵 标题" });
      const unicode = userMessage("emoji 🧵🪡, CJK 機織り, RTL שלום, combining é, NUL-free \u2028 line sep, 𝔘");
      const big = assistantMessage(`${"x".repeat(1024 * 1024 - 7)}🧵end`);
      await store.appendMessage(id, unicode);
      await store.appendMessage(id, big);
      const history = await store.getHistory(id);
      expect(history).toEqual([unicode, big]);
      expect((await store.getSession(id))?.title).toBe("Ünïcødé 🧵 标题");
    });

    it("adds usage per session and per model", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      await store.addUsage(id, { provider: "a", id: "one" }, { inputTokens: 100, outputTokens: 10, costUsd: 0.1 });
      await store.addUsage(id, { provider: "b", id: "two" }, { inputTokens: 50, cacheReadTokens: 5, costUsd: 0.2 });
      const record = await store.addUsage(id, { provider: "a", id: "one" }, { outputTokens: 1, costUsd: 0.1 });
      expect(record.usage).toMatchObject({ inputTokens: 150, outputTokens: 11, cacheReadTokens: 5 });
      expect(record.usage.costUsd).toBeCloseTo(0.4);
      expect(record.usageByModel["a/one"]).toMatchObject({ inputTokens: 100, outputTokens: 11 });
      expect(record.usageByModel["b/two"]?.costUsd).toBeCloseTo(0.2);
    });

    it("stores, replaces and clears the working context beside the transcript", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      const messages = await chain(store, id, ["a", "b"]);
      expect(await store.getWorkingContext(id)).toBeUndefined();
      const context = {
        messages: [userMessage("sum")],
        basedOnMessageId: messages[0]!.id,
        strategy: "s",
        createdAt: 5,
      };
      await store.saveWorkingContext(id, context);
      await store.saveWorkingContext(id, { ...context, basedOnMessageId: messages[1]!.id });
      expect(await store.getWorkingContext(id)).toEqual({ ...context, basedOnMessageId: messages[1]!.id });
      expect(await store.getHistory(id)).toEqual(messages);
      await expect(store.saveWorkingContext(id, { ...context, basedOnMessageId: "msg_nope" })).rejects.toBeInstanceOf(
        MessageNotFoundError,
      );
      await store.saveWorkingContext(id, null);
      expect(await store.getWorkingContext(id)).toBeUndefined();
    });

    it("keeps file checkpoints in write order, with absent files and binary content, filtered by message", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      const [m1, m2] = await chain(store, id, ["edit a", "edit b"]);
      const bytes = new Uint8Array([0, 255, 1, 128, 10]);
      await store.saveFileCheckpoint({ sessionId: id, messageId: m1!.id, path: "a.txt", content: bytes, createdAt: 1 });
      await store.saveFileCheckpoint({
        sessionId: id,
        messageId: m2!.id,
        path: "new.txt",
        content: null,
        createdAt: 2,
      });
      await store.saveFileCheckpoint({
        sessionId: id,
        messageId: m2!.id,
        path: "empty.txt",
        content: new Uint8Array(0),
        createdAt: 3,
      });
      const all = await store.listFileCheckpoints(id);
      expect(all.map((c) => c.path)).toEqual(["a.txt", "new.txt", "empty.txt"]);
      expect(Array.from(all[0]!.content!)).toEqual([0, 255, 1, 128, 10]);
      expect(all[1]!.content).toBeNull();
      expect(all[2]!.content).toBeInstanceOf(Uint8Array);
      expect(all[2]!.content).toHaveLength(0);
      const after = await store.listFileCheckpoints(id, { afterMessageId: m1!.id });
      expect(after.map((c) => c.path)).toEqual(["new.txt", "empty.txt"]);
      expect(after[0]).toMatchObject({ sessionId: id, messageId: m2!.id, createdAt: 2 });
      await expect(store.listFileCheckpoints(id, { afterMessageId: "msg_nope" })).rejects.toBeInstanceOf(
        MessageNotFoundError,
      );
    });

    it("rejects every call once closed", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      await store.close();
      const calls: Array<() => Promise<unknown>> = [
        () => store.createSession(),
        () => store.getSession(id),
        () => store.listSessions(),
        () => store.appendMessage(id, userMessage("late")),
        () => store.getHistory(id),
        () => store.setHead(id, null),
        () => store.addUsage(id, undefined, { inputTokens: 1 }),
        () => store.saveFileCheckpoint({ sessionId: id, messageId: "m", path: "p", content: null, createdAt: 0 }),
        () => store.listFileCheckpoints(id),
        () => store.deleteSession(id),
      ];
      for (const call of calls) await expect(call()).rejects.toBeInstanceOf(SessionStoreClosedError);
      await expect(store.close()).resolves.toBeUndefined();
    });
  });
}
