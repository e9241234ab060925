import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentRuntimeEvent, ToolCallPart } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { echoTool } from "../test/helpers.js";
import { AgentRuntime, MAX_PENDING_UPDATES_PER_CALL } from "./index.js";
import { RunEventQueue } from "./run-stream.js";

const call = (id: string): ToolCallPart => ({ type: "tool-call", toolCallId: id, toolName: "bash", input: {} });
const base = { id: "r.0", agentId: "a", runId: "r", iteration: 1 };
// A literal, not a spread of `base`: the test transform makes a spread per event slow enough to matter at 100 000.
const update = (id: string, n: number): AgentRuntimeEvent => ({
  id: "r.u",
  agentId: "a",
  runId: "r",
  iteration: 1,
  type: "tool-updated",
  toolCall: call(id),
  update: n,
});

describe("RunEventQueue", () => {
  it("holds a bounded number of waiting updates per call, keeping the first ones and the latest", () => {
    const queue = new RunEventQueue();
    queue.push({ ...base, type: "tool-started", toolCall: call("a") });
    for (let n = 0; n < 100_000; n++) queue.push(update("a", n));
    expect(MAX_PENDING_UPDATES_PER_CALL).toBe(16);
    expect(queue.size).toBe(1 + MAX_PENDING_UPDATES_PER_CALL);
    const delivered: unknown[] = [];
    for (let event = queue.shift(); event; event = queue.shift())
      if (event.type === "tool-updated") delivered.push(event.update);
    expect(delivered).toHaveLength(MAX_PENDING_UPDATES_PER_CALL);
    expect(delivered.slice(0, 3)).toEqual([0, 1, 2]);
    expect(delivered.at(-1)).toBe(99_999);
  });

  it("keeps every other event, in order, and each call's updates apart", () => {
    const queue = new RunEventQueue();
    for (let n = 0; n < 50; n++) {
      queue.push(update("a", n));
      queue.push(update("b", n));
      queue.push({ ...base, type: "assistant-text-delta", text: String(n), accumulatedText: String(n) });
    }
    const events: AgentRuntimeEvent[] = [];
    for (let event = queue.shift(); event; event = queue.shift()) events.push(event);
    expect(events.filter((e) => e.type === "assistant-text-delta")).toHaveLength(50);
    const of = (id: string) =>
      events.flatMap((e) => (e.type === "tool-updated" && e.toolCall.toolCallId === id ? [e.update] : []));
    expect(of("a")).toHaveLength(MAX_PENDING_UPDATES_PER_CALL);
    expect(of("a").at(-1)).toBe(49);
    expect(of("b").at(-1)).toBe(49);
  });

  it("keeps order and every update through compaction, for a consumer a few events behind", () => {
    const queue = new RunEventQueue();
    const delivered: number[] = [];
    const take = () => {
      const event = queue.shift();
      if (event?.type === "tool-updated") delivered.push(event.update as number);
    };
    // Each call id gets few updates, so nothing coalesces; the backlog grows past the compaction threshold.
    for (let n = 0; n < 6_000; n++) {
      queue.push(update(`c${Math.floor(n / 4)}`, n));
      if (n % 2 === 0) take();
    }
    // Now one call floods while 3 000 older events still wait; the queue compacts between its updates, and its
    // waiting updates stay bounded and in order.
    for (let n = 6_000; n < 6_016; n++) queue.push(update("flood", n));
    for (let n = 0; n < 2_000; n++) take();
    for (let n = 6_016; n < 7_000; n++) queue.push(update("flood", n));
    while (queue.size > 0) take();
    expect(delivered.slice(0, 6_000)).toEqual(Array.from({ length: 6_000 }, (_, n) => n));
    expect(delivered.slice(6_000)).toHaveLength(MAX_PENDING_UPDATES_PER_CALL);
    expect(delivered.at(-1)).toBe(6_999);
  });

  it("delivers every update to a consumer that keeps up", () => {
    const queue = new RunEventQueue();
    const delivered: unknown[] = [];
    for (let n = 0; n < 5_000; n++) {
      queue.push(update("a", n));
      const event = queue.shift();
      if (event?.type === "tool-updated") delivered.push(event.update);
    }
    expect(delivered).toHaveLength(5_000);
  });
});

describe("stream() behind a tool that floods updates", () => {
  it("queues a bounded number of tool-updated events for a lagging consumer; the result has all the output", async () => {
    const chunks = 20_000;
    const flood = echoTool({
      execute: (_input, ctx) => {
        let output = "";
        for (let n = 0; n < chunks; n++) {
          const chunk = `line ${n}\n`;
          ctx.emitUpdate({ stream: "stdout", text: chunk });
          output += chunk;
        }
        return output;
      },
    });
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "echo", input: { text: "x" } }] },
      { text: "ok" },
    ]);
    const agent = new AgentRuntime({ model, tools: [flood] });
    const seenBySubscriber: number[] = [];
    agent.subscribe((event) => {
      if (event.type === "tool-updated") seenBySubscriber.push(1);
    });
    const stream = agent.stream("go");
    // The consumer reads nothing until the run is over: the worst lag there is.
    const result = await stream.result;
    const updates: AgentRuntimeEvent[] = [];
    for await (const event of stream) if (event.type === "tool-updated") updates.push(event);
    expect(seenBySubscriber).toHaveLength(chunks);
    expect(updates.length).toBeLessThanOrEqual(MAX_PENDING_UPDATES_PER_CALL);
    expect((updates.at(-1) as { update: { text: string } }).update.text).toBe(`line ${chunks - 1}\n`);
    expect(result.status).toBe("completed");
  });
});
