import { createScriptedModel } from "@heddle/llms/testing";
import {
  AGENT_RUN_REASONS,
  type AgentRuntimeEvent,
  ConfigError,
  HeddleError,
  type PrepareTurnContext,
  statusForReason,
} from "@heddle/shared";
import { describe, expect, it, vi } from "vitest";
import { allText, echoTool, recordEvents, toolResults } from "../test/helpers.js";
import { AgentRuntime, AgentRuntimeAbortError, AgentRuntimeError, HookError } from "./index.js";

const oneCall = () =>
  createScriptedModel([{ toolCalls: [{ id: "c1", name: "echo", input: { text: "hi" } }] }, { text: "done" }]);

describe("run reasons and statuses", () => {
  it("carries a hook's own reason code through, aborted unless the hook names a status", async () => {
    const coded = await new AgentRuntime({
      model: oneCall(),
      tools: [echoTool()],
      hooks: { afterTool: () => ({ stop: true, reason: "quota_exceeded" }) },
    }).run("go");
    expect(coded).toMatchObject({ status: "aborted", reason: "quota_exceeded" });

    const chosen = await new AgentRuntime({
      model: oneCall(),
      tools: [echoTool()],
      hooks: { afterTool: () => ({ stop: true, reason: "task_handed_off", status: "completed" }) },
    }).run("go");
    expect(chosen).toMatchObject({ status: "completed", reason: "task_handed_off" });

    const text = await new AgentRuntime({
      model: oneCall(),
      tools: [echoTool()],
      hooks: { afterTool: () => ({ stop: true, reason: "Quota exceeded for today" }) },
    }).run("go");
    expect(text).toMatchObject({ status: "aborted", reason: "hook_stop", reasonDetail: "Quota exceeded for today" });
  });

  it("takes a snake_case reason of up to 64 characters as a code, and a longer one as free text", async () => {
    const stopWith = (reason: string) =>
      new AgentRuntime({
        model: oneCall(),
        tools: [echoTool()],
        hooks: { afterTool: () => ({ stop: true, reason }) },
      }).run("go");
    expect(await stopWith("a".repeat(64))).toMatchObject({ reason: "a".repeat(64) });
    expect(await stopWith("a".repeat(65))).toMatchObject({ reason: "hook_stop", reasonDetail: "a".repeat(65) });
  });

  it("names none of core's safety codes among the built-ins; a code it does not know aborts", () => {
    expect(AGENT_RUN_REASONS).not.toContain("loop_detected");
    expect(AGENT_RUN_REASONS).not.toContain("circuit_breaker");
    expect(AGENT_RUN_REASONS).toContain("internal_error");
    expect(statusForReason("loop_detected")).toBe("aborted");
    expect(statusForReason("max_budget")).toBe("incomplete");
    expect(statusForReason("end_turn")).toBe("completed");
    expect(statusForReason("internal_error")).toBe("failed");
  });

  it("ends an internal failure as failed/internal_error, not as a model error", async () => {
    const agent = new AgentRuntime({
      model: createScriptedModel([{ text: "x" }]),
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      consumePendingUserMessage: () => ({ role: "robot" }) as never,
    });
    const result = await agent.run("go");
    expect(result).toMatchObject({ status: "failed", reason: "internal_error", error: { kind: "internal" } });
  });

  it("ends a run whose hook threw as failed with the HookError's code", async () => {
    const result = await new AgentRuntime({
      model: oneCall(),
      tools: [echoTool()],
      hooks: {
        beforeTool: () => {
          throw new Error("boom");
        },
      },
    }).run("go");
    expect(result).toMatchObject({
      status: "failed",
      reason: "hook_stop",
      error: { kind: "hook", code: "hook_failed", message: "hook beforeTool threw: boom" },
    });
  });
});

describe("beforeModel, prepareTurn and afterTurn", () => {
  it("uses what beforeModel returns (messages, tools, options, systemPrompt) for that request", async () => {
    const model = createScriptedModel([{ text: "ok" }]);
    const agent = new AgentRuntime({
      model,
      tools: [echoTool()],
      systemPrompt: "original",
      options: { maxTokens: 100 },
      hooks: {
        beforeModel: [
          ({ request }) => ({ options: { ...request.options, temperature: 0 }, systemPrompt: "replaced" }),
          ({ request }) => ({ messages: [...request.messages.slice(-1)], tools: [] }),
        ],
      },
    });
    await agent.run("hello");
    const [request] = model.requests;
    expect(request!.options).toEqual({ maxTokens: 100, temperature: 0 });
    expect(request!.systemPrompt).toBe("replaced");
    expect(request!.tools).toEqual([]);
    expect(allText(request!.messages)).toBe("hello");
  });

  it("asks the model for no tool-call previews, also after a beforeModel hook: it runs calls from their end", async () => {
    const model = oneCall();
    const agent = new AgentRuntime({
      model,
      tools: [echoTool()],
      hooks: { beforeModel: [({ request }) => ({ options: { ...request.options, temperature: 0 } })] },
    });
    const result = await agent.run("hello");
    expect(result.status).toBe("completed");
    expect(model.requests.map((request) => request.toolCallDeltas)).toEqual([false, false]);
  });

  it("gives prepareTurn the agent's identity and the tools offered", async () => {
    const seen: PrepareTurnContext[] = [];
    await new AgentRuntime({
      model: createScriptedModel([{ text: "ok" }]),
      tools: [echoTool()],
      agentId: "worker-1",
      conversationId: "conv-1",
      parentAgentId: "lead",
      prepareTurn: (ctx) => {
        seen.push(ctx);
      },
    }).run("go");
    expect(seen[0]).toMatchObject({ agentId: "worker-1", conversationId: "conv-1", parentAgentId: "lead" });
    expect(seen[0]!.tools.map((tool) => tool.name)).toEqual(["echo"]);
  });

  it("calls afterTurn with each assistant message and its results; its context reaches the next request", async () => {
    const model = oneCall();
    const turns: Array<{ text: string; results: unknown[] }> = [];
    await new AgentRuntime({
      model,
      tools: [echoTool()],
      hooks: {
        afterTurn: ({ message, results }) => {
          turns.push({ text: message.content.map((p) => p.type).join(","), results: [...results] });
          return results.length > 0 ? { appendContext: "three results so far" } : undefined;
        },
      },
    }).run("go");
    expect(turns).toEqual([
      { text: "tool-call", results: [expect.objectContaining({ toolCallId: "c1", output: "echo: hi" })] },
      { text: "text", results: [] },
    ]);
    expect(allText(model.requests[1]!.messages)).toContain("three results so far");
  });

  it("ends the run when afterTurn asks to stop", async () => {
    const model = oneCall();
    const result = await new AgentRuntime({
      model,
      tools: [echoTool()],
      hooks: { afterTurn: () => ({ stop: true, reason: "enough_turns" }) },
    }).run("go");
    expect(result).toMatchObject({ status: "aborted", reason: "enough_turns", iterations: 1 });
    expect(model.requests).toHaveLength(1);
  });
});

describe("completionGuard", () => {
  it("sends its text as a reminder and goes on, then ends when it returns nothing", async () => {
    const model = createScriptedModel([{ text: "first" }, { text: "second" }]);
    const guard = vi.fn(({ reminders }: { reminders: number }) =>
      reminders === 0 ? "You have not run the tests yet." : undefined,
    );
    const result = await new AgentRuntime({ model, completionGuard: guard }).run("go");
    expect(result).toMatchObject({ status: "completed", reason: "end_turn", outputText: "second", iterations: 2 });
    expect(allText(model.requests[1]!.messages)).toContain("You have not run the tests yet.");
    expect(guard).toHaveBeenCalledTimes(2);
  });

  it("sends at most maxCompletionReminders reminders per run", async () => {
    const model = createScriptedModel([{ text: "again" }], { whenExhausted: "repeat-last" });
    const result = await new AgentRuntime({
      model,
      maxCompletionReminders: 2,
      completionGuard: () => "keep going",
    }).run("go");
    expect(result).toMatchObject({ status: "completed", reason: "end_turn", iterations: 3 });
  });
});

describe("state and identity", () => {
  it("snapshot() is a deep copy: changing it does not change the transcript", async () => {
    const model = createScriptedModel([{ text: "one" }, { text: "two" }]);
    const agent = new AgentRuntime({ model });
    await agent.run("hello");
    const snapshot = agent.snapshot();
    const first = snapshot.messages[0]!.content[0] as { text: string };
    first.text = "tampered";
    snapshot.messages.push(snapshot.messages[0]!);
    expect(agent.snapshot().messages).toHaveLength(2);
    await agent.run("again");
    expect(allText(model.requests[1]!.messages)).not.toContain("tampered");
  });

  it("run() without input continues the conversation, as continue() does", async () => {
    const model = createScriptedModel([{ text: "answer" }]);
    const agent = new AgentRuntime({
      model,
      initialMessages: [{ id: "m1", role: "user", content: [{ type: "text", text: "seeded" }], createdAt: 0 }],
    });
    const result = await agent.run();
    expect(result).toMatchObject({ status: "completed", outputText: "answer" });
    expect(allText(model.requests[0]!.messages)).toBe("seeded");
  });

  it("carries parentAgentId and agentRole into events, snapshots, hook contexts and plugin setup (with the system prompt); the whole AgentIdentity into all but events", async () => {
    const hookSeen: unknown[] = [];
    const setupSeen: unknown[] = [];
    const identity = {
      agentId: "a-1",
      sessionId: "s-1",
      conversationId: "c-1",
      parentAgentId: "lead",
      agentRole: "reviewer",
    };
    const agent = new AgentRuntime({
      model: oneCall(),
      tools: [echoTool()],
      systemPrompt: "You review code.",
      ...identity,
      hooks: { beforeTool: (ctx) => void hookSeen.push(ctx) },
      plugins: [{ name: "p", setup: (ctx) => void setupSeen.push(ctx) }],
    });
    const events = recordEvents(agent);
    await agent.run("go");
    expect(events.length).toBeGreaterThan(5);
    for (const event of events) expect(event).toMatchObject({ parentAgentId: "lead", agentRole: "reviewer" });
    expect(agent.snapshot()).toMatchObject(identity);
    expect(hookSeen[0]).toMatchObject(identity);
    expect(setupSeen[0]).toMatchObject({ ...identity, systemPrompt: "You review code." });
  });

  it("restore() during a run throws a typed busy error", async () => {
    const agent = new AgentRuntime({ model: createScriptedModel([{ text: "slow", delayMs: 200 }]) });
    const running = agent.run("go");
    expect(() => agent.restore([])).toThrow(expect.objectContaining({ name: "AgentRuntimeError", code: "busy" }));
    agent.abort();
    await running;
  });
});

describe("tools and plugins", () => {
  it("refuses an invalid or duplicate tool name with a ConfigError before any model call", async () => {
    const model = createScriptedModel([{ text: "never" }]);
    expect(() => new AgentRuntime({ model, tools: [echoTool({ name: "bad name/../x" })] })).toThrow(ConfigError);
    const fromPlugin = new AgentRuntime({
      model,
      plugins: [{ name: "p", setup: () => ({ tools: [echoTool({ name: "bad name/../x" })] }) }],
    });
    await expect(fromPlugin.run("go")).rejects.toBeInstanceOf(ConfigError);
    const duplicate = new AgentRuntime({ model, tools: [echoTool()], plugins: [{ name: "p", tools: [echoTool()] }] });
    await expect(duplicate.run("go")).rejects.toThrow(/two tools are named "echo"/);
    expect(model.requests).toHaveLength(0);
  });

  it("runs a plugin without setup, with its tools and hooks", async () => {
    const seen: string[] = [];
    const result = await new AgentRuntime({
      model: oneCall(),
      plugins: [
        {
          name: "bare",
          tools: [echoTool()],
          hooks: { afterTool: ({ toolCall }) => void seen.push(toolCall.toolName) },
        },
      ],
    }).run("go");
    expect(toolResults(result.messages)[0]).toMatchObject({ output: "echo: hi" });
    expect(seen).toEqual(["echo"]);
  });

  it("times out a plugin setup that never settles, with a typed error", async () => {
    const agent = new AgentRuntime({
      model: createScriptedModel([{ text: "never" }]),
      pluginSetupTimeoutMs: 30,
      plugins: [{ name: "stuck", setup: () => new Promise(() => {}) }],
    });
    await expect(agent.run("go")).rejects.toMatchObject({ code: "plugin_setup_timeout", message: /"stuck"/ });
    expect(agent.running).toBe(false);
  });

  it("tries a timed-out plugin setup again on the next run", async () => {
    let attempts = 0;
    const agent = new AgentRuntime({
      model: createScriptedModel([{ text: "set up now" }]),
      pluginSetupTimeoutMs: 30,
      plugins: [{ name: "slow", setup: () => (++attempts === 1 ? new Promise(() => {}) : {}) }],
    });
    await expect(agent.run("go")).rejects.toMatchObject({ code: "plugin_setup_timeout" });
    expect((await agent.run("go")).outputText).toBe("set up now");
    expect(attempts).toBe(2);
  });

  it("lets abort() win over a pending plugin setup", async () => {
    const model = createScriptedModel([{ text: "never" }]);
    const agent = new AgentRuntime({ model, plugins: [{ name: "stuck", setup: () => new Promise(() => {}) }] });
    const events = recordEvents(agent);
    const running = agent.run("go");
    await new Promise((resolve) => setTimeout(resolve, 10));
    agent.abort("user left");
    const result = await running;
    expect(result).toMatchObject({ status: "aborted", reason: "aborted", reasonDetail: "user left", iterations: 0 });
    expect(model.requests).toHaveLength(0);
    expect(events.at(-1)?.type).toBe("run-finished");
  });
});

describe("errors and logging", () => {
  it("every error the runtime throws is a HeddleError with a stable code; config errors are ConfigErrors", () => {
    const model = createScriptedModel([]);
    const bad: unknown[] = [
      { model, maxIterations: 0 },
      { model, toolExecution: "sometimes" },
      { model, stopWhen: "never" },
      { model, hooks: { beforeTool: 42 } },
      { model, plugins: [{ setup: () => ({}) }] },
      { model, initialMessages: [{ role: "robot", content: [] }] },
      { model, logger: console.log },
    ];
    for (const config of bad) {
      expect(() => new AgentRuntime(config as never), JSON.stringify(Object.keys(config as object))).toThrow(
        ConfigError,
      );
    }
    expect(new AgentRuntimeError("busy", "x")).toBeInstanceOf(HeddleError);
    expect(new AgentRuntimeAbortError("x")).toMatchObject({ code: "aborted" });
    expect(new HookError("beforeTool", new Error("x"))).toMatchObject({ code: "hook_failed", hook: "beforeTool" });
  });

  it("reports a throwing listener to the configured logger, not the console", async () => {
    const error = vi.fn();
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const agent = new AgentRuntime({
        model: createScriptedModel([{ text: "ok" }]),
        logger: { debug() {}, info() {}, warn() {}, error },
      });
      agent.subscribe((event: AgentRuntimeEvent) => {
        if (event.type === "run-started") throw new Error("listener bug");
      });
      expect((await agent.run("go")).status).toBe("completed");
      expect(error).toHaveBeenCalledWith(expect.stringContaining("listener"), expect.any(Error));
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
  });
});
