import { createScriptedModel } from "@heddle/llms/testing";
import { describe, expect, it } from "vitest";
import { echoTool } from "../test/helpers.js";
import { AgentRuntime } from "./index.js";

const toolThenDone = () =>
  createScriptedModel([{ toolCalls: [{ id: "c1", name: "echo", input: { text: "hi" } }] }, { text: "done" }]);

// A turn is a whole send; a step is one model call. The per-call names say "step"; the old "turn" names still work.
describe("step names and their deprecated turn aliases", () => {
  it("prepareStep is called before each model call of a run; prepareTurn still works under its old name", async () => {
    for (const name of ["prepareStep", "prepareTurn"] as const) {
      const iterations: number[] = [];
      const agent = new AgentRuntime({
        model: toolThenDone(),
        tools: [echoTool()],
        [name]: (ctx: { iteration: number }) => void iterations.push(ctx.iteration),
      });
      await agent.run("go");
      expect(iterations).toEqual([1, 2]);
    }
  });

  it("giving both prepareStep and prepareTurn is a ConfigError", () => {
    expect(
      () => new AgentRuntime({ model: toolThenDone(), prepareStep: () => undefined, prepareTurn: () => undefined }),
    ).toThrow(expect.objectContaining({ name: "ConfigError" }));
  });

  it("afterStep runs after each model call once its tools ran; afterTurn hooks still run, after afterStep's", async () => {
    const calls: string[] = [];
    const agent = new AgentRuntime({
      model: toolThenDone(),
      tools: [echoTool()],
      hooks: {
        afterTurn: ({ results }) => void calls.push(`turn:${results.length}`),
        afterStep: ({ results }) => void calls.push(`step:${results.length}`),
      },
    });
    await agent.run("go");
    expect(calls).toEqual(["step:1", "turn:1", "step:0", "turn:0"]);
  });
});
