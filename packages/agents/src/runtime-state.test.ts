import { createScriptedModel } from "@heddle/llms/testing";
import { assistantMessage, userMessage } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { echoTool, toolResults } from "../test/helpers.js";
import { AgentRuntime, AgentRuntimeError, createAgent } from "./index.js";

describe("AgentRuntime state across runs", () => {
  it("run() appends to the transcript and keeps history between runs", async () => {
    const model = createScriptedModel([{ text: "first" }, { text: "second" }]);
    const agent = new AgentRuntime({ model, initialMessages: [userMessage("earlier"), assistantMessage("noted")] });
    await agent.run("one");
    const result = await agent.run("two");
    expect(result.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual([
      "earlier",
      "noted",
      "one",
      "first",
      "two",
      "second",
    ]);
    expect(result.newMessages).toHaveLength(2);
    expect(model.requests[1]!.messages).toHaveLength(5);
  });

  it("restore() replaces the transcript explicitly and snapshot() reports it as a copy", async () => {
    const model = createScriptedModel([
      { text: "a", usage: { inputTokens: 3, outputTokens: 1, costUsd: 0.5 } },
      { text: "b" },
    ]);
    const agent = createAgent({ model, agentId: "agent_x" });
    await agent.run("hello");
    const snap = agent.snapshot();
    expect(snap).toMatchObject({ agentId: "agent_x", running: false, iteration: 1, usage: { costUsd: 0.5 } });
    expect(snap.messages).toHaveLength(2);
    snap.messages.length = 0;
    expect(agent.snapshot().messages).toHaveLength(2);
    agent.restore([userMessage("fresh start")]);
    await agent.run("next");
    expect(model.requests[1]!.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual([
      "fresh start",
      "next",
    ]);
    expect(() => agent.restore([{ role: "robot" } as never])).toThrow(
      /restore\(messages\): message 0 is not an AgentMessage/,
    );
  });

  it("rejects a concurrent run with a typed error and runs no second loop", async () => {
    const model = createScriptedModel([{ text: "slow", delayMs: 30 }]);
    const agent = new AgentRuntime({ model });
    const first = agent.run("one");
    await expect(agent.run("two")).rejects.toMatchObject({ name: "AgentRuntimeError", code: "busy" });
    expect(() => agent.restore([])).toThrow(AgentRuntimeError);
    expect((await first).outputText).toBe("slow");
    expect(model.requests).toHaveLength(1);
  });

  it("continue() resumes after an abort without new input", async () => {
    const model = createScriptedModel([{ text: "cut", delayMs: 2000 }, { text: "resumed" }]);
    const agent = new AgentRuntime({ model });
    agent.subscribe((e) => {
      if (e.type === "turn-started") setTimeout(() => agent.abort(), 10);
    });
    expect((await agent.run("go")).status).toBe("aborted");
    const result = await new AgentRuntime({ model, initialMessages: agent.snapshot().messages }).continue();
    expect(result).toMatchObject({ status: "completed", outputText: "resumed" });
    expect(model.requests[1]!.messages.map((m) => m.role)).toEqual(["user"]);
  });

  it("continue() runs pending tool calls; run() answers them as not run before the new input", async () => {
    const pending = [
      userMessage("go"),
      assistantMessage([{ type: "tool-call", toolCallId: "p1", toolName: "echo", input: { text: "later" } }]),
    ];
    const resumed = await new AgentRuntime({
      model: createScriptedModel([{ text: "ok" }]),
      tools: [echoTool()],
      initialMessages: pending,
    }).continue();
    expect(toolResults(resumed.messages)).toMatchObject([{ toolCallId: "p1", output: "echo: later" }]);
    const model = createScriptedModel([{ text: "ok" }]);
    const fresh = await new AgentRuntime({ model, tools: [echoTool()], initialMessages: pending }).run("new question");
    expect(toolResults(fresh.messages)).toMatchObject([
      { toolCallId: "p1", isError: true, output: expect.stringContaining("Not run") },
    ]);
    expect(model.requests[0]!.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
  });

  it("injects steered text and the host's pending user message between turns", async () => {
    const queue = ["also check the tests"];
    const model = createScriptedModel([
      { toolCalls: [{ name: "echo", input: { text: "x" } }] },
      { text: "first answer" },
      { text: "checked" },
    ]);
    const agent = new AgentRuntime({
      model,
      tools: [echoTool()],
      consumePendingUserMessage: () => (model.requests.length === 2 ? queue.shift() : undefined),
    });
    agent.subscribe((e) => {
      if (e.type === "tool-started") agent.steer("use British spelling");
    });
    const result = await agent.run("go");
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({
      role: "user",
      content: [{ text: "use British spelling" }],
      metadata: { heddle: { kind: "steer" } },
    });
    // A pending message after a final answer keeps the run going.
    expect(model.requests[2]!.messages.at(-1)!.content[0]).toMatchObject({ text: "also check the tests" });
    expect(result).toMatchObject({ reason: "end_turn", outputText: "checked", iterations: 3 });
  });

  it("stream() yields the events then ends with run-finished, and resolves the result", async () => {
    const agent = new AgentRuntime({ model: createScriptedModel([{ text: "streamed" }]) });
    const stream = agent.stream("go");
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[0]).toBe("run-started");
    expect(types.at(-1)).toBe("run-finished");
    expect(types).toContain("assistant-text-delta");
    expect((await stream.result).outputText).toBe("streamed");
  });

  it("stream() aborts the run when the consumer stops reading", async () => {
    const agent = new AgentRuntime({ model: createScriptedModel([{ text: "long", delayMs: 2000 }]) });
    const stream = agent.stream("go");
    for await (const event of stream) if (event.type === "turn-started") break;
    expect((await stream.result).status).toBe("aborted");
  });

  it("validates config and input with errors naming the field", async () => {
    expect(() => new AgentRuntime({} as never)).toThrow(/give "model", or "providerId" and "modelId"/);
    const model = createScriptedModel([]);
    expect(() => new AgentRuntime({ model, maxIterations: 0 })).toThrow(
      /"maxIterations" must be a positive integer or Infinity/,
    );
    expect(() => new AgentRuntime({ model, maxIterations: 2.5 })).toThrow(/"maxIterations"/);
    // Infinity is "no limit", as the message says.
    expect(() => new AgentRuntime({ model, maxIterations: Number.POSITIVE_INFINITY })).not.toThrow();
    expect(() => new AgentRuntime({ model, maxParallelTools: 1.5 })).toThrow(/maxParallelTools/);
    await expect(new AgentRuntime({ model }).run("")).rejects.toMatchObject({ code: "invalid_input" });
    expect(() => new AgentRuntime({ model, tools: [echoTool(), echoTool()] })).toThrow(/two tools are named "echo"/);
    const failing = {
      name: "broken",
      setup: () => {
        throw new Error("no config file");
      },
    };
    await expect(new AgentRuntime({ model, plugins: [failing] }).run("x")).rejects.toMatchObject({
      code: "plugin_setup_failed",
      message: expect.stringContaining('plugin "broken"'),
    });
  });

  it("keeps reasoning with its signature in the transcript and sends it back on the next request", async () => {
    const model = createScriptedModel([
      {
        reasoning: "need the tool",
        reasoningSignature: "sig-abc",
        toolCalls: [{ name: "echo", input: { text: "x" } }],
      },
      { text: "done" },
    ]);
    await new AgentRuntime({ model, tools: [echoTool()] }).run("go");
    const assistant = model.requests[1]!.messages[1]!;
    expect(assistant.content[0]).toEqual({ type: "reasoning", text: "need the tool", signature: "sig-abc" });
    expect(assistant.model).toEqual({ provider: "scripted", id: "scripted-model" });
  });
});
