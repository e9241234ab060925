// team_wait: the lead waits for its teammates' reports on its mailbox (no polling), and team_tasks: the team's
// shared task list, through the tools a model calls.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as tick } from "node:timers/promises";
import { AgentRuntime } from "@heddle/agents";
import { createScriptedModel } from "@heddle/llms/testing";
import {
  type AgentModelRequest,
  type AgentTool,
  getToolResults,
  type ToolContext,
  toolOutputText,
} from "@heddle/shared";
import { afterAll, describe, expect, it } from "vitest";
import {
  AgentTeamManager,
  createTeamTaskTool,
  createTeamTools,
  InMemoryTeamMailbox,
  SqliteTeamRoster,
} from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-team-wait-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const context = (agentId: string, signal = new AbortController().signal) =>
  ({ agentId, toolCallId: "call", signal, metadata: {}, emitUpdate: () => {}, runId: "run" }) as unknown as ToolContext;

const tool = (tools: AgentTool[], name: string) => tools.find((t) => t.name === name)!;

describe("team_wait", () => {
  it("blocks until the first message arrives, then takes every new one", async () => {
    const mailbox = new InMemoryTeamMailbox();
    const manager = new AgentTeamManager({ mailbox, model: createScriptedModel([]) });
    const wait = tool(createTeamTools(manager, { leadId: "lead" }), "team_wait");
    let settled = false;
    const waiting = Promise.resolve(wait.execute({ timeout_seconds: 60 }, context("lead"))).finally(() => {
      settled = true;
    });
    for (let i = 0; i < 20; i++) await tick();
    expect(settled).toBe(false);
    await mailbox.send({ to: "lead", from: "w1", kind: "task_notification", text: "report 1" });
    await mailbox.send({ to: "lead", from: "w2", kind: "task_notification", text: "report 2" });
    const output = String(await waiting);
    expect(output).toContain('from="w1" kind="task_notification"');
    expect(output).toContain("report 2");
    expect(await mailbox.list("lead")).toEqual([]);
  });

  it("ends after its timeout with a plain answer; the run's abort ends it as aborted", async () => {
    const mailbox = new InMemoryTeamMailbox();
    const manager = new AgentTeamManager({ mailbox, model: createScriptedModel([]) });
    const wait = tool(createTeamTools(manager), "team_wait");
    expect(await wait.execute({ timeout_seconds: 0.05 }, context("lead"))).toMatch(/^No message arrived within 0.05 s/);
    const controller = new AbortController();
    const waiting = Promise.resolve(wait.execute({ timeout_seconds: 60 }, context("lead", controller.signal)));
    controller.abort(new Error("run aborted"));
    await expect(waiting).rejects.toThrow("run aborted");
    // Nothing was taken: a message sent later is still there for the next read.
    await mailbox.send({ to: "lead", from: "w1", text: "late" });
    expect((await mailbox.list("lead")).map((m) => m.text)).toEqual(["late"]);
  });

  it("a lead model waits for its teammates' reports with team_wait: every wait returns a report, none polls empty", async () => {
    const mailbox = new InMemoryTeamMailbox();
    // The teammates finish only once the lead is waiting: their work is held at a gate the lead's first wait opens.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const gated: AgentTool = {
      name: "work",
      description: "works",
      inputSchema: { type: "object" },
      execute: async () => {
        await gate;
        return "worked";
      },
    };
    const teammateModel = createScriptedModel(
      [
        (request: AgentModelRequest) =>
          request.messages.at(-1)!.role === "user"
            ? { toolCalls: [{ name: "work", input: {} }] }
            : { text: "finished my part" },
      ],
      { whenExhausted: "repeat-last" },
    );
    const manager = new AgentTeamManager({ mailbox, model: teammateModel, tools: [gated], compaction: false });
    const waits: string[] = [];
    // The lead spawns two teammates, then waits until it has both reports.
    const leadModel = createScriptedModel(
      [
        { toolCalls: [{ id: "s1", name: "team_spawn", input: { agent_id: "w1", prompt: "part 1" } }] },
        { toolCalls: [{ id: "s2", name: "team_spawn", input: { agent_id: "w2", prompt: "part 2" } }] },
        (request: AgentModelRequest) => {
          const results = request.messages.flatMap(getToolResults).filter((r) => r.toolName === "team_wait");
          waits.splice(0, waits.length, ...results.map((r) => toolOutputText(r.output)));
          const reports = waits.join("\n").match(/kind="task_notification"/g)?.length ?? 0;
          if (reports >= 2) return { text: "both parts are done" };
          return { toolCalls: [{ id: `wait${results.length}`, name: "team_wait", input: { timeout_seconds: 30 } }] };
        },
      ],
      { whenExhausted: "repeat-last" },
    );
    const lead = new AgentRuntime({
      model: leadModel,
      tools: createTeamTools(manager, { leadId: "lead" }),
      agentId: "lead",
    });
    lead.subscribe((event) => {
      if (event.type === "tool-started" && event.toolCall.toolName === "team_wait") setTimeout(open, 20);
    });
    const result = await lead.run("split the work");
    expect(result.outputText).toBe("both parts are done");
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits.length).toBeLessThanOrEqual(2);
    for (const output of waits) expect(output).toContain('kind="task_notification"');
    await manager.stopAll();
  });
});

describe("team_tasks", () => {
  it("the lead adds tasks; teammates claim them without overlap; only a claimer completes its task", async () => {
    const mailbox = new InMemoryTeamMailbox();
    const manager = new AgentTeamManager({ mailbox, model: createScriptedModel([]) });
    const tasks = tool(createTeamTools(manager), "team_tasks");
    const run = (agentId: string, input: object) => Promise.resolve(tasks.execute(input, context(agentId)));
    expect(await run("lead", { action: "add", title: "parse", description: "src/parse.ts" })).toBe(
      "Added task-1: parse",
    );
    expect(await run("lead", { action: "add", title: "test" })).toBe("Added task-2: test");
    expect(await run("w1", { action: "claim" })).toBe("You claimed task-1: parse\nsrc/parse.ts");
    await expect(run("w2", { action: "claim", task_id: "task-1" })).rejects.toMatchObject({
      code: "team_task_conflict",
      message: expect.stringContaining('claimed by "w1"'),
    });
    expect(await run("w2", { action: "claim" })).toBe("You claimed task-2: test");
    await expect(run("w2", { action: "complete", task_id: "task-1" })).rejects.toMatchObject({
      code: "team_task_conflict",
    });
    expect(await run("w1", { action: "complete", task_id: "task-1", result: "done in parse.ts" })).toBe(
      "Completed task-1.",
    );
    expect(JSON.parse(String(await run("lead", { action: "list" })))).toEqual([
      {
        id: "task-1",
        title: "parse",
        description: "src/parse.ts",
        state: "done",
        owner: "w1",
        result: "done in parse.ts",
      },
      { id: "task-2", title: "test", state: "claimed", owner: "w2" },
    ]);
    expect(await run("w3", { action: "claim" })).toBe("No open task.");
  });

  it("on a roster the list is durable and shared: a teammate's tool on a worker and a restarted lead see it", async () => {
    const path = join(dir, "tasks.db");
    const roster = new SqliteTeamRoster({ path });
    const lead = new AgentTeamManager({ mailbox: new InMemoryTeamMailbox(), roster });
    await Promise.resolve(
      tool(createTeamTools(lead), "team_tasks").execute({ action: "add", title: "ship" }, context("lead")),
    );
    // A worker gives its teammates the tool on its own connection to the roster.
    const workerRoster = new SqliteTeamRoster({ path });
    const onWorker = createTeamTaskTool(workerRoster);
    expect(await onWorker.execute({ action: "claim" }, context("w1"))).toBe("You claimed task-1: ship");
    const restarted = new SqliteTeamRoster({ path });
    expect(await restarted.listTasks()).toMatchObject([
      { id: "task-1", state: "claimed", claimedBy: "w1", createdBy: "lead" },
    ]);
    for (const r of [roster, workerRoster, restarted]) await r.close();
  });
});
