import { assistantMessage, toolResultMessage, userMessage } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import {
  InvalidSessionInputError,
  MessageNotFoundError,
  SessionConflictError,
  SessionExistsError,
  SessionNotFoundError,
  SessionStoreClosedError,
  type TranscriptStore,
} from "../sessions/index.js";
import { chain, type MakeStore, storeHarness } from "./harness.js";

/** The behaviour of a store's transcript part (session records and the message tree), as a vitest suite. */
export function runTranscriptStoreConformance(name: string, makeStore: MakeStore<TranscriptStore>): void {
  describe(`TranscriptStore conformance: ${name}`, () => {
    const { fresh, open } = storeHarness(makeStore);

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

    it("refuses an append whose parent is no longer the head: another writer extended the session first", async () => {
      const store = await fresh();
      const other = await open();
      const { id } = await store.createSession();
      const [m1] = await chain(store, id, ["one"]);
      // Both writers read the head m1; the first to append wins, the second is told, never silently branched.
      const a = userMessage("from writer a");
      await store.appendMessage(id, a, { parentId: m1!.id });
      const b = userMessage("from writer b");
      const error = await other.appendMessage(id, b, { parentId: m1!.id }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionConflictError);
      expect((error as SessionConflictError).code).toBe("session_conflict");
      expect(await other.getHistory(id)).toEqual([m1, a]);
      expect(await other.getMessage(id, b.id)).toBeUndefined();
      await expect(store.appendMessage(id, userMessage("new root?"), { parentId: null })).rejects.toBeInstanceOf(
        SessionConflictError,
      );
      // Many writers claiming the same parent at once: exactly one is stored.
      const racers = Array.from({ length: 6 }, (_, i) => userMessage(`racer ${i}`));
      const results = await Promise.allSettled(
        racers.map((m, i) => (i % 2 ? other : store).appendMessage(id, m, { parentId: a.id })),
      );
      const rejected = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
      expect(rejected).toHaveLength(5);
      for (const r of rejected) expect(r.reason).toBeInstanceOf(SessionConflictError);
      const history = await store.getHistory(id);
      expect(history).toHaveLength(3);
      expect(history.slice(0, 2)).toEqual([m1, a]);
    });

    it("rejects every transcript call once closed", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      await store.close();
      const calls: Array<() => Promise<unknown>> = [
        () => store.createSession(),
        () => store.getSession(id),
        () => store.listSessions(),
        () => store.updateSession(id, { title: "late" }),
        () => store.appendMessage(id, userMessage("late")),
        () => store.getHistory(id),
        () => store.setHead(id, null),
        () => store.deleteSession(id),
      ];
      for (const call of calls) await expect(call()).rejects.toBeInstanceOf(SessionStoreClosedError);
      await expect(store.close()).resolves.toBeUndefined();
    });
  });
}
