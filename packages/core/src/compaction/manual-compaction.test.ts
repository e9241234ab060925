import { createScriptedModel } from "@heddle/llms/testing";
import { getMessageText } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { MemorySessionStore } from "../backends/memory/index.js";
import { createSession } from "../sessions/create-session.js";
import { InvalidSessionInputError, SessionStoreError } from "../sessions/errors.js";
import type { SessionEvent } from "../sessions/session-events.js";
import { summarizingCompaction } from "./summarizing.js";
import { truncatingCompaction } from "./truncating.js";

const long = (label: string) => `${label} ${"lorem ipsum ".repeat(100)}`;

describe("session.compact()", () => {
  it("compacts now, below any threshold; the next request uses it and the transcript stays whole", async () => {
    const store = new MemorySessionStore();
    const model = createScriptedModel([{ text: long("a1") }, { text: long("a2") }, { text: "a3" }]);
    const summarizer = createScriptedModel([{ text: "SUMMARY: q1 and a1 were about lorem ipsum." }]);
    const session = await createSession({
      store,
      model,
      compaction: { strategy: summarizingCompaction({ model: summarizer, keepRecentTokens: 400 }) },
    });
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    await session.send(long("q1"));
    await session.send(long("q2"));

    const outcome = await session.compact();
    expect(outcome.compacted).toBe(true);
    expect(outcome.tokensAfter).toBeLessThan(outcome.tokensBefore);
    expect(events.filter((e) => e.type.startsWith("compaction"))).toMatchObject([
      { type: "compaction-started", reason: "manual", strategy: "summarizing" },
      { type: "compaction-finished", reason: "manual", tokensBefore: outcome.tokensBefore },
    ]);
    expect(await store.getWorkingContext(session.id)).toMatchObject({ strategy: "summarizing" });

    await session.send("q3");
    const request = model.requests[2]!.messages.map(getMessageText);
    expect(request[0]).toContain("SUMMARY: q1 and a1 were about lorem ipsum.");
    expect(request).not.toContain(long("q1"));
    expect(request.at(-1)).toBe("q3");
    expect((await session.history()).map(getMessageText)).toEqual([
      long("q1"),
      long("a1"),
      long("q2"),
      long("a2"),
      "q3",
      "a3",
    ]);
  });

  it("summarizes all but the newest message of a small context when asked by hand", async () => {
    const model = createScriptedModel([{ text: "a1" }, { text: "a2" }]);
    const summarizer = createScriptedModel([{ text: "SUMMARY of q1/a1" }]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      compaction: { strategy: summarizingCompaction({ model: summarizer }) },
    });
    await session.send("q1");
    expect(await session.compact()).toMatchObject({ compacted: true });
    expect(getMessageText(summarizer.requests[0]!.messages[0]!)).toContain("q1");
    await session.send("q2");
    const request = model.requests[1]!.messages.map(getMessageText);
    expect(request[0]).toContain("SUMMARY of q1/a1");
    expect(request.at(-1)).toBe("q2");
  });

  it("reports a strategy failure without changing the working context", async () => {
    const session = await createSession({
      store: new MemorySessionStore(),
      model: createScriptedModel([{ text: "short" }]),
      compaction: { strategy: truncatingCompaction({ keepRecentTokens: 10_000 }) },
    });
    await session.send("hi");
    const outcome = await session.compact();
    expect(outcome).toMatchObject({ compacted: false, error: expect.stringMatching(/nothing left to drop/) });
    expect(await session.store.getWorkingContext(session.id)).toBeUndefined();
  });

  it("is refused while a turn runs, and when compaction is off", async () => {
    const session = await createSession({
      store: new MemorySessionStore(),
      model: createScriptedModel([{ text: "slow", delayMs: 50 }]),
    });
    const turn = session.send("go");
    await expect(session.compact()).rejects.toBeInstanceOf(SessionStoreError);
    await expect(session.compact()).rejects.toThrow(/not allowed while a turn is running/);
    await turn;

    const off = await createSession({
      store: new MemorySessionStore(),
      model: createScriptedModel([]),
      compaction: false,
    });
    await expect(off.compact()).rejects.toBeInstanceOf(InvalidSessionInputError);
  });

  it("holds off a send until it has finished", async () => {
    const summarizer = createScriptedModel([{ text: "SUMMARY", delayMs: 30 }]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model: createScriptedModel([{ text: long("a1") }, { text: long("a2") }]),
      compaction: { strategy: summarizingCompaction({ model: summarizer, keepRecentTokens: 50 }) },
    });
    await session.send(long("q1"));
    const compaction = session.compact();
    await expect(session.send("too early")).rejects.toThrow(/already running a turn/);
    expect(await compaction).toMatchObject({ compacted: true });
  });
});
