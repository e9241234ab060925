import { createScriptedModel } from "@heddle/llms/testing";
import { describe, expect, it } from "vitest";
import { echoTool, toolResults } from "../test/helpers.js";
import { AgentRuntime } from "./index.js";

describe("hostile tool-call arguments", () => {
  it("a cut-off value is an error result, never a call with the half-written value", async () => {
    const ran: unknown[] = [];
    const model = createScriptedModel([
      { toolCalls: [{ id: "cut", name: "echo", inputText: '{"text": "Par' }] },
      { text: "sorry" },
    ]);
    const agent = new AgentRuntime({ model, tools: [echoTool({ execute: (input) => ran.push(input) })] });
    const result = await agent.run("go");
    expect(ran).toEqual([]);
    const [cut] = toolResults(result.messages);
    expect(cut).toMatchObject({ toolCallId: "cut", isError: true });
    expect(cut!.output).toContain("cut off");
    expect(cut!.output).toContain('You sent: {"text": "Par');
  });

  it("arguments nested 100,000 deep give an error result, and the same runtime runs again", async () => {
    const deep = 100_000;
    const model = createScriptedModel([
      { toolCalls: [{ id: "closed", name: "echo", inputText: `${"[".repeat(deep)}${"]".repeat(deep)}` }] },
      { toolCalls: [{ id: "open", name: "echo", inputText: `{"text":${'{"a":'.repeat(deep)}` }] },
      { text: "gave up" },
      { toolCalls: [{ id: "fine", name: "echo", input: { text: "hi" } }] },
      { text: "done" },
    ]);
    const agent = new AgentRuntime({ model, tools: [echoTool()] });
    const first = await agent.run("go");
    expect(first).toMatchObject({ status: "completed", outputText: "gave up" });
    const [closed, open] = toolResults(first.messages);
    expect(closed).toMatchObject({ toolCallId: "closed", isError: true });
    expect(closed!.output).toContain("nest deeper than");
    expect(open).toMatchObject({ toolCallId: "open", isError: true });
    // The transcript stays small and serializable: the bad call is recorded with an empty input.
    expect(JSON.stringify(first.messages).length).toBeLessThan(10_000);

    const second = await agent.run("again");
    expect(second).toMatchObject({ status: "completed", outputText: "done" });
    expect(toolResults(second.newMessages)).toEqual([
      expect.objectContaining({ toolCallId: "fine", output: "echo: hi" }),
    ]);
  });
});
