import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentTool, ToolContext } from "@heddle/shared";
import { afterAll, describe, expect, it } from "vitest";
import {
  AgentTeamManager,
  createSession,
  createSpawnAgentTool,
  InMemoryTeamMailbox,
  MemorySessionStore,
  SqliteTeamMailbox,
  type TeammateEvent,
} from "../../src/index.js";

// Guarantees of teams and sub-agents that nothing else pins: each test fails when its behaviour is removed.

const dir = mkdtempSync(join(tmpdir(), "heddle-team-guarantees-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function nextEvent(manager: AgentTeamManager, match: (event: TeammateEvent) => boolean): Promise<TeammateEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error("no matching team event"));
    }, 10_000);
    const stop = manager.subscribe((event) => {
      if (!match(event)) return;
      clearTimeout(timer);
      stop();
      resolve(event);
    });
  });
}

/** A mailbox whose first `markRead` fails, as a crash between two writes would leave things. */
class CrashOnFirstMarkRead extends InMemoryTeamMailbox {
  crashed = false;
  override async markRead(agentId: string, messageId: string): Promise<boolean> {
    if (!this.crashed) {
      this.crashed = true;
      throw new Error("crash before markRead");
    }
    return super.markRead(agentId, messageId);
  }
}

describe("team guarantees", () => {
  it("sends the shutdown approval before marking the request read: a crash in between loses no approval", async () => {
    const mailbox = new CrashOnFirstMarkRead();
    const manager = new AgentTeamManager({ mailbox, model: createScriptedModel([]), compaction: false });
    manager.spawn({ agentId: "worker", autoApproveShutdown: true });
    await nextEvent(manager, (e) => e.type === "idle");
    const stopped = nextEvent(manager, (e) => e.type === "stopped");
    await manager.requestShutdown("worker");
    expect(await stopped).toMatchObject({ reason: "error" });
    expect(mailbox.crashed).toBe(true);
    expect((await mailbox.list("lead")).map((m) => m.kind)).toEqual(["shutdown_approved"]);
    // The request is still unread: the next start approves again (at least once, never lost).
    expect((await mailbox.list("worker")).map((m) => m.kind)).toEqual(["shutdown_request"]);
  });

  it("a notification is never answered with a notification", async () => {
    const mailbox = new InMemoryTeamMailbox();
    const model = createScriptedModel([{ text: "thanks for the report" }]);
    const manager = new AgentTeamManager({ mailbox, model, compaction: false });
    manager.spawn({ agentId: "a" });
    await nextEvent(manager, (e) => e.type === "idle");
    const done = nextEvent(manager, (e) => e.type === "turn-finished");
    await mailbox.send({ to: "a", from: "b", kind: "task_notification", text: "b finished its task" });
    await done;
    await nextEvent(manager, (e) => e.type === "idle");
    expect(model.requests).toHaveLength(1);
    expect(await mailbox.list("b")).toEqual([]);
    await manager.stopAll();
  });

  it("a teammate runs once: a second run() is refused with team_agent_running", async () => {
    const manager = new AgentTeamManager({ mailbox: new InMemoryTeamMailbox(), model: createScriptedModel([]) });
    const runner = manager.createTeammate({ agentId: "solo" });
    const first = runner.run()[Symbol.asyncIterator]();
    await first.next();
    await expect(runner.run().next()).rejects.toMatchObject({ code: "team_agent_running" });
    await manager.stopAll();
  });

  it("stamps the team id on every message the manager and its teammates send", async () => {
    const mailbox = new InMemoryTeamMailbox();
    const manager = new AgentTeamManager({
      mailbox,
      model: createScriptedModel([{ text: "done" }]),
      compaction: false,
      teamId: "blue",
    });
    manager.spawn({ agentId: "w", autoApproveShutdown: true }, "task");
    const notified = nextEvent(manager, (e) => e.type === "idle");
    await notified;
    const stopped = nextEvent(manager, (e) => e.type === "stopped");
    const request = await manager.requestShutdown("w");
    const sent = await manager.send("w", "late message");
    await stopped;
    const lead = await mailbox.list("lead");
    expect(lead.map((m) => m.kind)).toEqual(["task_notification", "shutdown_approved"]);
    for (const message of [...lead, request, sent]) expect(message.teamId).toBe("blue");
  });

  it("a send through one SQLite mailbox wakes a wait on another in the same process at once, without the poll", async () => {
    const path = join(dir, "wake.db");
    // A poll this slow would outlast the test: only the in-process wake can end the wait.
    const waiting = new SqliteTeamMailbox({ path, pollIntervalMs: 600_000 });
    const sending = new SqliteTeamMailbox({ path, pollIntervalMs: 600_000 });
    const woke = waiting.wait("worker");
    await sending.send({ to: "worker", from: "lead", text: "wake up" });
    await expect(woke).resolves.toBeUndefined();
    await waiting.close();
    await sending.close();
  });

  it("a sub-agent runs in its parent's session", async () => {
    const seen: ToolContext[] = [];
    const look: AgentTool = {
      name: "look",
      description: "looks",
      inputSchema: { type: "object" },
      execute: (_input, ctx) => {
        seen.push(ctx);
        return "ok";
      },
    };
    const session = await createSession({
      model: createScriptedModel([
        { toolCalls: [{ name: "spawn_agent", input: { description: "d", prompt: "p" } }] },
        { text: "lead done" },
      ]),
      store: new MemorySessionStore(),
      tools: [
        createSpawnAgentTool({
          model: createScriptedModel([{ toolCalls: [{ name: "look", input: {} }] }, { text: "ok" }]),
          tools: [look],
        }),
      ],
      toolPolicies: { "*": { autoApprove: true } },
      compaction: false,
    });
    await session.send("go");
    await session.close();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.sessionId).toBe(session.id);
  });
});
