import {
  type AgentHooks,
  assistantMessage,
  type BeforeToolContext,
  textPart,
  toolResultMessage,
  userMessage,
} from "@heddle/shared";
import { describe, expect, it } from "vitest";
import {
  type CircuitBreakerContext,
  type CircuitBreakerSignal,
  createCircuitBreakerHooks,
  judgeLastTurn,
  judgeTurn,
} from "./circuit-breaker.js";
import { createLoopDetectionHooks, type LoopSignal } from "./loop-detection.js";

const base = { agentId: "a", runId: "r", iteration: 1, signal: new AbortController().signal };
const one = <F>(hook: F | F[] | undefined): F => (Array.isArray(hook) ? hook[0]! : hook!);
let ids = 0;
function callTool(hooks: AgentHooks, toolName: string, input: unknown = {}, id = `c${ids++}`) {
  const ctx = { ...base, toolCall: { type: "tool-call", toolCallId: id, toolName, input }, tool: {} as never, input };
  return one(hooks.beforeTool)(ctx as BeforeToolContext);
}
const call = (id: string) => ({ type: "tool-call" as const, toolCallId: id, toolName: "t", input: {} });
const result = (id: string, isError: boolean) => ({
  type: "tool-result" as const,
  toolCallId: id,
  toolName: "t",
  output: "o",
  isError,
});

describe("loop detection settings and limits", () => {
  it("names every bad field, accepts 1, and wants cycleStopRepeats above cycleWarnRepeats", () => {
    for (const field of ["warnAt", "stopAt", "cycleWindow", "maxCycleLength", "cycleWarnRepeats", "cycleStopRepeats"]) {
      expect(() => createLoopDetectionHooks({ [field]: 1.5 }), field).toThrow(`loopDetection.${field} must be`);
    }
    expect(() =>
      createLoopDetectionHooks({ warnAt: 1, stopAt: 2, cycleWarnRepeats: 1, cycleStopRepeats: 2 }),
    ).not.toThrow();
    expect(() => createLoopDetectionHooks({ cycleWarnRepeats: 3, cycleStopRepeats: 3 })).toThrow(
      "loopDetection.cycleStopRepeats (3) must be greater than cycleWarnRepeats (3)",
    );
  });

  it("tells the model what it repeated and when the run will stop", async () => {
    const signals: LoopSignal[] = [];
    const hooks = createLoopDetectionHooks({ warnAt: 2, stopAt: 3 }, (s) => signals.push(s));
    await callTool(hooks, "grep", { q: 1 });
    const warn = (await callTool(hooks, "grep", { q: 1 })) as { appendContext: string };
    expect(warn.appendContext).toContain('"grep" 2 times in a row with identical arguments');
    expect(warn.appendContext).toContain("The run stops at 3 identical calls.");
    await callTool(hooks, "grep", { q: 1 });
    expect(signals.at(-1)!.message).toBe(
      'Loop detected: "grep" was called 3 times in a row with the same arguments; the run was stopped.',
    );
  });

  it("reports a cycle's warning with its calls, and its stop with the count", async () => {
    const signals: LoopSignal[] = [];
    const hooks = createLoopDetectionHooks({}, (s) => signals.push(s));
    for (const name of ["a", "b", "a", "b", "a", "b"]) await callTool(hooks, name, { x: 1 });
    expect(signals.map(({ kind, action, count, cycle }) => ({ kind, action, count, cycle }))).toEqual([
      { kind: "cycle", action: "warn", count: 2, cycle: ["a", "b"] },
      // The cycle as it ends now: the last calls, in order.
      { kind: "cycle", action: "warn", count: 2, cycle: ["b", "a"] },
      { kind: "cycle", action: "stop", count: 3, cycle: ["a", "b"] },
    ]);
    expect(signals[0]!.message).toContain("(a → b) with the same arguments, 2 times now.");
    expect(signals[2]!.message).toContain("the calls a → b repeated 3 times");
  });

  it("works without a signal listener", async () => {
    const hooks = createLoopDetectionHooks();
    for (const name of ["a", "b", "a"]) await callTool(hooks, name);
    expect(await callTool(hooks, "b")).toMatchObject({ appendContext: expect.stringContaining("a → b") });
  });

  it("looks for a cycle only within cycleWindow recent calls and up to maxCycleLength calls long", async () => {
    const narrow = createLoopDetectionHooks({ cycleWindow: 4 });
    const outcomes = [];
    for (const name of ["a", "b", "a", "b", "a", "b", "a", "b"]) outcomes.push(await callTool(narrow, name));
    // Four calls hold two rounds at most: warnings, never the stop at three.
    expect(outcomes.filter((o) => o && "stop" in o)).toEqual([]);
    expect(outcomes.at(-1)).toMatchObject({ appendContext: expect.any(String) });

    const short = createLoopDetectionHooks({ maxCycleLength: 2 });
    for (const name of ["a", "b", "c", "a", "b", "c", "a", "b"]) expect(await callTool(short, name)).toBeUndefined();
    expect(await callTool(short, "c")).toBeUndefined();
    const longer = createLoopDetectionHooks({ maxCycleLength: 3 });
    const found = [];
    for (const name of ["a", "b", "c", "a", "b", "c"]) found.push(await callTool(longer, name));
    expect(found.at(-1)).toMatchObject({ appendContext: expect.stringContaining("a → b → c") });
  });

  it("needs every call of the cycle to repeat, with the same arguments", async () => {
    const hooks = createLoopDetectionHooks();
    for (const [name, input] of [
      ["a", 1],
      ["b", 1],
      ["a", 1],
      ["b", 2],
    ] as const) {
      expect(await callTool(hooks, name, input)).toBeUndefined();
    }
  });
});

describe("circuit breaker settings and decisions", () => {
  it("judges a turn with any valid failed call as tools_failed", () => {
    expect(judgeTurn([result("valid", true), result("bad", true)], new Set(["valid"]))).toBe("tools_failed");
  });

  it("accepts a limit of 1 and refuses 0 or a fraction, naming the value", () => {
    expect(() => createCircuitBreakerHooks({ limit: 1 })).not.toThrow();
    expect(() => createCircuitBreakerHooks({ limit: 2.5 })).toThrow(
      "circuitBreaker.limit must be a positive integer (got 2.5)",
    );
  });

  it("tells onLimitReached the kinds in order, and counts calls that reached beforeTool as valid", async () => {
    const seen: CircuitBreakerContext[] = [];
    const signals: CircuitBreakerSignal[] = [];
    const hooks = createCircuitBreakerHooks(
      {
        limit: 2,
        onLimitReached: (ctx) => {
          seen.push(ctx);
          return { action: "stop" };
        },
      },
      (s) => signals.push(s),
    );
    await callTool(hooks, "t", {}, "ran");
    const afterTurn = one(hooks.afterStep);
    expect(await afterTurn({ ...base, message: assistantMessage([call("ran")]), results: [result("ran", true)] })).toBe(
      undefined,
    );
    const stop = await afterTurn({
      ...base,
      iteration: 2,
      message: assistantMessage([call("never")]),
      results: [result("never", true)],
    });
    expect(stop).toEqual({ stop: true, reason: "circuit_breaker", status: "aborted" });
    expect(seen[0]).toMatchObject({
      failures: 2,
      limit: 2,
      kinds: ["tools_failed", "invalid_tool_calls"],
      iteration: 2,
    });
    expect(signals).toEqual([{ action: "stop", failures: 2, kinds: ["tools_failed", "invalid_tool_calls"] }]);
  });

  it("refuses a continue decision without guidance text", async () => {
    for (const guidance of ["", "   ", 42]) {
      const hooks = createCircuitBreakerHooks({
        limit: 1,
        onLimitReached: () => ({ action: "continue", guidance }) as never,
      });
      const turn = one(hooks.afterStep)({
        ...base,
        message: assistantMessage([call("x")]),
        results: [result("x", true)],
      });
      await expect(turn, String(guidance)).rejects.toThrow("a continue decision needs non-empty guidance text");
    }
  });

  it("does not count an aborted model call as a failure", async () => {
    const hooks = createCircuitBreakerHooks({ limit: 1 });
    const aborted = { kind: "aborted" as const, message: "stop", retryable: false };
    const ctx = { ...base, message: assistantMessage(""), finishReason: "error" as const, error: aborted };
    expect(await one(hooks.afterModel)(ctx)).toBeUndefined();
    const failed = { ...ctx, error: { kind: "server" as const, message: "boom", retryable: true } };
    expect(await one(hooks.afterModel)(failed)).toEqual({ stop: true, reason: "circuit_breaker", status: "aborted" });
  });
});

describe("judgeLastTurn (deprecated)", () => {
  const valid = new Set(["a"]);
  it("reads only the results after the last assistant message that made calls", () => {
    expect(judgeLastTurn([], valid)).toBeUndefined();
    expect(judgeLastTurn([userMessage("hi")], valid)).toBeUndefined();
    expect(judgeLastTurn([assistantMessage([textPart("no tools")])], valid)).toBeUndefined();
    const ok = toolResultMessage([result("a", false)]);
    const failed = toolResultMessage([result("a", true)]);
    // An old success before the last call does not count.
    expect(judgeLastTurn([assistantMessage([call("a")]), ok, assistantMessage([call("a")]), failed], valid)).toBe(
      "tools_failed",
    );
    // A user message in between holds no results; a later tool message still counts.
    expect(judgeLastTurn([assistantMessage([textPart("x"), call("a")]), userMessage("wait"), ok], valid)).toBe(
      "success",
    );
    expect(judgeLastTurn([assistantMessage([call("a")])], valid)).toBeUndefined();
  });
});
