import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentModel, AgentModelEvent, AgentTool } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { echoTool, recordEvents, toolResults } from "../test/helpers.js";
import { AgentRuntime, hasToolCall, stepCountIs } from "./index.js";

const loopForever = () =>
  createScriptedModel(
    [
      {
        toolCalls: [{ name: "echo", input: { text: "again" } }],
        usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.01 },
      },
    ],
    { whenExhausted: "repeat-last" },
  );

describe("AgentRuntime limits and endings", () => {
  it("ends at maxIterations with a result, not an exception", async () => {
    const model = loopForever();
    const result = await new AgentRuntime({ model, tools: [echoTool()], maxIterations: 3 }).run("go");
    expect(result).toMatchObject({ status: "incomplete", reason: "max_iterations", iterations: 3, toolCalls: 3 });
    expect(model.requests).toHaveLength(3);
    expect(result.messages.at(-1)!.role).toBe("tool");
  });

  it("ends at maxBudgetUsd using the cost the model reported", async () => {
    const result = await new AgentRuntime({ model: loopForever(), tools: [echoTool()], maxBudgetUsd: 0.025 }).run("go");
    expect(result).toMatchObject({ status: "incomplete", reason: "max_budget", iterations: 3 });
    expect(result.usage.costUsd).toBeCloseTo(0.03);
    expect(result.usage).toMatchObject({ inputTokens: 300, outputTokens: 30 });
  });

  it("prices usage from model.info.pricing when the model reports no cost, and ends at maxBudgetUsd", async () => {
    const model = createScriptedModel(
      [{ toolCalls: [{ name: "echo", input: { text: "again" } }], usage: { inputTokens: 1000, outputTokens: 0 } }],
      {
        whenExhausted: "repeat-last",
        info: {
          provider: "scripted",
          id: "priced",
          contextWindow: 100_000,
          maxOutputTokens: 1000,
          pricing: { input: 10, output: 0 },
          supports: { tools: true, reasoning: false, images: false },
        },
      },
    );
    const result = await new AgentRuntime({ model, tools: [echoTool()], maxBudgetUsd: 0.025 }).run("go");
    expect(result).toMatchObject({ status: "incomplete", reason: "max_budget", iterations: 3 });
    expect(result.usage.costUsd).toBeCloseTo(0.03);
  });

  it("counts usage a tool reports (a sub-agent's spend) in the run's usage and against maxBudgetUsd", async () => {
    const seen: Array<{ runId: string; agentId: string; sessionId?: string; parentAgentId?: string }> = [];
    const spender: AgentTool = {
      name: "spend",
      description: "calls a model of its own",
      inputSchema: { type: "object" },
      execute: (_input, ctx) => {
        seen.push({
          runId: ctx.runId,
          agentId: ctx.agentId,
          sessionId: ctx.sessionId,
          parentAgentId: ctx.parentAgentId,
        });
        ctx.reportUsage({ inputTokens: 1000, outputTokens: 50, costUsd: 0.02 });
        ctx.reportUsage({ inputTokens: Number.NaN, costUsd: "lots" as unknown as number });
        return "spent";
      },
    };
    const model = createScriptedModel(
      [{ toolCalls: [{ name: "spend", input: {} }], usage: { inputTokens: 10, outputTokens: 1, costUsd: 0.001 } }],
      { whenExhausted: "repeat-last" },
    );
    const result = await new AgentRuntime({
      model,
      tools: [spender],
      maxBudgetUsd: 0.03,
      agentId: "lead",
      sessionId: "s1",
      parentAgentId: "boss",
    }).run("go");
    expect(result).toMatchObject({ reason: "max_budget", iterations: 2 });
    expect(result.usage.costUsd).toBeCloseTo(0.042);
    expect(result.usage.inputTokens).toBe(2020);
    expect(seen[0]).toEqual({ runId: expect.any(String), agentId: "lead", sessionId: "s1", parentAgentId: "boss" });
  });

  it("ends on a stopWhen condition and names it", async () => {
    const result = await new AgentRuntime({
      model: loopForever(),
      tools: [echoTool()],
      stopWhen: [stepCountIs(2)],
    }).run("go");
    expect(result).toMatchObject({
      status: "completed",
      reason: "stop_condition",
      reasonDetail: "stepCountIs(2)",
      iterations: 2,
    });
    const custom = await new AgentRuntime({
      model: loopForever(),
      tools: [echoTool()],
      stopWhen: ({ newMessages }) => newMessages.length >= 5,
    }).run("go");
    expect(custom).toMatchObject({ reason: "stop_condition", iterations: 2 });
    const byTool = await new AgentRuntime({
      model: loopForever(),
      tools: [echoTool()],
      stopWhen: hasToolCall("echo"),
    }).run("go");
    expect(byTool.iterations).toBe(1);
  });

  it("aborts during streaming, keeping the partial text", async () => {
    // Two deltas at once, then a stall the abort must cut: the text already streamed is what the user saw.
    const model: AgentModel = {
      provider: "scripted",
      modelId: "stalls-mid-answer",
      async *stream(request) {
        yield { type: "text-delta", text: "partial " };
        yield { type: "text-delta", text: "answer" };
        await new Promise<void>((resolve) => {
          const stall = setTimeout(resolve, 5000);
          const onAbort = () => {
            clearTimeout(stall);
            resolve();
          };
          request.signal?.addEventListener("abort", onAbort, { once: true });
        });
        if (request.signal?.aborted) {
          yield { type: "finish", reason: "aborted", error: { kind: "aborted", message: "aborted", retryable: false } };
          return;
        }
        yield { type: "text-delta", text: " and the rest" };
        yield { type: "finish", reason: "stop" };
      },
    };
    const agent = new AgentRuntime({ model });
    let streamed = "";
    agent.subscribe((event) => {
      if (event.type !== "assistant-text-delta") return;
      streamed += event.text;
      if (streamed === "partial answer") setTimeout(() => agent.abort("user pressed stop"), 20);
    });
    // Without the abort the model would end its stall and complete: the status says the abort cut it.
    const result = await agent.run("go");
    expect(result).toMatchObject({ status: "aborted", reason: "aborted", reasonDetail: "user pressed stop" });
    expect(result.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(result.messages.at(-1)).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "partial answer" }],
      finishReason: "aborted",
      model: { provider: "scripted", id: "stalls-mid-answer" },
    });
  });

  it("aborts during a tool even if the tool ignores its signal; the call gets a result", async () => {
    let signalAborted = false;
    const stuck: AgentTool = {
      name: "stuck",
      description: "",
      inputSchema: { type: "object" },
      execute: (_i, ctx) => {
        ctx.signal.addEventListener("abort", () => {
          signalAborted = true;
        });
        return new Promise(() => {});
      },
    };
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "s", name: "stuck", input: {} },
          { id: "t", name: "stuck", input: {} },
        ],
      },
      { text: "never" },
    ]);
    const agent = new AgentRuntime({ model, tools: [stuck] });
    agent.subscribe((event) => {
      if (event.type === "tool-started" && event.toolCall.toolCallId === "s") setTimeout(() => agent.abort(), 20);
    });
    // The tool never settles by itself: the run ending at all is the abort's doing.
    const result = await agent.run("go");
    expect(signalAborted).toBe(true);
    expect(result).toMatchObject({ status: "aborted", reason: "aborted" });
    expect(toolResults(result.messages).map((r) => r.toolCallId)).toEqual(["s", "t"]);
    expect(model.requests).toHaveLength(1);
  });

  it("ends failed/model_error with the ModelError on a model failure", async () => {
    const model = createScriptedModel([{ error: { kind: "auth", message: "bad key", status: 401 } }]);
    const result = await new AgentRuntime({ model }).run("go");
    expect(result).toMatchObject({
      status: "failed",
      reason: "model_error",
      error: { kind: "auth", message: "bad key", status: 401 },
    });
  });

  it("ends max_tokens when a response without tool calls is cut", async () => {
    const model = createScriptedModel([{ text: "a long ans", finishReason: "max-tokens" }]);
    const result = await new AgentRuntime({ model }).run("go");
    expect(result).toMatchObject({ status: "incomplete", reason: "max_tokens", outputText: "a long ans" });
  });

  it("turns gateway retry events into status notices", async () => {
    const events: AgentModelEvent[] = [
      { type: "retry", attempt: 1, delayMs: 200, error: { kind: "rate_limit", message: "slow down", retryable: true } },
      { type: "text-delta", text: "hi" },
      { type: "finish", reason: "stop" },
    ];
    const agent = new AgentRuntime({ model: createScriptedModel([events]) });
    const seen = recordEvents(agent);
    await agent.run("go");
    expect(seen.find((e) => e.type === "status-notice")).toMatchObject({
      code: "retry",
      message: expect.stringContaining("rate_limit"),
    });
  });

  it("recovers from one context overflow through prepareTurn, and not twice", async () => {
    const flags: boolean[] = [];
    const prepareTurn = ({
      messages,
      overflowRecovery,
    }: {
      messages: readonly unknown[];
      overflowRecovery: boolean;
    }) => {
      flags.push(overflowRecovery);
      return overflowRecovery ? { messages: messages.slice(-1) as never } : undefined;
    };
    const overflow = { error: { kind: "context_overflow" as const, message: "too long" } };
    const once = createScriptedModel([overflow, { text: "fits now" }]);
    const history = [
      { id: "m1", role: "user" as const, content: [{ type: "text" as const, text: "old ".repeat(100) }], createdAt: 1 },
      { id: "m2", role: "assistant" as const, content: [{ type: "text" as const, text: "old reply" }], createdAt: 2 },
    ];
    const result = await new AgentRuntime({ model: once, initialMessages: history, prepareTurn }).run("new question");
    expect(result).toMatchObject({ status: "completed", outputText: "fits now" });
    expect(flags).toEqual([false, true]);
    expect(once.requests[1]!.messages).toHaveLength(1);
    // The projection never touched the transcript.
    expect(result.messages).toHaveLength(4);

    const twice = createScriptedModel([
      overflow,
      { error: { kind: "context_overflow", message: "prompt is too long: 250000 tokens > 200000 (vendor text)" } },
      { text: "unreachable" },
    ]);
    const failed = await new AgentRuntime({ model: twice, initialMessages: history, prepareTurn }).run("new question");
    expect(failed).toMatchObject({ status: "failed", reason: "model_error", error: { kind: "context_overflow" } });
    expect(twice.requests).toHaveLength(2);
    // Still too large after compacting: Heddle's own words, never the vendor's text.
    expect(failed.reasonDetail).toContain("still larger than the model's context window after compacting");
    expect(failed.reasonDetail).not.toContain("vendor text");
    expect(failed.error!.message).not.toContain("vendor text");
    // With nothing to compact (no prepareTurn), Heddle's words too.
    const bare = await new AgentRuntime({ model: createScriptedModel([overflow]) }).run("hi");
    expect(bare.reasonDetail).toContain("nothing in this agent can compact it");
    expect(bare.reasonDetail).not.toContain("too long");
  });

  it("does not retry an overflow when the projection did not shrink", async () => {
    const model = createScriptedModel([
      { error: { kind: "context_overflow", message: "too long" } },
      { text: "unreachable" },
    ]);
    const result = await new AgentRuntime({ model, prepareTurn: () => undefined }).run("hi");
    expect(result).toMatchObject({ status: "failed", reason: "model_error", error: { kind: "context_overflow" } });
    expect(result.error!.message).toContain("did not shrink");
    expect(model.requests).toHaveLength(1);
  });

  it("ends completion_tool with the tool's output as outputText", async () => {
    const submit: AgentTool = {
      name: "submit",
      description: "",
      inputSchema: { type: "object" },
      lifecycle: { completesRun: true },
      execute: (input: { answer: string }) => input.answer,
    };
    const model = createScriptedModel([
      { text: "let me submit", toolCalls: [{ name: "submit", input: { answer: "42" } }] },
      { text: "unreachable" },
    ]);
    const result = await new AgentRuntime({ model, tools: [submit] }).run("go");
    expect(result).toMatchObject({ status: "completed", reason: "completion_tool", outputText: "42" });
    expect(model.requests).toHaveLength(1);
  });

  it("reminds once under completionPolicy, then stops", async () => {
    const submit: AgentTool = {
      name: "submit",
      description: "",
      inputSchema: { type: "object" },
      lifecycle: { completesRun: true },
      execute: () => "x",
    };
    const model = createScriptedModel([{ text: "done?" }, { text: "still done" }]);
    const agent = new AgentRuntime({
      model,
      tools: [submit],
      completionPolicy: { requireCompletionTool: true, reminder: "Call submit." },
    });
    const result = await agent.run("go");
    expect(result).toMatchObject({ reason: "end_turn", iterations: 2, outputText: "still done" });
    expect(model.requests[1]!.messages.at(-1)!.content[0]).toMatchObject({
      text: expect.stringContaining("Call submit."),
    });
  });
});
