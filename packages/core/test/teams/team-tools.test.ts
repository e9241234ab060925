import { AgentRuntime } from "@heddle/agents";
import { createScriptedModel } from "@heddle/llms/testing";
import { getToolResults, toolOutputText } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { AgentTeamManager, createTeamTools, InMemoryTeamMailbox, type TeammateEvent } from "../../src/index.js";

function waitFor(manager: AgentTeamManager, match: (event: TeammateEvent) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no matching team event")), 5000);
    const stop = manager.subscribe((event) => {
      if (!match(event)) return;
      clearTimeout(timer);
      stop();
      resolve();
    });
  });
}

const call = (name: string, input: object = {}) => ({ toolCalls: [{ id: `call_${name}`, name, input }] });

describe("createTeamTools", () => {
  it("a lead spawns teammates, messages them, reads its mailbox, checks status and shuts one down", async () => {
    const mailbox = new InMemoryTeamMailbox();
    // Teammates answer every message with a fixed text.
    const teammateModel = createScriptedModel([{ text: "on it" }], { whenExhausted: "repeat-last" });
    const manager = new AgentTeamManager({ mailbox, model: teammateModel, compaction: false });
    const tools = createTeamTools(manager, {
      leadId: "lead",
      teammateDefaults: { autoApproveShutdown: true },
    });
    expect(tools.map((t) => t.name)).toEqual([
      "team_spawn",
      "team_send_message",
      "team_broadcast",
      "team_read_mailbox",
      "team_status",
      "team_shutdown",
      "team_wait",
      "team_tasks",
    ]);
    const leadModel = createScriptedModel([
      call("team_spawn", { agent_id: "w1", role: "tester", prompt: "test it" }),
      call("team_spawn", { agent_id: "w2", prompt: "review it" }),
      { text: "spawned" },
    ]);
    const lead = new AgentRuntime({ model: leadModel, tools, agentId: "lead" });
    const bothIdle = Promise.all([
      waitFor(manager, (e) => e.type === "idle" && e.agentId === "w1"),
      waitFor(manager, (e) => e.type === "idle" && e.agentId === "w2"),
    ]);
    await lead.run("start a team");
    await bothIdle;
    expect(manager.status().map((s) => [s.agentId, s.role, s.state])).toEqual([
      ["w1", "tester", "idle"],
      ["w2", undefined, "idle"],
    ]);

    // Idle again: each took the broadcast as a turn, notified the lead and marked it read.
    const broadcastDone = Promise.all([
      waitFor(manager, (e) => e.type === "idle" && e.agentId === "w1"),
      waitFor(manager, (e) => e.type === "idle" && e.agentId === "w2"),
    ]);
    leadModel.push(call("team_broadcast", { text: "status?" }), { text: "asked" });
    await lead.run("ask everyone");
    await broadcastDone;

    const stopped = waitFor(manager, (e) => e.type === "stopped" && e.agentId === "w2");
    leadModel.push(
      call("team_read_mailbox"),
      call("team_status"),
      call("team_shutdown", { agent_id: "w2", reason: "not needed" }),
      { text: "done" },
    );
    const result = await lead.run("collect and wrap up");
    await stopped;
    const outputs = Object.fromEntries(
      result.newMessages.flatMap(getToolResults).map((r) => [r.toolName, toolOutputText(r.output)]),
    );
    // Two first-task notifications and two broadcast notifications, all taken from the lead's mailbox.
    expect(outputs.team_read_mailbox!.match(/<teammate_message from="w[12]" kind="task_notification"/g)).toHaveLength(
      4,
    );
    expect(await mailbox.list("lead")).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ kind: "task_notification" })]),
    );
    const status = JSON.parse(outputs.team_status!);
    expect(status.teammates).toEqual([
      expect.objectContaining({ agentId: "w1", state: "idle", unread: 0 }),
      expect.objectContaining({ agentId: "w2", state: "idle", unread: 0 }),
    ]);
    // The team's usage: two first tasks and two broadcast turns.
    expect(status.usage).toEqual({ turns: 4, costUsd: expect.any(Number) });
    expect(outputs.team_shutdown).toBe("Asked w2 to shut down.");
    expect(manager.status().map((s) => [s.agentId, s.state, s.stopReason])).toEqual([
      ["w1", "idle", undefined],
      ["w2", "stopped", "shutdown"],
    ]);
    expect((await mailbox.list("lead")).map((m) => [m.kind, m.from])).toEqual([["shutdown_approved", "w2"]]);

    // A spawn with a taken id is an error result, not a crash.
    leadModel.push(call("team_spawn", { agent_id: "w1", prompt: "again" }), { text: "ok" });
    const again = await lead.run("one more");
    expect(again.newMessages.flatMap(getToolResults)[0]).toMatchObject({ isError: true });
    await manager.stopAll();
  });
});
