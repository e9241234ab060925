// runTeamWorker in one process (an in-memory team): what it runs, when it returns, and what it refuses. The
// cross-process behaviour on Redis + PostgreSQL is in team-crash.test.ts.
import { createScriptedModel } from "@heddle/llms/testing";
import { getMessageText } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { MemorySessionStore } from "../../src/sessions/index.js";
import { AgentTeamManager, InMemoryTeamMailbox, runTeamWorker, type TeammateEvent } from "../../src/teams/index.js";

describe("runTeamWorker", () => {
  it("runs its teammates for a lead that lives elsewhere, and returns when each approved a shutdown", async () => {
    const mailbox = new InMemoryTeamMailbox();
    const store = new MemorySessionStore();
    // The lead only shares the mailbox and the store (in production: Redis and PostgreSQL).
    const lead = new AgentTeamManager({ mailbox, store, teamId: "t" });
    const model = createScriptedModel([(request) => ({ text: `done: ${getMessageText(request.messages.at(-1)!)}` })], {
      whenExhausted: "repeat-last",
    });
    const events: TeammateEvent[] = [];
    const working = runTeamWorker({
      mailbox,
      store,
      teamId: "t",
      model,
      compaction: false,
      teammates: [
        { agentId: "a", autoApproveShutdown: true, initialPrompt: "set up" },
        { agentId: "b", autoApproveShutdown: true },
      ],
      onEvent: (event) => {
        events.push(event);
        throw new Error("a listener's failure is its own");
      },
    });
    await lead.send("b", "task for b");
    const reports: string[] = [];
    while (reports.length < 2) {
      const message = await mailbox.dequeue("lead");
      if (message) reports.push(message.text);
      else await mailbox.wait("lead", AbortSignal.timeout(5_000));
    }
    expect(reports.some((r) => r.includes("set up"))).toBe(true);
    expect(reports.some((r) => r.includes("task for b"))).toBe(true);
    await lead.requestShutdown("a");
    await lead.requestShutdown("b");
    const result = await working;
    expect(result.teammates).toEqual([
      { agentId: "a", sessionId: "teammate-t-a", reason: "shutdown", turns: 1 },
      { agentId: "b", sessionId: "teammate-t-b", reason: "shutdown", turns: 1 },
    ]);
    expect(
      events
        .filter((e) => e.type === "stopped")
        .map((e) => e.agentId)
        .sort(),
    ).toEqual(["a", "b"]);
    expect((await store.getHistory("teammate-t-b")).map(getMessageText)).toHaveLength(2);
  });

  it("an abort cuts the running turn, leaves its message unread, and returns with nothing running", async () => {
    const mailbox = new InMemoryTeamMailbox();
    const store = new MemorySessionStore();
    let started!: () => void;
    const toolStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const controller = new AbortController();
    const working = runTeamWorker({
      mailbox,
      store,
      model: createScriptedModel([{ toolCalls: [{ id: "c1", name: "wait", input: {} }] }]),
      tools: [
        {
          name: "wait",
          description: "waits for the abort",
          inputSchema: { type: "object" },
          execute: (_input, context) =>
            new Promise((_, reject) => {
              started();
              context.signal.addEventListener("abort", () => reject(new Error("aborted")));
            }),
        },
      ],
      compaction: false,
      teammates: [{ agentId: "w" }],
      signal: controller.signal,
    });
    const task = await mailbox.send({ to: "w", from: "lead", text: "long job" });
    await toolStarted;
    controller.abort();
    const result = await working;
    expect(result.teammates).toMatchObject([{ agentId: "w", reason: "stopped" }]);
    expect((await mailbox.list("w")).map((m) => m.id)).toEqual([task.id]);
  });

  it("refuses no teammates and one agent id twice, before running anything", async () => {
    const mailbox = new InMemoryTeamMailbox();
    const store = new MemorySessionStore();
    const model = createScriptedModel([]);
    await expect(runTeamWorker({ mailbox, store, model, teammates: [] })).rejects.toMatchObject({
      code: "team_invalid_input",
    });
    await expect(
      runTeamWorker({ mailbox, store, model, teammates: [{ agentId: "x" }, { agentId: "x" }] }),
    ).rejects.toMatchObject({ code: "team_invalid_input", message: expect.stringContaining('"x"') });
    expect(await store.listSessions()).toEqual([]);
  });
});
