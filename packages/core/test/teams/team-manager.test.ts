import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentModelRequest, type AgentTool, getMessageText } from "@heddle/shared";
import { afterAll, describe, expect, it } from "vitest";
import {
  AgentTeamManager,
  createTeamTools,
  InMemoryTeamMailbox,
  parseTeamControlMessage,
  SqliteSessionStore,
  SqliteTeamMailbox,
  type TeammateEvent,
} from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-team-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Resolves with the first team event that matches, or fails after a short timeout. */
function nextEvent(
  manager: AgentTeamManager,
  match: (event: TeammateEvent) => boolean,
  timeoutMs = 5000,
): Promise<TeammateEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error("no matching team event"));
    }, timeoutMs);
    const stop = manager.subscribe((event) => {
      if (!match(event)) return;
      clearTimeout(timer);
      stop();
      resolve(event);
    });
  });
}

const lastMessage = (request: AgentModelRequest) => request.messages[request.messages.length - 1]!;
const lastText = (request: AgentModelRequest) => getMessageText(lastMessage(request));

/** A tool that runs until `release()` (or until its signal aborts), recording what happened. */
function latchTool() {
  let release!: () => void;
  let started!: () => void;
  const state = {
    sawAbort: false,
    started: new Promise<void>((resolve) => {
      started = resolve;
    }),
    release: () => release(),
  };
  const tool: AgentTool = {
    name: "work",
    description: "does slow work",
    inputSchema: { type: "object" },
    execute: (_input, ctx) =>
      new Promise((resolve) => {
        release = () => resolve("work done");
        ctx.signal.addEventListener("abort", () => {
          state.sawAbort = true;
          resolve("aborted");
        });
        started();
      }),
  };
  return { tool, state };
}

describe("AgentTeamManager", () => {
  it("two teammates exchange messages through the manager", async () => {
    const mailbox = new InMemoryTeamMailbox();
    const manager = new AgentTeamManager({ mailbox, compaction: false });
    // Each model answers by what it was just told: a sends "ping" to b, b answers "pong" to a.
    const modelA = createScriptedModel(
      [
        (request) => {
          const last = lastMessage(request);
          if (last.role === "user" && lastText(request).includes("start"))
            return { toolCalls: [{ name: "team_send_message", input: { to: "worker-b", text: "ping" } }] };
          if (last.role === "tool") return { text: "ping sent" };
          if (lastText(request).includes("pong")) return { text: "got pong" };
          return { text: "noted" };
        },
      ],
      { whenExhausted: "repeat-last" },
    );
    const modelB = createScriptedModel(
      [
        (request) => {
          const last = lastMessage(request);
          if (last.role === "user" && lastText(request).includes("ping"))
            return { toolCalls: [{ name: "team_send_message", input: { to: "worker-a", text: "pong" } }] };
          return { text: "pong sent" };
        },
      ],
      { whenExhausted: "repeat-last" },
    );
    const gotPong = nextEvent(
      manager,
      (e) => e.type === "turn-finished" && e.agentId === "worker-a" && e.message?.text === "pong",
    );
    manager.spawn({
      agentId: "worker-b",
      model: modelB,
      tools: createTeamTools(manager, { leadId: "worker-b", include: ["team_send_message"] }),
    });
    manager.spawn(
      {
        agentId: "worker-a",
        model: modelA,
        tools: createTeamTools(manager, { leadId: "worker-a", include: ["team_send_message"] }),
      },
      "start: say ping to worker-b",
    );
    const finished = await gotPong;
    expect(finished).toMatchObject({ message: { from: "worker-b", to: "worker-a", kind: "user" } });

    // b saw a's ping as a message from worker-a; a saw b's pong as a message from worker-b.
    const bFirst = modelB.requests[0]!;
    expect(lastText(bFirst)).toBe('<teammate_message from="worker-a">\nping\n</teammate_message>');
    expect(modelA.requests.some((r) => lastText(r).includes('from="worker-b">\npong'))).toBe(true);
    // a's first task reports to the lead when done.
    const toLead = await mailbox.list("lead");
    expect(toLead.map((m) => [m.kind, m.from])).toContainEqual(["task_notification", "worker-a"]);
    await manager.stopAll();
    expect(manager.status().map((s) => s.state)).toEqual(["stopped", "stopped"]);
  });

  it("a message for a busy teammate waits and becomes its next turn", async () => {
    const mailbox = new InMemoryTeamMailbox();
    const { tool, state } = latchTool();
    const model = createScriptedModel([
      { toolCalls: [{ name: "work", input: {} }] },
      { text: "task 1 done" },
      { text: "follow-up done" },
    ]);
    const manager = new AgentTeamManager({ mailbox, model, compaction: false });
    const runner = manager.spawn({ agentId: "worker", tools: [tool] }, "task 1");
    await state.started;
    const followUp = await manager.send("worker", "follow-up task");
    // Busy: the message waits unread, and the running turn does not see it.
    expect(runner.status()).toMatchObject({ state: "running", turns: 0 });
    expect((await mailbox.list("worker")).map((m) => m.id)).toEqual([followUp.id]);
    const done = nextEvent(manager, (e) => e.type === "turn-finished" && e.message?.id === followUp.id);
    const idle = nextEvent(manager, (e) => e.type === "idle");
    state.release();
    await done;
    await idle; // marked read once the turn was stored, then the mailbox is empty
    expect(model.requests).toHaveLength(3);
    expect(model.requests[1]!.messages.some((m) => getMessageText(m).includes("follow-up"))).toBe(false);
    expect(lastText(model.requests[2]!)).toContain("follow-up task");
    expect(await mailbox.list("worker")).toEqual([]);
    const history = await manager.store.getHistory(runner.sessionId);
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant"]);
    expect(runner.status().turns).toBe(2);
    await manager.stopAll();
  });

  it("shuts a teammate down through the protocol: request, approved, stopped", async () => {
    const mailbox = new InMemoryTeamMailbox();
    const model = createScriptedModel([{ text: "first task done" }]);
    const manager = new AgentTeamManager({ mailbox, model, compaction: false, notifyOnTurnEnd: false });
    const runner = manager.createTeammate({ agentId: "worker-1", role: "tester", autoApproveShutdown: true });
    const events: TeammateEvent[] = [];
    const running = (async () => {
      for await (const event of runner.run("first task")) events.push(event);
    })();
    await nextEvent(manager, (e) => e.type === "idle");
    const request = await manager.requestShutdown("worker-1", "lead", "task done");
    expect(request.text).toBe('<shutdown_request from="lead" reason="task done"/>');
    await running; // the generator ends once the teammate stopped

    const [approval, ...rest] = await mailbox.list("lead");
    expect(rest).toEqual([]);
    expect(approval).toMatchObject({ kind: "shutdown_approved", from: "worker-1", to: "lead" });
    expect(parseTeamControlMessage(approval!.text)).toEqual({ kind: "shutdown_approved", from: "worker-1" });
    expect(await mailbox.list("worker-1")).toEqual([]);
    expect(model.requests).toHaveLength(1); // the request took no turn
    expect(model.requests[0]!.systemPrompt).toContain(
      'You are "worker-1" (role: tester), a teammate in a team led by "lead"',
    );
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["turn-started", "turn-finished", "control-received", "shutdown-approved", "stopped"]),
    );
    expect(events.at(-1)).toMatchObject({ type: "stopped", reason: "shutdown" });
    expect(manager.status()).toEqual([
      expect.objectContaining({ agentId: "worker-1", role: "tester", state: "stopped", stopReason: "shutdown" }),
    ]);
  });

  it("without autoApproveShutdown, the lead's shutdown request becomes a turn the model sees", async () => {
    const mailbox = new InMemoryTeamMailbox();
    const model = createScriptedModel([{ text: "I will finish first." }]);
    const manager = new AgentTeamManager({ mailbox, model, compaction: false, notifyOnTurnEnd: false });
    manager.spawn({ agentId: "worker" });
    const seen = nextEvent(manager, (e) => e.type === "control-received");
    await manager.requestShutdown("worker", "lead", "late");
    expect(await seen).toMatchObject({ control: { kind: "shutdown_request", from: "lead", reason: "late" } });
    await nextEvent(manager, (e) => e.type === "turn-finished");
    expect(lastText(model.requests[0]!)).toContain('<shutdown_request from="lead" reason="late"/>');
    expect(manager.status()[0]!.state).not.toBe("stopped");
    await manager.stopAll();
  });

  it("stopAll leaves no running turn and no open handle; the cut turn's message stays unread", async () => {
    const path = join(dir, "stop-all.db");
    const store = new SqliteSessionStore({ path });
    const mailbox = new SqliteTeamMailbox({ path, pollIntervalMs: 20 });
    const { tool, state } = latchTool();
    const manager = new AgentTeamManager({ mailbox, store, compaction: false });
    const busyModel = createScriptedModel([{ toolCalls: [{ name: "work", input: {} }] }, { text: "never" }]);
    manager.spawn({ agentId: "busy", model: busyModel, tools: [tool] });
    manager.spawn({ agentId: "idle", model: createScriptedModel([]) });
    await nextEvent(manager, (e) => e.type === "idle" && e.agentId === "idle");
    const task = await manager.send("busy", "long task");
    await state.started;
    expect(manager.status().map((s) => s.state)).toEqual(["running", "idle"]);
    expect(mailbox.waiting).toBe(1);
    expect(mailbox.polling).toBe(true);

    await manager.stopAll();
    expect(state.sawAbort).toBe(true);
    expect(manager.status().map((s) => [s.agentId, s.state, s.stopReason])).toEqual([
      ["busy", "stopped", "stopped"],
      ["idle", "stopped", "stopped"],
    ]);
    expect(busyModel.requests).toHaveLength(1);
    expect((await mailbox.list("busy")).map((m) => m.id)).toEqual([task.id]);
    // No wait and no poll timer left behind in the mailbox (counted on the mailbox itself, not process-wide).
    expect(mailbox.waiting).toBe(0);
    expect(mailbox.polling).toBe(false);
    await mailbox.close();
    await store.close();
  });
});
