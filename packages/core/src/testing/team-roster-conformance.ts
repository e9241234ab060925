import { afterEach, describe, expect, it } from "vitest";
import type { TeamRoster } from "../teams/index.js";

/**
 * Opens a roster at `location`. Opening the same location again must reach the same records (another process, a
 * second lead, a restart); a new location must be empty. Each test gets its own location.
 */
export type MakeTeamRoster = (location: string) => TeamRoster | Promise<TeamRoster>;

let locationCounter = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const usage = (n: number) => ({
  inputTokens: n,
  outputTokens: 2 * n,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  costUsd: n / 1000,
});

/**
 * The behaviour every `TeamRoster` must have, as a vitest suite. Call it at the top level of a test file:
 * `runTeamRosterConformance("my roster", (location) => new MyRoster(location))`. Leases that must expire are 200 ms
 * long and the suite waits past them; leases that must hold are a minute long.
 */
export function runTeamRosterConformance(name: string, makeRoster: MakeTeamRoster): void {
  describe(`TeamRoster conformance: ${name}`, () => {
    const opened: TeamRoster[] = [];
    let location = "";
    const open = async (): Promise<TeamRoster> => {
      const roster = await makeRoster(location);
      opened.push(roster);
      return roster;
    };
    const fresh = async (): Promise<TeamRoster> => {
      location = `roster-conformance-${process.pid}-${Date.now()}-${++locationCounter}`;
      return open();
    };
    const record = (roster: TeamRoster, agentId: string, extra: object = {}) =>
      roster.create({ spec: { agentId, ...extra }, createdBy: "lead" });
    afterEach(async () => {
      for (const roster of opened.splice(0)) await roster.close();
    });

    it("records a teammate with its spec and first task, waiting for a worker, in the order recorded", async () => {
      const roster = await fresh();
      const spec = { agentId: "reviewer", role: "code reviewer", systemPrompt: "Review.", toolNames: ["read_file"] };
      const before = Date.now();
      const created = await roster.create({ spec, initialPrompt: "Review PR 42.", createdBy: "lead" });
      expect(created).toMatchObject({ agentId: "reviewer", spec, initialPrompt: "Review PR 42.", createdBy: "lead" });
      expect(created).toMatchObject({ state: "waiting", usage: { turns: 0, costUsd: 0 } });
      expect(created.workerId).toBeUndefined();
      expect(created.createdAt).toBeGreaterThanOrEqual(before);
      await record(roster, "tester");
      await record(roster, "writer", { metadata: { tier: 2, tags: ["a"] } });
      expect((await roster.list()).map((e) => e.agentId)).toEqual(["reviewer", "tester", "writer"]);
      expect((await roster.get("writer"))?.spec).toEqual({ agentId: "writer", metadata: { tier: 2, tags: ["a"] } });
      expect(await roster.get("nobody")).toBeUndefined();
      expect(roster.teamId).toMatch(/\S/);
    });

    it("refuses an id it recorded, even stopped, also from a second roster on the same location (another lead)", async () => {
      const first = await fresh();
      await record(first, "a");
      const second = await open();
      await expect(record(second, "a", { role: "other" })).rejects.toMatchObject({
        code: "team_agent_exists",
        agentId: "a",
      });
      await first.stop("a", { reason: "shutdown" });
      await expect(record(first, "a")).rejects.toMatchObject({ code: "team_agent_exists" });
      expect((await second.list()).map((e) => [e.agentId, e.spec.role])).toEqual([["a", undefined]]);
    });

    it("two leads creating one agent id at once: exactly one wins", async () => {
      const first = await fresh();
      const second = await open();
      const outcomes = await Promise.allSettled([
        record(first, "same", { role: "1" }),
        record(second, "same", { role: "2" }),
      ]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: "team_agent_exists" });
      expect(await first.list()).toHaveLength(1);
    });

    it("refuses a spec that is not plain data or has unknown keys with team_invalid_input, recording nothing", async () => {
      const roster = await fresh();
      const bad = [
        { agentId: "" },
        { agentId: "m", model: { stream() {} } },
        { agentId: "t", tools: [] },
        { agentId: "f", metadata: { call: () => 1 } },
        { agentId: "p", providerId: "openai" },
        { agentId: "n", toolNames: "read_file" },
      ];
      for (const spec of bad)
        await expect(roster.create({ spec: spec as never, createdBy: "lead" })).rejects.toMatchObject({
          code: "team_invalid_input",
        });
      expect(await roster.list()).toEqual([]);
    });

    it("acquire leases free teammates oldest first up to max; two workers at once never get the same one", async () => {
      const roster = await fresh();
      for (const id of ["a", "b", "c", "d", "e"]) await record(roster, id);
      const first = await roster.acquire("w1", { leaseMs: 60_000, max: 2 });
      expect(first.map((g) => [g.agentId, g.workerId, g.state])).toEqual([
        ["a", "w1", "running"],
        ["b", "w1", "running"],
      ]);
      expect(first[0]!.previousWorkerId).toBeUndefined();
      expect(await roster.acquire("w1", { leaseMs: 60_000, max: 0 })).toEqual([]);
      const other = await open();
      const [x, y] = await Promise.all([
        roster.acquire("w2", { leaseMs: 60_000, max: 10 }),
        other.acquire("w3", { leaseMs: 60_000, max: 10 }),
      ]);
      const taken = [...x, ...y].map((g) => g.agentId).sort();
      expect(taken).toEqual(["c", "d", "e"]);
      expect(await roster.acquire("w4", { leaseMs: 60_000, max: 10 })).toEqual([]);
      const holders = Object.fromEntries((await roster.list()).map((e) => [e.agentId, e.workerId]));
      expect(holders).toMatchObject({ a: "w1", b: "w1" });
      expect(new Set([holders.c, holders.d, holders.e].map((w) => ["w2", "w3"].includes(w!)))).toEqual(new Set([true]));
    });

    it("a lease not renewed ends: another worker takes it, learns who held it, and the old holder is shut out", async () => {
      const roster = await fresh();
      await record(roster, "a");
      const [grant] = await roster.acquire("w1", { leaseMs: 200, max: 1 });
      expect(grant).toMatchObject({ agentId: "a", workerId: "w1" });
      expect(grant!.leaseExpiresAt).toBeGreaterThan(Date.now());
      expect(await roster.acquire("w2", { leaseMs: 60_000, max: 1 })).toEqual([]);
      await sleep(400);
      expect(await roster.get("a")).toMatchObject({ state: "waiting", lastWorkerId: "w1" });
      expect((await roster.get("a"))?.workerId).toBeUndefined();
      const taken = await roster.acquire("w2", { leaseMs: 60_000, max: 1 });
      expect(taken).toMatchObject([{ agentId: "a", workerId: "w2", previousWorkerId: "w1" }]);
      expect(await roster.renew("w1", ["a"], 60_000)).toEqual([]);
      expect(await roster.setState("w1", "a", "idle")).toBe(false);
      expect(await roster.release("w1", "a")).toBe(false);
      expect(await roster.stop("a", { reason: "error", workerId: "w1" })).toBe(false);
      expect(await roster.get("a")).toMatchObject({ state: "running", workerId: "w2" });
    });

    it("renew extends only the leases the worker holds", async () => {
      const roster = await fresh();
      for (const id of ["a", "b", "c"]) await record(roster, id);
      await roster.acquire("w1", { leaseMs: 10_000, max: 2 });
      await roster.acquire("w2", { leaseMs: 10_000, max: 1 });
      const renewedAt = Date.now();
      expect(await roster.renew("w1", ["a", "b", "c", "unknown"], 120_000)).toEqual(["a", "b"]);
      const byId = Object.fromEntries((await roster.list()).map((e) => [e.agentId, e]));
      expect(byId.a!.leaseExpiresAt).toBeGreaterThan(renewedAt + 60_000);
      expect(byId.c!.leaseExpiresAt).toBeLessThan(renewedAt + 60_000);
      expect(await roster.renew("w1", [], 1000)).toEqual([]);
    });

    it("release hands a teammate over at once; only its holder can release it", async () => {
      const roster = await fresh();
      await record(roster, "a");
      await roster.acquire("w1", { leaseMs: 60_000, max: 1 });
      expect(await roster.release("w2", "a")).toBe(false);
      expect(await roster.release("w1", "a")).toBe(true);
      expect(await roster.get("a")).toMatchObject({ state: "waiting", lastWorkerId: "w1" });
      expect(await roster.acquire("w2", { leaseMs: 60_000, max: 1 })).toMatchObject([
        { agentId: "a", workerId: "w2", previousWorkerId: "w1" },
      ]);
    });

    it("a stopped teammate is never leased again; its holder's renew drops it; only the holder records its own stop", async () => {
      const roster = await fresh();
      await record(roster, "a");
      await record(roster, "b");
      await roster.acquire("w1", { leaseMs: 60_000, max: 2 });
      // The lead's stop: no worker named.
      expect(await roster.stop("a", { reason: "stopped" })).toBe(true);
      expect(await roster.stop("a", { reason: "stopped" })).toBe(false);
      expect(await roster.renew("w1", ["a", "b"], 60_000)).toEqual(["b"]);
      expect(await roster.setState("w1", "a", "idle")).toBe(false);
      // A holder's record of why its teammate stopped; another worker cannot write it.
      expect(await roster.stop("b", { reason: "shutdown", workerId: "w2" })).toBe(false);
      expect(await roster.stop("b", { reason: "limit", detail: "maxTurns", workerId: "w1" })).toBe(true);
      expect(await roster.stop("nobody", { reason: "stopped" })).toBe(false);
      const [a, b] = await roster.list();
      expect(a).toMatchObject({ state: "stopped", stopReason: "stopped" });
      expect(b).toMatchObject({ state: "stopped", stopReason: "limit", stopDetail: "maxTurns" });
      expect(a!.workerId).toBeUndefined();
      expect(await roster.acquire("w3", { leaseMs: 60_000, max: 5 })).toEqual([]);
    });

    it("the holder's state shows with its worker; other workers cannot write it", async () => {
      const roster = await fresh();
      await record(roster, "a");
      await roster.acquire("w1", { leaseMs: 60_000, max: 1 });
      expect(await roster.setState("w1", "a", "idle")).toBe(true);
      expect(await roster.get("a")).toMatchObject({ state: "idle", workerId: "w1", lastWorkerId: "w1" });
      expect(await roster.setState("w2", "a", "running")).toBe(false);
      expect(await roster.setState("w1", "a", "running")).toBe(true);
      expect((await roster.list())[0]).toMatchObject({ state: "running", workerId: "w1" });
      await expect(roster.setState("w1", "a", "stopped" as never)).rejects.toMatchObject({
        code: "team_invalid_input",
      });
    });

    it("adds each turn's usage; turns added through two rosters at once all count", async () => {
      const roster = await fresh();
      await record(roster, "a");
      await record(roster, "b");
      const other = await open();
      await Promise.all([
        ...Array.from({ length: 10 }, () => roster.addUsage("a", usage(1))),
        ...Array.from({ length: 10 }, () => other.addUsage("a", usage(2))),
        other.addUsage("b", usage(5)),
      ]);
      const [a, b] = await roster.list();
      expect(a!.usage).toMatchObject({ turns: 20, inputTokens: 30, outputTokens: 60, cacheReadTokens: 0 });
      expect(a!.usage.costUsd).toBeCloseTo(0.03, 10);
      expect(b!.usage).toMatchObject({ turns: 1, inputTokens: 5 });
    });

    it("tasks: numbered in order, each claimed by one agent, completed only by its claimer, kept across a reopen", async () => {
      const roster = await fresh();
      const one = await roster.addTask({ title: "write the parser", description: "in src/", createdBy: "lead" });
      const two = await roster.addTask({ title: "test it", createdBy: "lead" });
      expect([one.id, two.id]).toEqual(["task-1", "task-2"]);
      expect(one).toMatchObject({
        title: "write the parser",
        description: "in src/",
        state: "open",
        createdBy: "lead",
      });
      const other = await open();
      const outcomes = await Promise.allSettled([roster.claimTask("a", one.id), other.claimTask("b", one.id)]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const winner = (await roster.listTasks())[0]!.claimedBy!;
      const loser = winner === "a" ? "b" : "a";
      expect((outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({
        code: "team_task_conflict",
        taskId: "task-1",
      });
      expect(await roster.claimTask(winner, one.id)).toMatchObject({ state: "claimed", claimedBy: winner });
      await expect(roster.completeTask(loser, one.id)).rejects.toMatchObject({ code: "team_task_conflict" });
      // Without an id: the oldest open task.
      expect(await other.claimTask(loser)).toMatchObject({ id: "task-2", claimedBy: loser });
      expect(await other.claimTask(loser)).toBeUndefined();
      expect(await roster.completeTask(winner, one.id, "parser in src/parse.ts")).toMatchObject({
        state: "done",
        result: "parser in src/parse.ts",
      });
      await expect(roster.claimTask(loser, one.id)).rejects.toMatchObject({ code: "team_task_conflict" });
      await expect(roster.claimTask("a", "task-99")).rejects.toMatchObject({ code: "team_task_not_found" });
      await expect(roster.completeTask("a", "task-99")).rejects.toMatchObject({ code: "team_task_not_found" });
      await expect(roster.addTask({ title: " ", createdBy: "lead" })).rejects.toMatchObject({
        code: "team_invalid_input",
      });
      const reopened = await open();
      expect((await reopened.listTasks()).map((t) => [t.id, t.state, t.claimedBy])).toEqual([
        ["task-1", "done", winner],
        ["task-2", "claimed", loser],
      ]);
    });

    it("ids with ':' and '%' are leased, renewed, released and stopped like any other", async () => {
      const roster = await fresh();
      const ids = ["a:b", "a%3Ab", "100%", ":"];
      for (const id of ids) await record(roster, id);
      expect((await roster.acquire("w:1", { leaseMs: 60_000, max: 10 })).map((g) => g.agentId)).toEqual(ids);
      expect(await roster.renew("w:1", ids, 60_000)).toEqual(ids);
      expect(await roster.setState("w:1", "a:b", "idle")).toBe(true);
      expect(await roster.release("w:1", "a%3Ab")).toBe(true);
      expect(await roster.stop("100%", { reason: "shutdown", workerId: "w:1" })).toBe(true);
      expect((await roster.list()).map((e) => [e.agentId, e.state, e.workerId])).toEqual([
        ["a:b", "idle", "w:1"],
        ["a%3Ab", "waiting", undefined],
        ["100%", "stopped", undefined],
        [":", "running", "w:1"],
      ]);
    });

    it("keeps teammates, leases and usage across a reopen (a restarted lead)", async () => {
      const roster = await fresh();
      await roster.create({ spec: { agentId: "a", role: "r" }, initialPrompt: "go", createdBy: "lead" });
      await roster.acquire("w1", { leaseMs: 60_000, max: 1 });
      await roster.addUsage("a", usage(3));
      await roster.close();
      const reopened = await open();
      expect(await reopened.list()).toMatchObject([
        { agentId: "a", spec: { role: "r" }, initialPrompt: "go", workerId: "w1", usage: { turns: 1, inputTokens: 3 } },
      ]);
    });

    it("after close() every call rejects with team_roster_closed", async () => {
      const roster = await fresh();
      await record(roster, "a");
      await roster.close();
      await roster.close();
      await expect(roster.list()).rejects.toMatchObject({ code: "team_roster_closed" });
      await expect(record(roster, "b")).rejects.toMatchObject({ code: "team_roster_closed" });
      await expect(roster.acquire("w", { leaseMs: 1000, max: 1 })).rejects.toMatchObject({
        code: "team_roster_closed",
      });
    });
  });
}
