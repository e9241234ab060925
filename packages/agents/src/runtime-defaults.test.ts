import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentTool } from "@heddle/shared";
import { describe, expect, it, vi } from "vitest";
import { echoTool, sleep, toolResults } from "../test/helpers.js";
import { AgentRuntime } from "./index.js";

const echoCalls = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ toolCalls: [{ id: `c${i}`, name: "echo", input: { text: `${i}` } }] }));

describe("AgentRuntime defaults", () => {
  it("makes at most 50 model calls per run", async () => {
    const model = createScriptedModel(echoCalls(60));
    const result = await new AgentRuntime({ model, tools: [echoTool()] }).run("go");
    expect(result).toMatchObject({ status: "incomplete", reason: "max_iterations", iterations: 50 });
    expect(model.requests).toHaveLength(50);
  });

  it("runs at most 8 tools at once when toolExecution is parallel", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const slow: AgentTool = {
      name: "slow",
      description: "Waits a little",
      inputSchema: { type: "object" },
      execute: async () => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await sleep(20);
        inFlight--;
        return "ok";
      },
    };
    const calls = Array.from({ length: 12 }, (_, i) => ({ id: `c${i}`, name: "slow", input: {} }));
    const model = createScriptedModel([{ toolCalls: calls }, { text: "done" }]);
    const result = await new AgentRuntime({ model, tools: [slow], toolExecution: "parallel" }).run("go");
    expect(toolResults(result.messages)).toHaveLength(12);
    expect(maxInFlight).toBe(8);
  });

  it("sends at most 3 completionGuard reminders per run, then ends end_turn", async () => {
    const model = createScriptedModel(Array.from({ length: 6 }, (_, i) => ({ text: `answer ${i}` })));
    const agent = new AgentRuntime({ model, completionGuard: () => "Run the tests first." });
    expect(await agent.run("go")).toMatchObject({ status: "completed", reason: "end_turn", outputText: "answer 3" });
    expect(model.requests).toHaveLength(4);
  });

  it("auto-approves a readOnly tool, asks for the others, and counts a throwing approver as a denial", async () => {
    const asked: string[] = [];
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "r", name: "look", input: { text: "a" } },
          { id: "w", name: "echo", input: { text: "b" } },
        ],
      },
      { text: "ok" },
    ]);
    const agent = new AgentRuntime({
      model,
      tools: [echoTool({ name: "look", readOnly: true }), echoTool()],
      requestToolApproval: ({ toolCall }) => {
        asked.push(toolCall.toolName);
        throw new Error("the prompt crashed");
      },
    });
    const result = await agent.run("go");
    expect(asked).toEqual(["echo"]);
    expect(toolResults(result.messages)).toMatchObject([
      { toolCallId: "r", output: "echo: a" },
      { toolCallId: "w", isError: true },
    ]);
    expect(result.permissionDenials).toMatchObject([{ toolName: "echo", reason: /the prompt crashed/ }]);
  });

  it("gives a plugin's setup 10 seconds", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const agent = new AgentRuntime({
        model: createScriptedModel([{ text: "never" }]),
        plugins: [{ name: "stuck", setup: () => new Promise(() => {}) }],
      });
      let settled: unknown;
      agent.run("go").then(
        () => (settled = "resolved"),
        (error: { code?: string }) => (settled = error.code),
      );
      await vi.advanceTimersByTimeAsync(9_999);
      expect(settled).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBe("plugin_setup_timeout");
    } finally {
      vi.useRealTimers();
    }
  });
});
