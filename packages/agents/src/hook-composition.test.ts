import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentHooks, BeforeModelContext } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { echoTool } from "../test/helpers.js";
import { AgentRuntime, mergeHooks } from "./index.js";

const toolThenDone = () =>
  createScriptedModel([{ toolCalls: [{ id: "c1", name: "echo", input: { text: "hi" } }] }, { text: "done" }]);

describe("mergeHooks", () => {
  it("keeps every function of every set, in the order given, arrays in their order, and changes no set", () => {
    const [a, b1, b2, c] = [() => {}, () => {}, () => {}, () => {}];
    const first: AgentHooks = { beforeModel: a };
    const second: AgentHooks = { beforeModel: [b1, b2], afterRun: c };
    const merged = mergeHooks(first, undefined, second, { beforeModel: c });
    expect(merged.beforeModel).toEqual([a, b1, b2, c]);
    expect(merged.afterRun).toEqual([c]);
    expect(first).toEqual({ beforeModel: a });
    expect(second.beforeModel).toEqual([b1, b2]);
  });
});

describe("how one kind's hooks are called", () => {
  it("runs config hooks (a merged set), then a plugin's, then its setup's: each beforeModel sees the request the previous one left", async () => {
    const model = createScriptedModel([{ text: "ok" }]);
    const append = (text: string) => (ctx: BeforeModelContext) => ({
      systemPrompt: `${ctx.request.systemPrompt ?? ""}${text}`,
    });
    const agent = new AgentRuntime({
      model,
      systemPrompt: "0",
      hooks: mergeHooks({ beforeModel: append("u") }, { beforeModel: [append("h1"), append("h2")] }),
      plugins: [
        { name: "p", hooks: { beforeModel: append("p") }, setup: () => ({ hooks: { beforeModel: append("s") } }) },
      ],
    });
    await agent.run("hi");
    expect(model.requests[0]!.systemPrompt).toBe("0uh1h2ps");
  });

  it("a stop from a beforeModel hook ends the chain: later hooks do not run and the model is not called", async () => {
    const model = createScriptedModel([{ text: "ok" }]);
    const called: string[] = [];
    const agent = new AgentRuntime({
      model,
      hooks: {
        beforeModel: [
          () => void called.push("first"),
          () => {
            called.push("stopper");
            return { stop: true, reason: "over_quota" };
          },
          () => void called.push("after the stop"),
        ],
      },
    });
    const result = await agent.run("hi");
    expect(called).toEqual(["first", "stopper"]);
    expect(model.requests).toHaveLength(0);
    expect(result.reason).toBe("over_quota");
  });

  it("a stop from a beforeRun hook ends the chain", async () => {
    const called: string[] = [];
    const agent = new AgentRuntime({
      model: createScriptedModel([{ text: "ok" }]),
      hooks: {
        beforeRun: [() => ({ stop: true, reason: "closed" }), () => void called.push("after the stop")],
      },
    });
    const result = await agent.run("hi");
    expect(called).toEqual([]);
    expect(result.reason).toBe("closed");
  });

  it("a stop from a beforeTool hook ends the chain for that call; the tool does not run", async () => {
    const called: string[] = [];
    const tool = echoTool({ execute: () => void called.push("tool") });
    const agent = new AgentRuntime({
      model: toolThenDone(),
      tools: [tool],
      hooks: { beforeTool: [() => ({ stop: true, reason: "no_tools" }), () => void called.push("after the stop")] },
    });
    const result = await agent.run("go");
    expect(called).toEqual([]);
    expect(result.reason).toBe("no_tools");
  });

  it("every afterTool hook sees the call that ran, each the result the previous one left; the first stop's reason is the run's", async () => {
    const seen: unknown[] = [];
    const agent = new AgentRuntime({
      model: toolThenDone(),
      tools: [echoTool()],
      hooks: {
        afterTool: [
          (ctx) => ({
            result: { ...ctx.result, output: "rewritten" },
            stop: true,
            reason: "first_reason",
          }),
          (ctx) => {
            seen.push(ctx.result.output);
            return { stop: true, reason: "second_reason" };
          },
        ],
      },
    });
    const result = await agent.run("go");
    expect(seen).toEqual(["rewritten"]);
    expect(result.reason).toBe("first_reason");
  });
});
