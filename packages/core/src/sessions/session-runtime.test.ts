import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentTool, getMessageText, getToolResults } from "@heddle/shared";
import { afterAll, describe, expect, it } from "vitest";
import { MemorySessionStore } from "../backends/memory/index.js";
import { defaultSessionDbPath, SqliteSessionStore } from "../backends/sqlite/index.js";
import { createSession, openSession } from "./create-session.js";
import {
  InvalidSessionInputError,
  SessionConflictError,
  SessionExistsError,
  SessionNotFoundError,
  SessionStoreClosedError,
} from "./errors.js";
import type { SessionEvent } from "./session-events.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-session-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const echo = (name = "echo", run?: (input: any) => unknown): AgentTool => ({
  name,
  description: "echoes",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  execute: (input) => (run ? run(input) : `echo:${input.text}`),
});

describe("SessionRuntime", () => {
  it("reports a listener that throws to the session's logger; the turn and the other listeners go on", async () => {
    const errors: unknown[][] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (...args: unknown[]) => void errors.push(args) };
    const model = createScriptedModel([{ text: "fine" }]);
    const session = await createSession({ store: new MemorySessionStore(), model, compaction: false, logger });
    const heard: string[] = [];
    session.subscribe((event) => {
      if (event.type === "run-started") throw new Error("ui bug");
    });
    session.subscribe((event) => void heard.push(event.type));
    const result = await session.send("hi");
    expect(result.outputText).toBe("fine");
    expect(heard).toContain("run-finished");
    expect(errors).toHaveLength(1);
    expect(String(errors[0]![0])).toContain("run-started");
    expect((errors[0]![1] as Error).message).toBe("ui bug");
    await session.close();
  });

  it("takes its tools from a function at the start of every turn, so tools may change between turns", async () => {
    const store = new MemorySessionStore();
    const model = createScriptedModel([{ text: "one" }, { text: "two" }]);
    let current: AgentTool[] = [echo("alpha")];
    const calls: string[] = [];
    const session = await createSession({
      store,
      model,
      compaction: false,
      tools: ({ sessionId }) => {
        calls.push(sessionId);
        return current;
      },
    });
    await session.send("first");
    current = [echo("beta"), echo("gamma")];
    await session.send("second");
    expect(model.requests.map((r) => r.tools.map((t) => t.name))).toEqual([["alpha"], ["beta", "gamma"]]);
    expect(calls).toEqual([session.id, session.id]);
  });

  it("stores every message and seeds each send with the whole history", async () => {
    const store = new MemorySessionStore();
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "echo", input: { text: "hi" } }] },
      { text: "first answer" },
      { text: "second answer" },
    ]);
    const session = await createSession({ store, model, tools: [echo()], title: "t", compaction: false });
    const first = await session.send("hello");
    expect(first.outputText).toBe("first answer");
    const stored = await session.history();
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    const second = await session.send("again");
    expect(second.outputText).toBe("second answer");
    const request = model.requests[2]!;
    expect(request.messages.map((m) => m.id)).toEqual([...stored.map((m) => m.id), request.messages.at(-1)!.id]);
    expect(getMessageText(request.messages.at(-1)!)).toBe("again");
    expect(await session.history()).toHaveLength(6);
  });

  it("writes the assistant message with tool calls before its tool runs, even when the store is slow", async () => {
    // A store whose writes take real time: a tool that started before the write finished would see no assistant.
    class SlowStore extends MemorySessionStore {
      override async appendMessage(...args: Parameters<MemorySessionStore["appendMessage"]>) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return super.appendMessage(...args);
      }
    }
    const store = new SlowStore();
    let seenByTool: string[] = [];
    const session = await createSession({
      store,
      model: createScriptedModel([{ toolCalls: [{ id: "c1", name: "probe", input: {} }] }, { text: "done" }]),
      tools: [
        echo("probe", async () => {
          seenByTool = (await store.getHistory(session.id)).map((m) => m.role);
          return "ok";
        }),
      ],
    });
    await session.send("go");
    expect(seenByTool).toEqual(["user", "assistant"]);
  });

  it("reports typed errors: an id that exists, an unknown id, no model, no store", async () => {
    const store = new MemorySessionStore();
    const model = createScriptedModel();
    await createSession({ store, model, id: "ses_x" });
    await expect(createSession({ store, model, id: "ses_x" })).rejects.toBeInstanceOf(SessionExistsError);
    await expect(openSession({ store, model, id: "ses_nope" })).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(createSession({ store } as never)).rejects.toThrow(/give "model", or "providerId" and "modelId"/);
    await expect(createSession({ model } as never)).rejects.toBeInstanceOf(InvalidSessionInputError);
    // Its own code: the agent runtime's invalid_input means something else.
    await expect(createSession({ model } as never)).rejects.toMatchObject({ code: "session_invalid_input" });
  });

  it("repairs a tool call left without a result by a crash, so the next request is valid", async () => {
    const store = new MemorySessionStore();
    const model = createScriptedModel([{ toolCalls: [{ id: "c1", name: "slow", input: {} }] }]);
    const session = await createSession({
      store,
      model,
      id: "ses_crash",
      tools: [echo("slow", () => new Promise(() => {}))],
    });
    const running = session.send("start");
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The process "dies" here: only what was written survives. Reopen from the same store.
    const reopenedModel = createScriptedModel([{ text: "recovered" }]);
    const reopened = await openSession({ store, model: reopenedModel, id: "ses_crash" });
    const history = await reopened.history();
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(getToolResults(history[2]!)[0]).toMatchObject({ toolCallId: "c1", isError: true });
    const result = await reopened.send("continue please");
    expect(result.outputText).toBe("recovered");
    expect(reopenedModel.requests[0]!.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    // The "dead" process wakes up and writes its aborted tool result: refused, never a silent branch.
    const acknowledged = await reopened.history();
    session.abort();
    await expect(running).rejects.toBeInstanceOf(SessionConflictError);
    expect(await reopened.history()).toEqual(acknowledged);
  });

  it("two stores on one SQLite file: a turn whose write lands on a moved head fails with SessionConflictError, and every acknowledged message stays visible", async () => {
    const path = join(dir, "two-writers.db");
    const storeA = new SqliteSessionStore({ path });
    const storeB = new SqliteSessionStore({ path });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a = await createSession({
      store: storeA,
      id: "ses_two_writers",
      compaction: false,
      model: createScriptedModel([{ toolCalls: [{ id: "w1", name: "wait", input: {} }] }, { text: "a done" }]),
      tools: [echo("wait", () => gate.then(() => "waited"))],
    });
    const turnA = a.send("from a");
    while ((await storeB.getHistory("ses_two_writers")).length < 2) await new Promise((r) => setTimeout(r, 5));
    const b = await openSession({
      store: storeB,
      id: "ses_two_writers",
      compaction: false,
      model: createScriptedModel([{ text: "b answered" }]),
    });
    await b.send("from b");
    const acknowledged = await b.history();
    release();
    const error = await turnA.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionConflictError);
    expect((error as SessionConflictError).code).toBe("session_conflict");
    expect(await a.history()).toEqual(acknowledged);
    expect(acknowledged.map(getMessageText).slice(-2)).toEqual(["from b", "b answered"]);
    await a.close();
    await b.close();
    await storeA.close();
    await storeB.close();
  });

  it("forks at a message and rewinds the head", async () => {
    const store = new MemorySessionStore();
    const model = createScriptedModel([
      { text: "a1" },
      { text: "a2" },
      { text: "fork answer" },
      { text: "after rewind" },
    ]);
    const session = await createSession({ store, model });
    await session.send("q1");
    await session.send("q2");
    const [q1, a1] = await session.history();
    const fork = await session.fork(a1!.id);
    expect((await fork.history()).map(getMessageText)).toEqual(["q1", "a1"]);
    await fork.send("fork question");
    expect((await fork.history()).map(getMessageText)).toEqual(["q1", "a1", "fork question", "fork answer"]);
    expect(await session.history()).toHaveLength(4);
    const preview = await session.previewRewind(q1!.id);
    expect(preview).toEqual({ messagesRemoved: 3, files: [] });
    await session.rewind(q1!.id);
    await session.send("q1 again");
    expect((await session.history()).map(getMessageText)).toEqual(["q1", "q1 again", "after rewind"]);
  });

  it("keeps usage per session and per model", async () => {
    const store = new MemorySessionStore();
    const a = createScriptedModel([{ text: "x", usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.01 } }], {
      provider: "pa",
      modelId: "ma",
    });
    const session = await createSession({ store, model: a, id: "ses_u" });
    await session.send("one");
    await session.close();
    const b = createScriptedModel([{ text: "y", usage: { inputTokens: 5, outputTokens: 1, costUsd: 0.5 } }], {
      provider: "pb",
      modelId: "mb",
    });
    const reopened = await openSession({ store, model: b, id: "ses_u" });
    await reopened.send("two");
    const usage = await reopened.usage();
    expect(usage.total).toMatchObject({ inputTokens: 105, outputTokens: 11 });
    expect(usage.total.costUsd).toBeCloseTo(0.51);
    expect(usage.byModel["pa/ma"]).toMatchObject({ inputTokens: 100 });
    expect(usage.byModel["pb/mb"]).toMatchObject({ inputTokens: 5 });
  });

  it("re-emits runtime events with session-saved, and streams them", async () => {
    const store = new MemorySessionStore();
    const session = await createSession({ store, model: createScriptedModel([{ text: "streamed" }]) });
    const stream = session.stream("hi");
    const events: SessionEvent[] = [];
    for await (const event of stream) events.push(event);
    const types = events.map((e) => e.type);
    expect(types).toContain("assistant-text-delta");
    expect(types.filter((t) => t === "session-saved")).toHaveLength(2);
    const saved = events.flatMap((e) => (e.type === "session-saved" ? [e.messageId] : []));
    expect(saved).toEqual((await session.history()).map((m) => m.id));
    expect(events.every((e) => e.sessionId === session.id)).toBe(true);
    expect((await stream.result).outputText).toBe("streamed");
  });

  it("aborts a running turn, keeping what was written", async () => {
    const store = new MemorySessionStore();
    const session = await createSession({
      store,
      model: createScriptedModel([{ text: "never finished", delayMs: 200 }]),
    });
    const running = session.send("slow");
    setTimeout(() => session.abort("user pressed stop"), 20);
    const result = await running;
    expect(result.status).toBe("aborted");
    expect((await session.history())[0]!.role).toBe("user");
  });

  it("refuses a second send while a turn runs, and the running turn still finishes", async () => {
    const store = new MemorySessionStore();
    const session = await createSession({
      store,
      model: createScriptedModel([{ text: "first answer", delayMs: 100 }]),
    });
    const running = session.send("first");
    await expect(session.send("second")).rejects.toMatchObject({ code: "session_busy" });
    const result = await running;
    expect(result.status).toBe("completed");
    expect((await session.history()).map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("a failing store write aborts the turn and send rejects with SessionWriteError", async () => {
    let appends = 0;
    class FullDiskStore extends MemorySessionStore {
      override async appendMessage(...args: Parameters<MemorySessionStore["appendMessage"]>) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        if (++appends === 2) throw new Error("SQLITE_FULL: database or disk is full");
        return super.appendMessage(...args);
      }
    }
    const store = new FullDiskStore();
    // Recorded, not thrown: a throw inside a tool becomes an error result and could never fail this test.
    let ran = false;
    const tool = echo("never", () => {
      ran = true;
      return "ran";
    });
    const session = await createSession({
      store,
      model: createScriptedModel([{ toolCalls: [{ id: "c1", name: "never", input: {} }] }, { text: "no" }]),
      tools: [tool],
    });
    await expect(session.send("go")).rejects.toMatchObject({ name: "SessionWriteError", code: "write_failed" });
    expect(ran).toBe(false);
    expect((await store.getHistory(session.id)).map((m) => m.role)).toEqual(["user"]);
  });

  it("close() leaves a store the caller passed open; a closed session rejects", async () => {
    const store = new MemorySessionStore();
    const session = await createSession({ store, model: createScriptedModel([{ text: "x" }]) });
    await session.close();
    await expect(session.send("late")).rejects.toBeInstanceOf(SessionStoreClosedError);
    await expect(store.listSessions()).resolves.toHaveLength(1);
  });

  it("opens the default SQLite store under the workspace when no store is given, and closes it", async () => {
    const workspaceRoot = join(dir, "ws");
    const model = createScriptedModel([{ text: "stored on disk" }]);
    const session = await createSession({ workspaceRoot, model, id: "ses_disk" });
    await session.send("persist me");
    await session.close();
    const store = new SqliteSessionStore({ path: defaultSessionDbPath(workspaceRoot) });
    expect((await store.getHistory("ses_disk")).map(getMessageText)).toEqual(["persist me", "stored on disk"]);
    expect((await store.getSession("ses_disk"))?.cwd).toBe(workspaceRoot);
    await store.close();
  });
});
