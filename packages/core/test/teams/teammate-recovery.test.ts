import { createScriptedModel } from "@heddle/llms/testing";
import { assistantMessage, getMessageText, userMessage } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { MemorySessionStore } from "../../src/sessions/index.js";
import { AgentTeamManager, InMemoryTeamMailbox, type TeammateEvent, teamTurnMessageId } from "../../src/teams/index.js";

async function collect(run: AsyncGenerator<TeammateEvent>, until: TeammateEvent["type"]): Promise<TeammateEvent[]> {
  const events: TeammateEvent[] = [];
  for await (const event of run) {
    events.push(event);
    if (event.type === until) break; // leaving the loop stops the teammate
  }
  return events;
}

describe("teammate recovery", () => {
  it("a turn stored before a crash but not yet marked read is not run again", async () => {
    const store = new MemorySessionStore();
    const mailbox = new InMemoryTeamMailbox();
    const task = await mailbox.send({ to: "worker", from: "lead", text: "check the build" });
    // What a crash between the stored turn and markRead leaves behind.
    await store.createSession({ id: "teammate-worker" });
    await store.appendMessage("teammate-worker", userMessage("check the build", { id: teamTurnMessageId(task.id) }));
    await store.appendMessage("teammate-worker", assistantMessage("The build is green."));

    const model = createScriptedModel([]);
    const manager = new AgentTeamManager({ mailbox, store, model, compaction: false });
    const events = await collect(manager.createTeammate({ agentId: "worker" }).run(), "idle");
    expect(events.map((e) => e.type)).toEqual(["teammate-started", "turn-recovered", "idle"]);
    expect(model.requests).toHaveLength(0);
    expect(await mailbox.list("worker")).toEqual([]);
    // The lead still hears about it (the notification may not have gone out before the crash).
    expect((await mailbox.list("lead")).map((m) => m.kind)).toEqual(["task_notification"]);
    expect(await store.getHistory("teammate-worker")).toHaveLength(2);
  });

  it("an initial task a crash cut is finished on the next start, even without the prompt", async () => {
    const store = new MemorySessionStore();
    const mailbox = new InMemoryTeamMailbox();
    await store.createSession({ id: "teammate-worker" });
    await store.appendMessage(
      "teammate-worker",
      userMessage("migrate the database", { id: teamTurnMessageId("initial-task") }),
    );
    const model = createScriptedModel([{ text: "migration finished" }]);
    const manager = new AgentTeamManager({ mailbox, store, model, compaction: false });
    const events = await collect(manager.createTeammate({ agentId: "worker" }).run(), "idle");
    expect(events.find((e) => e.type === "turn-started")).toMatchObject({ resumed: true });
    expect(model.requests).toHaveLength(1);
    expect(getMessageText(model.requests[0]!.messages[0]!)).toBe("migrate the database");
    const history = await store.getHistory("teammate-worker");
    expect(history.map(getMessageText).filter((t) => t === "migrate the database")).toHaveLength(1);
    expect(history.at(-1)).toMatchObject({ role: "assistant" });
  });

  it("the initial prompt runs once: a restarted teammate with the same prompt does not repeat it", async () => {
    const store = new MemorySessionStore();
    const mailbox = new InMemoryTeamMailbox();
    const model = createScriptedModel([{ text: "audit done" }, { text: "second answer" }]);
    const first = new AgentTeamManager({ mailbox, store, model, compaction: false });
    await collect(first.createTeammate({ agentId: "auditor" }).run("audit the repo"), "idle");
    await first.stopAll();

    const second = new AgentTeamManager({ mailbox, store, model, compaction: false });
    const runner = second.createTeammate({ agentId: "auditor" });
    await second.send("auditor", "one more thing");
    const events = await collect(runner.run("audit the repo"), "idle");
    expect(events.map((e) => e.type)).toContain("turn-recovered");
    expect(events.find((e) => e.type === "teammate-started")).toMatchObject({ resumed: true });
    expect(model.requests).toHaveLength(2);
    const history = await store.getHistory(runner.sessionId);
    expect(history.map(getMessageText).filter((t) => t.includes("audit the repo"))).toHaveLength(1);
    expect(history.map(getMessageText).at(-1)).toBe("second answer");
  });
});
