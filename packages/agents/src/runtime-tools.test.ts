import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentTool } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { echoTool, recordEvents, sleep, toolResults } from "../test/helpers.js";
import { AgentRuntime } from "./index.js";

describe("AgentRuntime tool calls", () => {
  it("runs a two-turn tool loop and returns the final text", async () => {
    const model = createScriptedModel([
      { toolCalls: [{ id: "c1", name: "echo", input: { text: "hi" } }] },
      { text: "done" },
    ]);
    const agent = new AgentRuntime({ model, tools: [echoTool()], systemPrompt: "be brief" });
    const result = await agent.run("say hi");
    expect(result).toMatchObject({
      status: "completed",
      reason: "end_turn",
      outputText: "done",
      iterations: 2,
      toolCalls: 1,
    });
    expect(toolResults(result.messages)).toEqual([
      { type: "tool-result", toolCallId: "c1", toolName: "echo", output: "echo: hi" },
    ]);
    expect(model.requests[0]!.systemPrompt).toBe("be brief");
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(["echo"]);
    expect(model.requests[1]!.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
  });

  it("feeds invalid JSON arguments back to the model, which corrects them next turn", async () => {
    const model = createScriptedModel([
      { toolCalls: [{ id: "bad", name: "echo", inputText: '{text:: "hi"]' }] },
      { toolCalls: [{ id: "good", name: "echo", input: { text: "hi" } }] },
      { text: "ok" },
    ]);
    const agent = new AgentRuntime({ model, tools: [echoTool()] });
    const result = await agent.run("go");
    const [bad, good] = toolResults(result.messages);
    expect(bad).toMatchObject({ toolCallId: "bad", isError: true });
    expect(bad!.output).toContain('arguments for tool "echo" are not valid JSON');
    expect(bad!.output).toContain('You sent: {text:: "hi"]');
    expect(good).toMatchObject({ toolCallId: "good", output: "echo: hi" });
    expect(good!.isError).toBeUndefined();
    // The error reached the model in the request that let it correct itself.
    expect(toolResults(model.requests[1]!.messages)[0]!.isError).toBe(true);
  });

  it("answers schema failures and unknown tools with errors that say what to fix", async () => {
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "a", name: "echo", input: { text: 5 } },
          { id: "b", name: "nope", input: {} },
        ],
      },
      { text: "ok" },
    ]);
    const result = await new AgentRuntime({ model, tools: [echoTool()] }).run("go");
    const [schema, unknown] = toolResults(result.messages);
    expect(schema).toMatchObject({ isError: true });
    expect(schema!.output).toMatch(/Invalid input for tool "echo":\n- text: .*string/);
    expect(unknown).toMatchObject({
      isError: true,
      output: expect.stringContaining('Unknown tool "nope". Available tools: echo'),
    });
  });

  it("reports a throwing tool as an error result and goes on", async () => {
    const boom: AgentTool = {
      name: "boom",
      description: "",
      inputSchema: { type: "object" },
      execute: () => {
        throw new Error("disk full");
      },
    };
    const model = createScriptedModel([{ toolCalls: [{ name: "boom", input: {} }] }, { text: "recovered" }]);
    const result = await new AgentRuntime({ model, tools: [boom] }).run("go");
    expect(result).toMatchObject({ status: "completed", outputText: "recovered" });
    expect(toolResults(result.messages)[0]).toMatchObject({ isError: true, output: 'Tool "boom" failed: disk full' });
  });

  it("cuts a hanging tool at timeoutMs and aborts its signal", async () => {
    let sawAbort = false;
    let abortReason: unknown;
    const hang: AgentTool = {
      name: "hang",
      description: "",
      inputSchema: { type: "object" },
      timeoutMs: 50,
      execute: (_input, ctx) => {
        ctx.signal.addEventListener("abort", () => {
          sawAbort = true;
          abortReason = ctx.signal.reason;
        });
        return new Promise(() => {});
      },
    };
    const model = createScriptedModel([{ toolCalls: [{ name: "hang", input: {} }] }, { text: "moved on" }]);
    // The tool never settles by itself: the run ending at all is the timeout's doing.
    const result = await new AgentRuntime({ model, tools: [hang] }).run("go");
    expect(result.outputText).toBe("moved on");
    expect(toolResults(result.messages)[0]).toMatchObject({
      isError: true,
      output: expect.stringContaining("timed out after 50 ms"),
    });
    expect(sawAbort).toBe(true);
    // The tool can tell its own timeout from an abort of the run by the reason's code.
    expect(abortReason).toMatchObject({ code: "tool_timeout", message: 'Tool "hang" timed out after 50 ms' });
  });

  it("retries a throwing tool maxRetries times, and says so when all attempts fail", async () => {
    let calls = 0;
    const flaky: AgentTool = {
      name: "flaky",
      description: "",
      inputSchema: { type: "object" },
      maxRetries: 2,
      execute: () => {
        calls++;
        if (calls !== 3) throw new Error(`try ${calls}`);
        return "third time";
      },
    };
    const model = createScriptedModel([
      { toolCalls: [{ name: "flaky", input: {} }] },
      { toolCalls: [{ name: "flaky", input: {} }] },
      { text: "end" },
    ]);
    const result = await new AgentRuntime({ model, tools: [flaky] }).run("go");
    const [first, second] = toolResults(result.messages);
    expect(first).toMatchObject({ output: "third time" });
    expect(calls).toBe(6);
    expect(second).toMatchObject({ isError: true, output: 'Tool "flaky" failed (after 3 attempts): try 6' });
  });

  it("does not retry a tool that timed out, even with maxRetries", async () => {
    let calls = 0;
    const hangs: AgentTool = {
      name: "hangs",
      description: "",
      inputSchema: { type: "object" },
      timeoutMs: 30,
      maxRetries: 3,
      execute: () => {
        calls++;
        return new Promise(() => {});
      },
    };
    const model = createScriptedModel([{ toolCalls: [{ name: "hangs", input: {} }] }, { text: "end" }]);
    const result = await new AgentRuntime({ model, tools: [hangs] }).run("go");
    expect(calls).toBe(1);
    expect(toolResults(result.messages)[0]).toMatchObject({
      isError: true,
      output: expect.stringContaining("timed out"),
    });
  });

  it("runs parallel tools within the bound and reports results in call order", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const delays = [60, 10, 40, 5, 30];
    const slow: AgentTool = {
      name: "slow",
      description: "",
      inputSchema: { type: "object" },
      execute: async (input: { i: number }) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await sleep(delays[input.i]!);
        inFlight--;
        return `r${input.i}`;
      },
    };
    const model = createScriptedModel([
      { toolCalls: delays.map((_, i) => ({ id: `c${i}`, name: "slow", input: { i } })) },
      { text: "all done" },
    ]);
    const agent = new AgentRuntime({ model, tools: [slow], toolExecution: "parallel", maxParallelTools: 2 });
    const events = recordEvents(agent);
    const result = await agent.run("go");
    expect(maxInFlight).toBe(2);
    expect(toolResults(result.messages).map((r) => r.output)).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    const finishOrder = events
      .filter((e) => e.type === "tool-finished")
      .map((e) => (e as { toolCall: { toolCallId: string } }).toolCall.toolCallId);
    expect(finishOrder).not.toEqual(["c0", "c1", "c2", "c3", "c4"]);
  });

  it("asks for approval one call at a time even when tools run in parallel", async () => {
    let asking = 0;
    let maxAsking = 0;
    const calls = Array.from({ length: 4 }, (_, i) => ({ id: `c${i}`, name: "echo", input: { text: `${i}` } }));
    const model = createScriptedModel([{ toolCalls: calls }, { text: "ok" }]);
    const result = await new AgentRuntime({
      model,
      tools: [echoTool()],
      toolExecution: "parallel",
      requestToolApproval: async () => {
        maxAsking = Math.max(maxAsking, ++asking);
        await sleep(10);
        asking--;
        return { approved: true };
      },
    }).run("go");
    expect(toolResults(result.messages).map((r) => r.output)).toEqual(["echo: 0", "echo: 1", "echo: 2", "echo: 3"]);
    expect(maxAsking).toBe(1);
  });

  it("records a denied approval and hands an approved updatedInput to the tool", async () => {
    const seen: unknown[] = [];
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "d", name: "echo", input: { text: "rm -rf" } },
          { id: "u", name: "echo", input: { text: "draft" } },
        ],
      },
      { text: "ok" },
    ]);
    const agent = new AgentRuntime({
      model,
      tools: [
        echoTool({
          execute: (input: { text: string }) => {
            seen.push(input);
            return input.text;
          },
        }),
      ],
      requestToolApproval: ({ toolCall, input }) =>
        toolCall.toolCallId === "d"
          ? { approved: false, reason: "too dangerous" }
          : { approved: true, updatedInput: { ...(input as object), text: "final" } },
    });
    const result = await agent.run("go");
    expect(result.permissionDenials).toEqual([
      { toolCallId: "d", toolName: "echo", input: { text: "rm -rf" }, reason: "too dangerous" },
    ]);
    const [denied, updated] = toolResults(result.messages);
    expect(denied).toMatchObject({
      isError: true,
      output: expect.stringContaining('denied permission to run "echo": too dangerous'),
    });
    expect(updated).toMatchObject({ output: "final" });
    expect(seen).toEqual([{ text: "final" }]);
  });

  it("applies toolPolicies: a disabled tool is not offered nor run, autoApprove skips the prompt", async () => {
    const asked: string[] = [];
    const other: AgentTool = {
      name: "other",
      description: "",
      inputSchema: { type: "object" },
      execute: () => "other ran",
    };
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "1", name: "other", input: {} },
          { id: "2", name: "echo", input: { text: "x" } },
        ],
      },
      { text: "ok" },
    ]);
    const agent = new AgentRuntime({
      model,
      tools: [echoTool(), other],
      toolPolicies: { "*": { autoApprove: true }, other: { enabled: false } },
      requestToolApproval: ({ toolCall }) => {
        asked.push(toolCall.toolName);
        return { approved: true };
      },
    });
    const result = await agent.run("go");
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(["echo"]);
    expect(toolResults(result.messages)).toMatchObject([
      { isError: true, output: expect.stringContaining("disabled by policy") },
      { output: "echo: x" },
    ]);
    expect(asked).toEqual([]);
    expect(result.permissionDenials.map((d) => d.toolName)).toEqual(["other"]);
  });

  it("denies a call whose policy asks for approval when no approver is configured", async () => {
    let ran = 0;
    const model = createScriptedModel([
      { toolCalls: [{ id: "1", name: "echo", input: { text: "x" } }] },
      { text: "ok" },
    ]);
    const result = await new AgentRuntime({
      model,
      tools: [echoTool({ execute: () => `ran ${++ran}` })],
      toolPolicies: { echo: { autoApprove: false } },
    }).run("go");
    expect(ran).toBe(0);
    expect(toolResults(result.messages)).toMatchObject([
      { isError: true, output: expect.stringContaining("no approver is configured") },
    ]);
    expect(result.permissionDenials).toMatchObject([
      { toolName: "echo", reason: expect.stringContaining("no approver") },
    ]);
  });

  it("runs none of the calls of a response cut at max-tokens, tells the model, and goes on", async () => {
    let ran = 0;
    const model = createScriptedModel([
      { toolCalls: [{ name: "echo", input: { text: "a" } }], finishReason: "max-tokens" },
      { text: "shorter now" },
    ]);
    const result = await new AgentRuntime({
      model,
      tools: [
        echoTool({
          execute: () => {
            ran++;
            return "";
          },
        }),
      ],
    }).run("go");
    expect(ran).toBe(0);
    expect(result).toMatchObject({ status: "completed", reason: "end_turn", outputText: "shorter now" });
    expect(toolResults(result.messages)[0]).toMatchObject({
      isError: true,
      output: expect.stringContaining("cut at the token limit"),
    });
  });

  it("turns emitUpdate into tool-updated events and passes metadata to the tool", async () => {
    const progress: AgentTool = {
      name: "progress",
      description: "",
      inputSchema: { type: "object" },
      execute: (_i, ctx) => {
        ctx.emitUpdate({ pct: 50 });
        return String(ctx.metadata.workspace);
      },
    };
    const model = createScriptedModel([{ toolCalls: [{ name: "progress", input: {} }] }, { text: "ok" }]);
    const agent = new AgentRuntime({ model, tools: [progress], metadata: { workspace: "/ws" } });
    const events = recordEvents(agent);
    const result = await agent.run("go");
    expect(events.find((e) => e.type === "tool-updated")).toMatchObject({ update: { pct: 50 } });
    expect(toolResults(result.messages)[0]!.output).toBe("/ws");
  });
});
