import { createScriptedModel } from "@heddle/llms/testing";
import { getMessageText, type ModelInfo } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { MemorySessionStore } from "../backends/memory/index.js";
import { createSession, openSession } from "../sessions/create-session.js";
import type { SessionEvent } from "../sessions/session-events.js";
import { summarizingCompaction } from "./summarizing.js";
import { truncatingCompaction } from "./truncating.js";

const info: ModelInfo = {
  provider: "scripted",
  id: "small",
  contextWindow: 2_000,
  maxOutputTokens: 500,
  supports: { tools: true, reasoning: false, images: false },
};
const long = (label: string) => `${label} ${"lorem ipsum ".repeat(150)}`;

describe("compaction in a session", () => {
  it("summarizes past the threshold, keeps the transcript whole, and the working context survives a reopen", async () => {
    const store = new MemorySessionStore();
    const model = createScriptedModel([{ text: long("a1") }, { text: long("a2") }, { text: long("a3") }], { info });
    const summarizer = createScriptedModel([{ text: "SUMMARY: the user asked three things; files touched: none." }]);
    const compaction = { strategy: summarizingCompaction({ model: summarizer, keepRecentTokens: 500 }) };
    const events: SessionEvent[] = [];
    const session = await createSession({ store, model, compaction, id: "ses_c" });
    session.subscribe((e) => events.push(e));
    await session.send(long("q1"));
    await session.send(long("q2"));
    expect(summarizer.requests).toHaveLength(0);
    await session.send(long("q3"));
    expect(summarizer.requests).toHaveLength(1);
    expect(events.map((e) => e.type).filter((t) => t.startsWith("compaction"))).toEqual([
      "compaction-started",
      "compaction-finished",
    ]);
    const compactedRequest = model.requests[2]!.messages;
    expect(getMessageText(compactedRequest[0]!)).toContain("SUMMARY: the user asked three things");
    expect(getMessageText(compactedRequest.at(-1)!)).toMatch(/^q3/);
    expect(await session.history()).toHaveLength(6);
    expect(await store.getWorkingContext("ses_c")).toMatchObject({ strategy: "summarizing" });
    await session.close();

    const next = createScriptedModel([{ text: "after restart" }], { info });
    const reopened = await openSession({ store, model: next, compaction, id: "ses_c" });
    await reopened.send("short follow-up");
    const request = next.requests[0]!.messages;
    expect(getMessageText(request[0]!)).toContain("SUMMARY: the user asked three things");
    expect(getMessageText(request.at(-1)!)).toBe("short follow-up");
    expect(request.length).toBeLessThan(8);
  });

  it("is on by default: a session given no compaction option summarizes with its own model past the threshold", async () => {
    const model = createScriptedModel(
      [{ text: long("a1") }, { text: long("a2") }, { text: "SUMMARY: three questions." }, { text: "a3" }],
      { info },
    );
    const session = await createSession({ store: new MemorySessionStore(), model });
    await session.send(long("q1"));
    await session.send(long("q2"));
    expect((await session.send(long("q3"))).outputText).toBe("a3");
    expect(model.requests).toHaveLength(4);
    expect(getMessageText(model.requests[3]!.messages[0]!)).toContain("SUMMARY: three questions.");
    expect(await session.history()).toHaveLength(6);
  });

  it("compacts on a context_overflow error and the run goes on", async () => {
    const store = new MemorySessionStore();
    const model = createScriptedModel([
      { text: long("a1") },
      { error: { kind: "context_overflow", message: "prompt is too long" } },
      { text: "fits now" },
    ]);
    const events: SessionEvent[] = [];
    const session = await createSession({
      store,
      model,
      compaction: { strategy: truncatingCompaction({ keepRecentTokens: 50 }) },
    });
    session.subscribe((e) => events.push(e));
    await session.send("q1");
    const result = await session.send("q2");
    expect(result.outputText).toBe("fits now");
    expect(events.find((e) => e.type === "compaction-started")).toMatchObject({ reason: "overflow" });
    expect(model.requests[1]!.messages.map(getMessageText)).toContain(long("a1"));
    expect(model.requests[2]!.messages.map(getMessageText)).not.toContain(long("a1"));
    expect((await session.history()).map(getMessageText)).toContain(long("a1"));
  });

  it("calls the PreCompact hook point before compacting", async () => {
    const seen: string[] = [];
    const model = createScriptedModel([{ text: long("a1") }, { text: long("a2") }], { info });
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      compaction: {
        strategy: truncatingCompaction({ keepRecentTokens: 300 }),
        threshold: 0.5,
        onPreCompact: (ctx) => void seen.push(`${ctx.reason}:${ctx.strategy}:${ctx.sessionId === session.id}`),
      },
    });
    await session.send(long("q1"));
    await session.send(long("q2"));
    expect(seen).toEqual(["threshold:truncating:true"]);
  });
});
