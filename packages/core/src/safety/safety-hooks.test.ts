import {
  type AgentHooks,
  type AgentMessage,
  assistantMessage,
  type BeforeModelContext,
  type BeforeToolContext,
  toolResultMessage,
  userMessage,
} from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { createCircuitBreakerHooks, judgeLastTurn, judgeTurn } from "./circuit-breaker.js";
import { createLoopDetectionHooks, type LoopSignal } from "./loop-detection.js";

const base = { agentId: "a", runId: "r", iteration: 1, signal: new AbortController().signal };
const one = <F>(hook: F | F[] | undefined): F => (Array.isArray(hook) ? hook[0]! : hook!);

function callTool(hooks: AgentHooks, toolName: string, input: unknown, id = Math.random().toString(36)) {
  const ctx = { ...base, toolCall: { type: "tool-call", toolCallId: id, toolName, input }, tool: {} as never, input };
  return one(hooks.beforeTool)(ctx as BeforeToolContext);
}

describe("loop detection hooks", () => {
  it("warns from the 3rd identical call and refuses the 5th, whatever the key order", async () => {
    const signals: LoopSignal[] = [];
    const hooks = createLoopDetectionHooks({}, (s) => signals.push(s));
    expect(await callTool(hooks, "read", { path: "a", limit: 1 })).toBeUndefined();
    expect(await callTool(hooks, "read", { limit: 1, path: "a" })).toBeUndefined();
    expect(await callTool(hooks, "read", { path: "a", limit: 1 })).toMatchObject({
      appendContext: expect.stringContaining('"read" 3 times in a row'),
    });
    expect(await callTool(hooks, "read", { path: "a", limit: 1 })).toMatchObject({ appendContext: expect.any(String) });
    expect(await callTool(hooks, "read", { path: "a", limit: 1 })).toEqual({
      stop: true,
      reason: "loop_detected",
      status: "aborted",
    });
    expect(signals.map((s) => `${s.kind}:${s.action}:${s.count}`)).toEqual([
      "repeat:warn:3",
      "repeat:warn:4",
      "repeat:stop:5",
    ]);
  });

  it("resets the streak when the arguments change", async () => {
    const hooks = createLoopDetectionHooks();
    await callTool(hooks, "read", { path: "a" });
    await callTool(hooks, "read", { path: "a" });
    expect(await callTool(hooks, "read", { path: "b" })).toBeUndefined();
    expect(await callTool(hooks, "read", { path: "b" })).toBeUndefined();
  });

  it("catches an A,B,A,B cycle: a notice at two rounds, a stop at three", async () => {
    const signals: LoopSignal[] = [];
    const hooks = createLoopDetectionHooks({}, (s) => signals.push(s));
    const results = [];
    for (const name of ["a", "b", "a", "b", "a", "b"]) results.push(await callTool(hooks, name, { x: 1 }));
    expect(results.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(results[3]).toMatchObject({ appendContext: expect.stringContaining("a → b") });
    expect(results[5]).toEqual({ stop: true, reason: "loop_detected", status: "aborted" });
    expect(signals.at(-1)).toMatchObject({ kind: "cycle", action: "stop", cycle: ["a", "b"], count: 3 });
  });

  it("does not call varied work a cycle", async () => {
    const hooks = createLoopDetectionHooks();
    for (let i = 0; i < 10; i++) {
      expect(await callTool(hooks, "read", { path: `f${i}` })).toBeUndefined();
      expect(await callTool(hooks, "edit", { path: `f${i}` })).toBeUndefined();
    }
  });

  it("rejects nonsense settings with the field named", () => {
    expect(() => createLoopDetectionHooks({ warnAt: 0 })).toThrow(/warnAt/);
    expect(() => createLoopDetectionHooks({ warnAt: 5, stopAt: 5 })).toThrow(/stopAt \(5\) must be greater/);
    // Every bad safety option is one ConfigError (code config_invalid), whatever the check.
    expect(() => createLoopDetectionHooks({ warnAt: 0 })).toThrow(expect.objectContaining({ code: "config_invalid" }));
    expect(() => createCircuitBreakerHooks({ limit: 0 })).toThrow(expect.objectContaining({ code: "config_invalid" }));
  });
});

const call = (id: string) => ({ type: "tool-call" as const, toolCallId: id, toolName: "t", input: {} });
const result = (id: string, isError: boolean) => ({
  type: "tool-result" as const,
  toolCallId: id,
  toolName: "t",
  output: "o",
  isError,
});

function failedTurn(id: string): AgentMessage[] {
  return [assistantMessage([call(id)]), toolResultMessage([result(id, true)])];
}

describe("circuit breaker hooks", () => {
  it("judges a turn from its results: success, failed tools, invalid calls, no tools", () => {
    const valid = new Set(["c1"]);
    expect(judgeTurn([result("c1", true), result("c2", false)], valid)).toBe("success");
    expect(judgeTurn([result("c1", true)], valid)).toBe("tools_failed");
    expect(judgeTurn([result("c2", true)], valid)).toBe("invalid_tool_calls");
    expect(judgeTurn([], valid)).toBeUndefined();
    // The deprecated form reads the same from a message list, skipping context messages.
    const context = userMessage("<system-reminder>x</system-reminder>", { metadata: { heddle: { kind: "context" } } });
    expect(judgeLastTurn([...failedTurn("c1"), context], valid)).toBe("tools_failed");
    expect(judgeLastTurn([userMessage("hi"), assistantMessage("done")], valid)).toBeUndefined();
  });

  it("stops at the limit of failed turns in a row (judged in afterTurn), and a success resets the count", async () => {
    const hooks = createCircuitBreakerHooks({ limit: 3 });
    const afterTurn = one(hooks.afterStep);
    const turn = (iteration: number, ...results: ReturnType<typeof result>[]) =>
      afterTurn({ ...base, iteration, message: assistantMessage(results.map((r) => call(r.toolCallId))), results });
    expect(await turn(1, result("a", true))).toBeUndefined();
    expect(await turn(2, result("b", true))).toBeUndefined();
    expect(await turn(3, result("ok", false))).toBeUndefined();
    expect(await turn(4)).toBeUndefined(); // a turn without tools is not judged
    expect(await turn(5, result("c", true))).toBeUndefined();
    expect(await turn(6, result("d", true))).toBeUndefined();
    expect(await turn(7, result("e", true))).toEqual({ stop: true, reason: "circuit_breaker", status: "aborted" });
  });

  it("stops at 6 failed turns in a row by default", async () => {
    const afterTurn = one(createCircuitBreakerHooks().afterStep);
    const turn = (iteration: number) => {
      const failed = result(`f${iteration}`, true);
      return afterTurn({ ...base, iteration, message: assistantMessage([call(failed.toolCallId)]), results: [failed] });
    };
    for (let iteration = 1; iteration <= 5; iteration++) expect(await turn(iteration)).toBeUndefined();
    expect(await turn(6)).toEqual({ stop: true, reason: "circuit_breaker", status: "aborted" });
  });

  it("a continue decision after failed turns carries its guidance into the next request", async () => {
    const hooks = createCircuitBreakerHooks({
      limit: 2,
      onLimitReached: () => ({ action: "continue", guidance: "Check the path first." }),
    });
    const afterTurn = one(hooks.afterStep);
    const turn = (id: string) =>
      afterTurn({ ...base, message: assistantMessage([call(id)]), results: [result(id, true)] });
    expect(await turn("a")).toBeUndefined();
    expect(await turn("b")).toEqual({ appendContext: expect.stringContaining("Check the path first.") });
  });

  it("counts model errors, and a continue decision carries its guidance into the next request", async () => {
    const seen: number[] = [];
    const hooks = createCircuitBreakerHooks({
      limit: 2,
      onLimitReached: (ctx) => {
        seen.push(ctx.failures);
        return { action: "continue", guidance: "Read the error text before retrying." };
      },
    });
    const afterModel = one(hooks.afterModel);
    const error = { kind: "server" as const, message: "boom", retryable: true };
    const ctx = { ...base, message: assistantMessage(""), finishReason: "error" as const, error };
    expect(await afterModel(ctx)).toBeUndefined();
    expect(await afterModel(ctx)).toBeUndefined();
    expect(seen).toEqual([2]);
    const next = await one(hooks.beforeModel)({ ...base, request: { messages: [], tools: [] } } as BeforeModelContext);
    expect(next).toEqual({ appendContext: expect.stringContaining("Read the error text before retrying.") });
  });
});
