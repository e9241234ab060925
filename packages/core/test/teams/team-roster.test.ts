// A lead with a roster and workers that lease its teammates, all in one process on shared in-memory stores (the
// same code runs across hosts on Redis + PostgreSQL: packages/core/test/scale-out/team-roster.test.ts).
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentModelRequest, type AgentTool, getMessageText } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import {
  AgentTeamManager,
  InMemoryTeamMailbox,
  InMemoryTeamRoster,
  MemorySessionStore,
  runTeamWorker,
  type TeamMailbox,
  type TeamMailboxMessage,
  type TeammateEvent,
  type TeamWorkerOptions,
} from "../../src/index.js";
import { createInMemoryTeamRosterData } from "../../src/teams/index.js";

const echo = (name: string): AgentTool => ({
  name,
  description: name,
  inputSchema: { type: "object" },
  execute: () => `${name} ran`,
});

/** A model that answers "done: <task>" to every turn, recording each request. */
function answering(requests: AgentModelRequest[] = []) {
  return createScriptedModel(
    [
      (request) => {
        requests.push(request);
        return {
          text: `done: ${getMessageText(request.messages.at(-1)!)}`,
          usage: { inputTokens: 100, costUsd: 0.01 },
        };
      },
    ],
    { whenExhausted: "repeat-last" },
  );
}

/** The lead's next `count` messages (it waits on its mailbox between them). */
async function reports(mailbox: TeamMailbox, count: number): Promise<TeamMailboxMessage[]> {
  const taken: TeamMailboxMessage[] = [];
  while (taken.length < count) {
    const message = await mailbox.dequeue("lead");
    if (message) taken.push(message);
    else await mailbox.wait("lead", AbortSignal.timeout(10_000));
  }
  return taken;
}

/** Resolves with the first worker event that matches. */
function eventOf(events: TeammateEvent[], match: (event: TeammateEvent) => boolean): Promise<TeammateEvent> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const look = () => {
      const found = events.find(match);
      if (found) return resolve(found);
      if (Date.now() - started > 10_000) return reject(new Error("no matching worker event"));
      setTimeout(look, 5);
    };
    look();
  });
}

function team(now?: () => number) {
  const data = createInMemoryTeamRosterData();
  const roster = (clock = now) => new InMemoryTeamRoster({ teamId: "crew", data, ...(clock && { now: clock }) });
  const mailbox = new InMemoryTeamMailbox();
  const store = new MemorySessionStore();
  const workers: Array<{
    controller: AbortController;
    done: ReturnType<typeof runTeamWorker>;
    events: TeammateEvent[];
  }> = [];
  const worker = (workerId: string, options: Partial<TeamWorkerOptions> = {}) => {
    const controller = new AbortController();
    const events: TeammateEvent[] = [];
    const done = runTeamWorker({
      roster: roster(),
      mailbox,
      store,
      workerId,
      leaseMs: 60_000,
      pollIntervalMs: 10,
      model: answering(),
      compaction: false,
      signal: controller.signal,
      onEvent: (event) => events.push(event),
      ...options,
    });
    const handle = { controller, done, events };
    workers.push(handle);
    return handle;
  };
  const stopAll = async () => {
    for (const w of workers) w.controller.abort();
    return Promise.all(workers.map((w) => w.done));
  };
  return { roster, mailbox, store, worker, stopAll };
}

describe("a team on a roster", () => {
  it("a lead with no model records teammates; workers lease and run them; status names each worker and the usage adds up", async () => {
    const t = team();
    const lead = new AgentTeamManager({ mailbox: t.mailbox, store: t.store, roster: t.roster(), leadId: "lead" });
    expect(lead.teamId).toBe("crew");
    const recorded = await lead.spawn({ agentId: "a", role: "reviewer" }, "review it");
    expect(recorded).toMatchObject({ agentId: "a", role: "reviewer", state: "waiting", sessionId: "teammate-crew-a" });
    await lead.spawn({ agentId: "b" }, "test it");
    // Each worker takes one: they run on two workers.
    t.worker("w1", { maxTeammates: 1 });
    t.worker("w2", { maxTeammates: 1 });
    const texts = (await reports(t.mailbox, 2)).map((m) => m.text).join("\n");
    expect(texts).toContain("done: review it");
    expect(texts).toContain("done: test it");
    // Each worker records its teammate idle after the report went out.
    await expect
      .poll(async () => (await lead.status()).map((r) => [r.agentId, r.state]))
      .toEqual([
        ["a", "idle"],
        ["b", "idle"],
      ]);
    const rows = await lead.status();
    expect(new Set(rows.map((r) => r.workerId))).toEqual(new Set(["w1", "w2"]));
    expect(await lead.usage()).toMatchObject({ turns: 2, inputTokens: 200 });
    expect((await lead.usage()).costUsd).toBeCloseTo(0.02, 10);
    // A restarted lead (a new manager on the same roster) sees the same team.
    const restarted = new AgentTeamManager({ mailbox: t.mailbox, roster: t.roster() });
    expect((await restarted.status()).map((r) => [r.agentId, r.workerId])).toEqual(
      rows.map((r) => [r.agentId, r.workerId]),
    );
    await t.stopAll();
  });

  it("the spec's role, system prompt, shutdown rule and tool names win over the worker's defaults", async () => {
    const t = team();
    const lead = new AgentTeamManager({ mailbox: t.mailbox, roster: t.roster() });
    const requests: AgentModelRequest[] = [];
    await lead.spawn(
      { agentId: "a", role: "auditor", systemPrompt: "You audit.", toolNames: ["read"], autoApproveShutdown: true },
      "audit it",
    );
    const w = t.worker("w1", {
      model: answering(requests),
      tools: [echo("read"), echo("write")],
      systemPrompt: "Worker default.",
    });
    await reports(t.mailbox, 1);
    expect(requests[0]!.systemPrompt).toContain("You audit.");
    expect(requests[0]!.systemPrompt).toContain("(role: auditor)");
    expect(requests[0]!.systemPrompt).not.toContain("Worker default.");
    expect(requests[0]!.tools.map((tool) => tool.name)).toEqual(["read"]);
    // autoApproveShutdown from the spec: the request is approved without a turn, and the roster says so.
    await lead.requestShutdown("a");
    expect((await reports(t.mailbox, 1))[0]!.kind).toBe("shutdown_approved");
    await eventOf(w.events, (e) => e.type === "lease-released" && e.agentId === "a");
    expect(await lead.status()).toMatchObject([{ agentId: "a", state: "stopped", stopReason: "shutdown" }]);
    expect(requests).toHaveLength(1);
    await t.stopAll();
  });

  it("a tool name the worker does not have stops that teammate with an error, recorded in the roster", async () => {
    const t = team();
    const lead = new AgentTeamManager({ mailbox: t.mailbox, roster: t.roster() });
    await lead.spawn({ agentId: "a", toolNames: ["missing"] }, "go");
    const w = t.worker("w1", { tools: [echo("read")] });
    await eventOf(w.events, (e) => e.type === "lease-released");
    const [row] = await lead.status();
    expect(row).toMatchObject({ state: "stopped", stopReason: "error" });
    expect((await t.roster().get("a"))?.stopDetail).toContain("missing");
    await t.stopAll();
  });

  it("refuses what only a worker can build, and an id any lead recorded, with typed errors", async () => {
    const t = team();
    const lead = new AgentTeamManager({ mailbox: t.mailbox, roster: t.roster() });
    await expect(lead.spawn({ agentId: "m", model: answering() } as never)).rejects.toMatchObject({
      code: "team_invalid_input",
      message: expect.stringContaining('"model"'),
    });
    expect(() => new AgentTeamManager({ mailbox: t.mailbox, roster: t.roster(), model: answering() })).toThrow(
      expect.objectContaining({ code: "team_invalid_input" }),
    );
    expect(() => lead.createTeammate({ agentId: "x", model: answering() })).toThrow(
      expect.objectContaining({ code: "team_invalid_input" }),
    );
    await lead.spawn({ agentId: "a" });
    const other = new AgentTeamManager({ mailbox: t.mailbox, roster: t.roster(), leadId: "lead-2" });
    await expect(other.spawn({ agentId: "a" })).rejects.toMatchObject({
      name: "TeamAgentExistsError",
      code: "team_agent_exists",
      agentId: "a",
    });
    await expect(lead.spawn({ agentId: "lead" })).rejects.toMatchObject({ code: "team_invalid_input" });
    const bounded = new AgentTeamManager({ mailbox: t.mailbox, roster: t.roster(), limits: { maxTeammates: 1 } });
    await expect(bounded.spawn({ agentId: "b" })).rejects.toMatchObject({ code: "team_limit_reached" });
    expect((await lead.status()).map((r) => r.agentId)).toEqual(["a"]);
  });

  it("a lease that expires moves the teammate; its old worker stops it and writes nothing more for it", async () => {
    let clock = 1_000_000;
    const t = team(() => clock);
    const lead = new AgentTeamManager({ mailbox: t.mailbox, roster: t.roster() });
    await lead.spawn({ agentId: "a" }, "first");
    const old = t.worker("w1", { leaseMs: 3_000 });
    await reports(t.mailbox, 1);
    // The roster's clock passes the lease (w1 stalled, as far as the roster can tell): w2 takes the teammate.
    clock += 10_000;
    const next = t.worker("w2", { leaseMs: 3_000 });
    const taken = await eventOf(next.events, (e) => e.type === "lease-taken");
    expect(taken).toMatchObject({ agentId: "a", workerId: "w2", previousWorkerId: "w1" });
    // w1's next renewal fails: it stops the teammate and gives nothing back (the lease is w2's).
    await eventOf(old.events, (e) => e.type === "lease-lost" && e.agentId === "a");
    await eventOf(old.events, (e) => e.type === "stopped" && e.agentId === "a");
    expect(old.events.some((e) => e.type === "lease-released")).toBe(false);
    await lead.send("a", "second");
    expect((await reports(t.mailbox, 1))[0]!.text).toContain("done: ");
    expect(await lead.status()).toMatchObject([{ agentId: "a", workerId: "w2" }]);
    // w2 stops cleanly: w1, which lost the teammate before, takes it back and runs it again.
    next.controller.abort();
    await next.done;
    const back = await eventOf(old.events, (e) => e.type === "lease-taken" && e.previousWorkerId === "w2");
    expect(back).toMatchObject({ agentId: "a", workerId: "w1" });
    await lead.send("a", "third");
    expect((await reports(t.mailbox, 1))[0]!.text).toContain("done: ");
    const [oldResult] = await t.stopAll();
    expect(oldResult!.teammates).toMatchObject([
      { agentId: "a", reason: "stopped", leaseLost: true },
      { agentId: "a", reason: "stopped" },
    ]);
  });

  it("a clean stop releases every lease at once: another worker takes over long before leaseMs", async () => {
    const clock = 1_000_000; // the roster's clock stands still: only a release frees a lease
    const t = team(() => clock);
    const lead = new AgentTeamManager({ mailbox: t.mailbox, roster: t.roster() });
    await lead.spawn({ agentId: "a" }, "first");
    await lead.spawn({ agentId: "b" }, "second");
    const leaving = t.worker("w1");
    await reports(t.mailbox, 2);
    const staying = t.worker("w2");
    leaving.controller.abort();
    const result = await leaving.done;
    expect(result.teammates.map((r) => [r.agentId, r.reason]).sort()).toEqual([
      ["a", "stopped"],
      ["b", "stopped"],
    ]);
    for (const agentId of ["a", "b"])
      await eventOf(staying.events, (e) => e.type === "lease-taken" && e.agentId === agentId);
    expect((await lead.status()).map((r) => r.workerId)).toEqual(["w2", "w2"]);
    await t.stopAll();
  });

  it("the lead's stop() ends a teammate on its worker at the worker's next renewal", async () => {
    const t = team();
    const lead = new AgentTeamManager({ mailbox: t.mailbox, roster: t.roster() });
    await lead.spawn({ agentId: "a" }, "first");
    const w = t.worker("w1", { leaseMs: 600 });
    await reports(t.mailbox, 1);
    expect(await lead.stop("a")).toBe(true);
    await eventOf(w.events, (e) => e.type === "stopped" && e.agentId === "a");
    expect(w.events.some((e) => e.type === "lease-lost" && e.agentId === "a")).toBe(true);
    expect(await lead.status()).toMatchObject([{ agentId: "a", state: "stopped", stopReason: "stopped" }]);
    expect(await lead.stop("a")).toBe(false);
    await t.stopAll();
  });

  it("teammates a worker leases run under the team policy and limits the worker gives: a disabled tool stays off, maxTurns stops them", async () => {
    const t = team();
    const lead = new AgentTeamManager({ mailbox: t.mailbox, roster: t.roster() });
    const ran: string[] = [];
    const tool = (name: string): AgentTool => ({ ...echo(name), execute: () => ran.push(name) && "ran" });
    // The spec asks for bash; the worker's policy disables it, and a teammate cannot widen that.
    await lead.spawn({ agentId: "a", toolNames: ["bash", "read"] }, "first");
    t.worker("w1", {
      tools: [tool("bash"), tool("read")],
      toolPolicies: { bash: { enabled: false } },
      limits: { maxTurns: 1 },
      model: createScriptedModel(
        [
          (request) =>
            request.messages.at(-1)!.role === "user"
              ? {
                  toolCalls: [
                    { name: "bash", input: {} },
                    { name: "read", input: {} },
                  ],
                }
              : { text: "tried" },
        ],
        { whenExhausted: "repeat-last" },
      ),
    });
    expect((await reports(t.mailbox, 1))[0]!.text).toContain("tried");
    expect(ran).toEqual(["read"]);
    // The second turn is over the worker's limits.maxTurns: the teammate stops (reason limit) and the lead is told.
    await lead.send("a", "second");
    const stopped = (await reports(t.mailbox, 1))[0]!;
    expect(stopped.text).toContain('status="stopped" limit="maxTurns"');
    await expect
      .poll(async () => (await lead.status())[0])
      .toMatchObject({
        state: "stopped",
        stopReason: "limit",
        limit: "maxTurns",
        limitDetail: expect.stringContaining("limits.maxTurns"),
      });
    await t.stopAll();
  });

  it("runTeamWorker refuses lease options without a roster and a fixed list with one", async () => {
    const t = team();
    const base = { mailbox: t.mailbox, store: t.store, model: answering() };
    await expect(runTeamWorker({ ...base, teammates: [{ agentId: "x" }], leaseMs: 1000 })).rejects.toMatchObject({
      code: "team_invalid_input",
      message: expect.stringContaining("leaseMs"),
    });
    await expect(runTeamWorker({ ...base, roster: t.roster(), teammates: [{ agentId: "x" }] })).rejects.toMatchObject({
      code: "team_invalid_input",
    });
    await expect(runTeamWorker({ ...base, roster: t.roster(), teamId: "other" })).rejects.toMatchObject({
      code: "team_invalid_input",
    });
  });
});
