import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentRuntime } from "@heddle/agents";
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentRuntimeEvent, type AgentTool, getToolResults, type ToolContext } from "@heddle/shared";
import { afterAll, describe, expect, it } from "vitest";
import {
  createAgentHost,
  createSpawnAgentTool,
  DEFAULT_SUBAGENT_PROMPT,
  isSubagentUpdate,
  type SubagentUpdate,
} from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-spawn-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lookupTool(seen: ToolContext[] = []): AgentTool {
  return {
    name: "lookup",
    description: "looks a value up",
    inputSchema: { type: "object", properties: { key: { type: "string" } } },
    execute: (input: { key: string }, ctx) => {
      seen.push(ctx);
      return `value of ${input.key} is 42`;
    },
  };
}

const spawnCall = (tools?: string[]) => ({
  toolCalls: [
    {
      id: "call_spawn",
      name: "spawn_agent",
      input: { description: "look up the answer", prompt: "Find the value of x.", ...(tools && { tools }) },
    },
  ],
  usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.001 },
});

function resultOf(messages: Parameters<typeof getToolResults>[0][], toolCallId: string) {
  for (const message of messages)
    for (const part of getToolResults(message)) if (part.toolCallId === toolCallId) return part;
  return undefined;
}

describe("spawn_agent", () => {
  it("runs a sub-agent that uses a tool; its summary is the result and its usage is the parent's", async () => {
    const seen: ToolContext[] = [];
    const childModel = createScriptedModel([
      {
        toolCalls: [{ id: "call_lookup", name: "lookup", input: { key: "x" } }],
        usage: { inputTokens: 50, outputTokens: 5, costUsd: 0.002 },
      },
      { text: "x is 42.", usage: { inputTokens: 60, outputTokens: 5, costUsd: 0.002 } },
    ]);
    const spawn = createSpawnAgentTool({ model: childModel, tools: [lookupTool(seen)], systemPrompt: "Be brief." });
    const parentModel = createScriptedModel([
      spawnCall(["lookup"]),
      { text: "The sub-agent says 42.", usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.001 } },
    ]);
    const events: AgentRuntimeEvent[] = [];
    const lead = new AgentRuntime({ model: parentModel, tools: [spawn], agentId: "lead" });
    lead.subscribe((event) => events.push(event));
    const result = await lead.run("What is x?");

    expect(result.status).toBe("completed");
    expect(result.outputText).toBe("The sub-agent says 42.");
    const spawnResult = resultOf(result.messages, "call_spawn");
    expect(spawnResult).toMatchObject({ output: "x is 42.", toolName: "spawn_agent" });
    expect(spawnResult?.isError).toBeUndefined();
    // The child's own context: the prompt only, its system prompt, and only the tools it asked for.
    expect(childModel.requests[0]!.messages).toHaveLength(1);
    expect(childModel.requests[0]!.systemPrompt).toBe("Be brief.");
    expect(childModel.requests[0]!.tools.map((t) => t.name)).toEqual(["lookup"]);
    expect(seen[0]).toMatchObject({ parentAgentId: "lead" });
    expect(seen[0]!.agentId).not.toBe("lead");
    // Usage: 2 parent calls ($0.001 each) + 2 child calls ($0.002 each).
    expect(result.usage.costUsd).toBeCloseTo(0.006);
    expect(result.usage.inputTokens).toBe(100 + 100 + 50 + 60);

    // The child's events reach the host tagged with the parent's tool call.
    const updates = events
      .filter((e): e is Extract<AgentRuntimeEvent, { type: "tool-updated" }> => e.type === "tool-updated")
      .map((e) => e.update)
      .filter(isSubagentUpdate);
    expect(updates.length).toBeGreaterThan(0);
    for (const update of updates)
      expect(update).toMatchObject({
        parentToolCallId: "call_spawn",
        parentAgentId: "lead",
        subagentId: seen[0]!.agentId,
        depth: 1,
        description: "look up the answer",
      });
    const types = updates.map((u) => u.event.type);
    expect(types[0]).toBe("run-started");
    expect(types).toContain("tool-started");
    const finished = updates.find((u) => u.event.type === "run-finished") as SubagentUpdate;
    expect(finished.event).toMatchObject({ result: { outputText: "x is 42.", messages: [] } });
  });

  it('returns "(no summary)" for an empty answer, names unknown tools to the model, and tells a child without a prompt to finish and summarise', async () => {
    const parentModel = createScriptedModel([
      {
        toolCalls: [
          { id: "call_bad", name: "spawn_agent", input: { description: "d", prompt: "p", tools: ["rm_rf"] } },
        ],
      },
      spawnCall(),
      { text: "ok" },
    ]);
    const childModel = createScriptedModel([{ text: "" }]);
    const result = await new AgentRuntime({
      model: parentModel,
      tools: [createSpawnAgentTool({ model: childModel, tools: [lookupTool()] })],
    }).run("go");
    // Without a system prompt of the host's, the child is told to finish and summarise.
    expect(childModel.requests[0]!.systemPrompt).toBe(DEFAULT_SUBAGENT_PROMPT);
    expect(resultOf(result.messages, "call_bad")).toMatchObject({ isError: true });
    expect(String(resultOf(result.messages, "call_bad")?.output)).toContain("Available: lookup");
    expect(resultOf(result.messages, "call_spawn")?.output).toBe("(no summary)");
  });

  it("holds the child to what is left of the parent's budget, and the parent stops on it", async () => {
    const childModel = createScriptedModel(
      [{ toolCalls: [{ name: "lookup", input: { key: "again" } }], usage: { inputTokens: 10, costUsd: 0.02 } }],
      { whenExhausted: "repeat-last" },
    );
    const spawn = createSpawnAgentTool({ model: childModel, tools: [lookupTool()], maxIterations: 50 });
    const parentModel = createScriptedModel(
      [
        {
          toolCalls: [{ id: "call_spawn", name: "spawn_agent", input: { description: "d", prompt: "loop" } }],
          usage: { costUsd: 0.01 },
        },
      ],
      { whenExhausted: "repeat-last" },
    );
    const result = await new AgentRuntime({ model: parentModel, tools: [spawn], maxBudgetUsd: 0.05 }).run("go");
    // $0.01 spent by the parent leaves $0.04: the child stops after two $0.02 calls, then so does the parent.
    expect(childModel.requests).toHaveLength(2);
    expect(result.reason).toBe("max_budget");
    expect(result.usage.costUsd).toBeCloseTo(0.05);
    expect(parentModel.requests).toHaveLength(1);
    expect(String(resultOf(result.messages, "call_spawn")?.output)).toContain("stopped before finishing: max_budget");
  });

  it("stops children running in parallel once together they used up the parent's budget", async () => {
    const childModel = createScriptedModel(
      [{ toolCalls: [{ name: "lookup", input: { key: "again" } }], usage: { inputTokens: 10, costUsd: 0.02 } }],
      { whenExhausted: "repeat-last" },
    );
    const spawn = createSpawnAgentTool({ model: childModel, tools: [lookupTool()], maxIterations: 50 });
    const twoSpawns = {
      toolCalls: [
        { id: "call_a", name: "spawn_agent", input: { description: "a", prompt: "loop" } },
        { id: "call_b", name: "spawn_agent", input: { description: "b", prompt: "loop" } },
      ],
      usage: { costUsd: 0.01 },
    };
    const result = await new AgentRuntime({
      model: createScriptedModel([twoSpawns], { whenExhausted: "repeat-last" }),
      tools: [spawn],
      toolExecution: "parallel",
      maxBudgetUsd: 0.05,
    }).run("go");
    // Each child alone may spend the $0.04 left (2 calls each, 4 in all); together they stop at the shared limit.
    expect(childModel.requests.length).toBeLessThan(4);
    expect(result.reason).toBe("max_budget");
  });

  it("aborting the parent stops the child and the child's running tool", async () => {
    let toolStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      toolStarted = resolve;
    });
    let sawAbort = false;
    const hang: AgentTool = {
      name: "hang",
      description: "waits until aborted",
      inputSchema: { type: "object" },
      execute: (_input, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            sawAbort = true;
            resolve("aborted");
          });
          toolStarted();
        }),
    };
    const childModel = createScriptedModel([{ toolCalls: [{ name: "hang", input: {} }] }, { text: "never" }]);
    const spawn = createSpawnAgentTool({ model: childModel, tools: [hang] });
    const lead = new AgentRuntime({ model: createScriptedModel([spawnCall(), { text: "never" }]), tools: [spawn] });
    const running = lead.run("go");
    await started;
    lead.abort("user pressed escape");
    const result = await running;
    expect(result.status).toBe("aborted");
    expect(sawAbort).toBe(true);
    // The child made no further model call after its tool was stopped.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(childModel.requests).toHaveLength(1);
  });

  it("limits depth: no spawn_agent in a child by default; maxDepth 2 allows one level more", async () => {
    const shallowChild = createScriptedModel([{ text: "done" }]);
    const own = createSpawnAgentTool({ model: shallowChild, tools: [lookupTool()] });
    // Even a spawn tool passed in the list is not handed down.
    const shallow = createSpawnAgentTool({ model: shallowChild, tools: [lookupTool(), own] });
    await new AgentRuntime({ model: createScriptedModel([spawnCall(), { text: "ok" }]), tools: [shallow] }).run("go");
    expect(shallowChild.requests[0]!.tools.map((t) => t.name)).toEqual(["lookup"]);

    const nested = createScriptedModel([
      spawnCall(), // the child spawns a grandchild
      { text: "grandchild answer" }, // the grandchild answers
      { text: "child answer" }, // the child answers
    ]);
    const deep = createSpawnAgentTool({ model: nested, tools: [lookupTool()], maxDepth: 2 });
    const result = await new AgentRuntime({
      model: createScriptedModel([spawnCall(), { text: "ok" }]),
      tools: [deep],
    }).run("go");
    expect(nested.requests[0]!.tools.map((t) => t.name)).toEqual(["lookup", "spawn_agent"]);
    expect(nested.requests[1]!.tools.map((t) => t.name)).toEqual(["lookup"]);
    expect(resultOf(result.messages, "call_spawn")?.output).toBe("child answer");
  });

  it("fires SubagentStart and SubagentStop command hooks; a deny blocks the child", async () => {
    const workspaceRoot = mkdtempSync(join(dir, "ws-"));
    const spawn = createSpawnAgentTool({
      model: createScriptedModel([{ text: "child done" }]),
      tools: [],
      agentType: "checker",
    });
    // The hooks are the host's: the sub-agent runs under the lead's.
    const host = createAgentHost({
      commandHooks: {
        workspaceRoot,
        loadSettingsFile: false,
        settings: {
          hooks: {
            SubagentStart: [{ matcher: "checker", hooks: [{ type: "command", command: "cat > start.json" }] }],
            SubagentStop: [{ hooks: [{ type: "command", command: "cat > stop.json" }] }],
            Stop: [{ hooks: [{ type: "command", command: "cat >> run-stops.log; echo >> run-stops.log" }] }],
          },
        },
      },
    });
    const lead = host.createAgent({
      model: createScriptedModel([spawnCall(), { text: "ok" }]),
      tools: [spawn],
      agentId: "lead",
    });
    await lead.run("go");
    const start = JSON.parse(readFileSync(join(workspaceRoot, "start.json"), "utf8"));
    const stop = JSON.parse(readFileSync(join(workspaceRoot, "stop.json"), "utf8"));
    expect(start).toMatchObject({
      hook_event_name: "SubagentStart",
      agent_type: "checker",
      parent_agent_id: "lead",
      prompt: "Find the value of x.",
    });
    expect(stop).toMatchObject({
      hook_event_name: "SubagentStop",
      agent_id: start.agent_id,
      status: "completed",
      output_text: "child done",
    });
    // The child's end is SubagentStop only: Stop fired once, for the lead.
    const stops = readFileSync(join(workspaceRoot, "run-stops.log"), "utf8").trim().split("\n");
    expect(stops.map((line) => JSON.parse(line).hook_event_name)).toEqual(["Stop"]);

    const childModel = createScriptedModel([{ text: "should not run" }]);
    const blocked = createSpawnAgentTool({ model: childModel, tools: [] });
    const denying = createAgentHost({
      commandHooks: {
        workspaceRoot,
        loadSettingsFile: false,
        settings: {
          hooks: {
            SubagentStart: [
              { hooks: [{ type: "command", command: "cat >/dev/null; echo 'no sub-agents today' >&2; exit 2" }] },
            ],
          },
        },
      },
    });
    const result = await denying
      .createAgent({ model: createScriptedModel([spawnCall(), { text: "ok" }]), tools: [blocked] })
      .run("go");
    expect(resultOf(result.messages, "call_spawn")).toMatchObject({ isError: true });
    expect(String(resultOf(result.messages, "call_spawn")?.output)).toContain("no sub-agents today");
    expect(childModel.requests).toHaveLength(0);
  });
});
