import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentTool, getMessageText } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { MemorySessionStore } from "../backends/memory/index.js";
import { createSession } from "../sessions/create-session.js";
import type { SessionEvent } from "../sessions/session-events.js";

function counter(name: string, fail = false): AgentTool & { calls: number } {
  const tool = {
    name,
    description: name,
    inputSchema: { type: "object" },
    calls: 0,
    execute: () => {
      tool.calls++;
      if (fail) throw new Error(`${name} is broken`);
      return `${name} ok`;
    },
  };
  return tool;
}

const sameCall = (name: string, input: unknown = { path: "a.txt" }) => ({ toolCalls: [{ name, input }] });
const requestText = (model: ReturnType<typeof createScriptedModel>, index: number) =>
  model.requests[index]!.messages.map(getMessageText).join("\n");

describe("safety in a session", () => {
  it("puts the loop notice in the next model request and never runs the 5th identical call", async () => {
    const tool = counter("read");
    const model = createScriptedModel([
      sameCall("read"),
      sameCall("read"),
      sameCall("read"),
      sameCall("read"),
      sameCall("read"),
    ]);
    const events: SessionEvent[] = [];
    const session = await createSession({ store: new MemorySessionStore(), model, tools: [tool] });
    session.subscribe((e) => events.push(e));
    const result = await session.send("loop please");
    expect(result).toMatchObject({ status: "aborted", reason: "loop_detected" });
    expect(tool.calls).toBe(4);
    expect(requestText(model, 2)).not.toMatch(/Loop warning/);
    expect(requestText(model, 3)).toMatch(/Loop warning: you have called "read" 3 times in a row/);
    expect(events.filter((e) => e.type === "loop-warning").map((e) => (e as { action: string }).action)).toEqual([
      "warn",
      "warn",
      "stop",
    ]);
    // The notice is part of the stored transcript too.
    expect((await session.history()).map(getMessageText).join("\n")).toMatch(/Loop warning/);
  });

  it("resets loop counters at each send", async () => {
    const tool = counter("read");
    const model = createScriptedModel([
      sameCall("read"),
      sameCall("read"),
      { text: "ok" },
      sameCall("read"),
      sameCall("read"),
      { text: "ok" },
    ]);
    const session = await createSession({ store: new MemorySessionStore(), model, tools: [tool] });
    await session.send("one");
    await session.send("two");
    expect(model.requests.map((_, i) => requestText(model, i)).join("\n")).not.toMatch(/Loop warning/);
    expect(tool.calls).toBe(4);
  });

  it("can be turned off", async () => {
    const tool = counter("read");
    const steps = Array.from({ length: 6 }, () => sameCall("read"));
    const model = createScriptedModel([...steps, { text: "finally" }]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      tools: [tool],
      safety: { loopDetection: false, circuitBreaker: false },
    });
    expect((await session.send("go")).outputText).toBe("finally");
    expect(tool.calls).toBe(6);
  });

  it("trips the circuit breaker: guidance reaches the next request, then a stop with circuit_breaker", async () => {
    const tool = counter("build", true);
    const steps = Array.from({ length: 8 }, (_, i) => sameCall("build", { attempt: i }));
    const model = createScriptedModel(steps);
    const decisions: number[] = [];
    const events: SessionEvent[] = [];
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      tools: [tool],
      safety: {
        circuitBreaker: {
          limit: 3,
          onLimitReached: (ctx) => {
            decisions.push(ctx.failures);
            return decisions.length === 1
              ? { action: "continue", guidance: "Run the linter before building." }
              : undefined;
          },
        },
      },
    });
    session.subscribe((e) => events.push(e));
    const result = await session.send("build it");
    expect(result).toMatchObject({ status: "aborted", reason: "circuit_breaker" });
    expect(decisions).toEqual([3, 3]);
    // Three failed turns, then the 4th request carries the guidance.
    expect(requestText(model, 2)).not.toMatch(/Run the linter/);
    expect(requestText(model, 3)).toMatch(/Guidance from the host: Run the linter before building\./);
    expect(model.requests).toHaveLength(6);
    expect(events.filter((e) => e.type === "circuit-breaker").map((e) => (e as { action: string }).action)).toEqual([
      "continue",
      "stop",
    ]);
  });

  it("counts turns whose tool calls were all invalid, and a success resets the count", async () => {
    const tool = counter("build");
    const bad = { toolCalls: [{ name: "nope", input: {} }] };
    const model = createScriptedModel([bad, bad, sameCall("build"), bad, bad, bad, { text: "never" }]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      tools: [tool],
      safety: { loopDetection: false, circuitBreaker: { limit: 3 } },
    });
    const result = await session.send("go");
    expect(result.reason).toBe("circuit_breaker");
    expect(tool.calls).toBe(1);
    expect(model.requests).toHaveLength(6);
  });
});
