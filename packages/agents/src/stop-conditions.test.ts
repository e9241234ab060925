import { assistantMessage, emptyUsage, type StopConditionContext } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { allOf, anyOf, costExceeds, hasToolCall, stepCountIs, tokensExceed } from "./stop-conditions.js";

const ctx = (over: Partial<StopConditionContext> = {}): StopConditionContext => ({
  iteration: 1,
  usage: emptyUsage(),
  newMessages: [],
  lastMessage: assistantMessage([{ type: "tool-call", toolCallId: "c", toolName: "search", input: {} }]),
  ...over,
});

describe("stop conditions", () => {
  it("each helper holds exactly when its limit is reached", async () => {
    expect(await stepCountIs(2)(ctx())).toBe(false);
    expect(await stepCountIs(2)(ctx({ iteration: 2 }))).toBe(true);
    expect(await hasToolCall("search")(ctx())).toBe(true);
    expect(await hasToolCall("write")(ctx())).toBe(false);
    expect(await costExceeds(0.5)(ctx({ usage: { ...emptyUsage(), costUsd: 0.5 } }))).toBe(false);
    expect(await costExceeds(0.5)(ctx({ usage: { ...emptyUsage(), costUsd: 0.51 } }))).toBe(true);
    const usage = { ...emptyUsage(), inputTokens: 60, cacheReadTokens: 30, outputTokens: 20 };
    expect(await tokensExceed(100)(ctx({ usage }))).toBe(true);
    expect(await tokensExceed(110)(ctx({ usage }))).toBe(false);
  });

  it("composes with anyOf/allOf and carries a readable name", async () => {
    const any = anyOf(stepCountIs(5), hasToolCall("search"));
    const all = allOf(stepCountIs(5), hasToolCall("search"));
    expect(await any(ctx())).toBe(true);
    expect(await all(ctx())).toBe(false);
    expect(await all(ctx({ iteration: 5 }))).toBe(true);
    expect(any.name).toBe("anyOf(stepCountIs(5), hasToolCall(search))");
  });

  it("rejects nonsense limits with a clear error", () => {
    expect(() => stepCountIs(0)).toThrow(/stepCountIs: expected a number >= 1/);
    expect(() => hasToolCall("")).toThrow(/tool name/);
  });
});
