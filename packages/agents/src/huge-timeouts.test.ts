// Timeouts past what a timer holds. Fake timers behave like Node's (a delay past 2^31-1 ms fires after 1 ms), so a
// raw setTimeout would cut these at once; time is moved by hand, never measured.
import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentTool } from "@heddle/shared";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toolResults } from "../test/helpers.js";
import { AgentRuntime } from "./index.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("timeouts past 2^31-1 ms", () => {
  it("a tool timeoutMs past 2^31-1 ms or Infinity lets a 60 s tool finish; was: cut after 1 ms", async () => {
    for (const timeoutMs of [2 ** 31, 1e12, Number.POSITIVE_INFINITY]) {
      let started!: () => void;
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      const slow: AgentTool = {
        name: "slow",
        description: "takes a minute",
        inputSchema: { type: "object" },
        timeoutMs,
        execute: () => {
          started();
          return new Promise((resolve) => setTimeout(() => resolve("finished"), 60_000));
        },
      };
      const model = createScriptedModel([{ toolCalls: [{ name: "slow", input: {} }] }, { text: "done" }]);
      const run = new AgentRuntime({ model, tools: [slow] }).run("go");
      await running;
      await vi.advanceTimersByTimeAsync(60_000);
      const result = await run;
      expect(toolResults(result.messages)[0], String(timeoutMs)).toMatchObject({ output: "finished" });
      expect(toolResults(result.messages)[0]?.isError, String(timeoutMs)).toBeFalsy();
    }
  });

  it("a pluginSetupTimeoutMs past 2^31-1 ms lets a 60 s setup finish; was: the run failed with plugin_setup_timeout at once", async () => {
    let started!: () => void;
    const setUp = new Promise<void>((resolve) => {
      started = resolve;
    });
    const agent = new AgentRuntime({
      model: createScriptedModel([{ text: "ready" }]),
      pluginSetupTimeoutMs: 2 ** 31,
      plugins: [
        {
          name: "slow",
          setup: () => {
            started();
            return new Promise((resolve) => setTimeout(() => resolve({}), 60_000));
          },
        },
      ],
    });
    const run = agent.run("go");
    await setUp;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await run).toMatchObject({ status: "completed", outputText: "ready" });
  });
});
