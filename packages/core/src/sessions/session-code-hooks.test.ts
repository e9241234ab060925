import { createScriptedModel } from "@heddle/llms/testing";
import { getMessageText } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { MemorySessionStore } from "../backends/memory/index.js";
import { summarizingCompaction } from "../compaction/summarizing.js";
import { createSession, openSession } from "./create-session.js";
import type { PreCompactHookContext } from "./session-lifecycle.js";

const lastText = (model: ReturnType<typeof createScriptedModel>, index: number) =>
  model.requests[index]!.messages.map(getMessageText).join("\n");

describe("a session's own hooks in code", () => {
  it("sessionStart runs once per created or opened session (startup, resume) and its context reaches the first request", async () => {
    const store = new MemorySessionStore();
    const sources: string[] = [];
    const hooks = {
      sessionStart: ({ source }: { source: string }) => {
        sources.push(source);
        return { appendContext: `started as ${source}` };
      },
    };
    const model = createScriptedModel([{ text: "a" }, { text: "b" }, { text: "c" }]);
    const session = await createSession({ store, model, hooks });
    await session.send("one");
    await session.send("two");
    expect(sources).toEqual(["startup"]);
    expect(lastText(model, 0)).toContain("started as startup");
    // The second request carries the one stored context message, not a second one.
    expect(lastText(model, 1).split("started as startup")).toHaveLength(2);
    const reopened = await openSession({ store, id: session.id, model, hooks });
    await reopened.send("three");
    expect(sources).toEqual(["startup", "resume"]);
    expect(lastText(model, 2)).toContain("started as resume");
  });

  it("userPromptSubmit sees the prompt and adds context; a stop blocks the turn: no request, nothing stored, later hooks not called", async () => {
    const prompts: string[] = [];
    const model = createScriptedModel([{ text: "answer" }]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      hooks: {
        userPromptSubmit: [
          ({ prompt }) => {
            prompts.push(prompt);
            return prompt.includes("secret")
              ? { stop: true, reason: "no secrets" }
              : { appendContext: "Today is Monday." };
          },
          ({ prompt }) => void prompts.push(`second saw ${prompt}`),
        ],
      },
    });
    const blocked = await session.send("my secret is 42");
    expect(blocked).toMatchObject({ status: "aborted", reason: "hook_stop", reasonDetail: "no secrets" });
    expect(model.requests).toHaveLength(0);
    expect(await session.history()).toEqual([]);

    await session.send("hello");
    expect(prompts).toEqual(["my secret is 42", "hello", "second saw hello"]);
    expect(lastText(model, 0)).toContain("Today is Monday.");
  });

  it("preCompact runs after onPreCompact with the instructions so far: a skip skips the compaction, instructions reach the summary", async () => {
    const summarizer = createScriptedModel([{ text: "SUMMARY" }]);
    const long = (label: string) => `${label} ${"lorem ipsum ".repeat(100)}`;
    const seen: PreCompactHookContext[] = [];
    let skip = true;
    const session = await createSession({
      store: new MemorySessionStore(),
      model: createScriptedModel([{ text: long("a1") }, { text: long("a2") }]),
      compaction: {
        strategy: summarizingCompaction({ model: summarizer, keepRecentTokens: 50 }),
        onPreCompact: () => ({ instructions: "Mention the tests." }),
      },
      hooks: {
        preCompact: (ctx) => {
          seen.push(ctx);
          return skip ? { skip: true } : { instructions: "Keep the API decisions." };
        },
      },
    });
    await session.send(long("q1"));
    await session.send(long("q2"));
    expect(await session.compact()).toMatchObject({ compacted: false, skipped: true });
    expect(summarizer.requests).toHaveLength(0);

    skip = false;
    expect(await session.compact()).toMatchObject({ compacted: true });
    expect(getMessageText(summarizer.requests[0]!.messages[0]!)).toContain(
      "Mention the tests.\n\nKeep the API decisions.",
    );
    expect(seen[0]).toMatchObject({ sessionId: session.id, trigger: "manual", instructions: "Mention the tests." });
  });

  it("sessionEnd runs on close, with the reason", async () => {
    const ends: unknown[] = [];
    const session = await createSession({
      store: new MemorySessionStore(),
      model: createScriptedModel([{ text: "a" }]),
      hooks: { sessionEnd: (ctx) => void ends.push(ctx) },
    });
    expect(ends).toEqual([]);
    await session.close();
    expect(ends).toEqual([{ sessionId: session.id, reason: "close" }]);
  });

  it("the session's hooks do not reach the loop's config as unknown hook kinds; its loop hooks still run", async () => {
    const calls: string[] = [];
    const session = await createSession({
      store: new MemorySessionStore(),
      model: createScriptedModel([{ text: "a" }]),
      hooks: { sessionStart: () => void calls.push("sessionStart"), beforeModel: () => void calls.push("beforeModel") },
    });
    await session.send("go");
    expect(calls).toEqual(["sessionStart", "beforeModel"]);
  });
});
