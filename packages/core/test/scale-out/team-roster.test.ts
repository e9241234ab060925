// A team across processes: the lead (this process) records teammates in a RedisTeamRoster, and worker processes
// (real children, runTeamWorker with the roster) lease and run them on Redis Streams + PostgreSQL. Workers are
// killed with SIGKILL and stopped with SIGTERM; leases, order and usage are checked from what each process says.
import { AgentRuntime } from "@heddle/agents";
import { createScriptedModel, type ScriptedResponse } from "@heddle/llms/testing";
import { type AgentModelRequest, getMessageText, getToolResults, toolOutputText } from "@heddle/shared";
import Redis from "ioredis";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AgentTeamManager,
  createTeamTools,
  PostgresSessionStore,
  RedisTeamMailbox,
  RedisTeamRoster,
  type TeamMailboxMessage,
} from "../../src/index.js";
import { POSTGRES_URL, REDIS_URL, reachable, runScopedName } from "../support/services.js";
import { buildChild, type Child, killAll, removeBundle, startChild } from "./roster-child-process.js";

const up = (await reachable(POSTGRES_URL)) && (await reachable(REDIS_URL));
if (!up)
  console.warn(`[heddle] PostgreSQL (${POSTGRES_URL}) or Redis (${REDIS_URL}) is not reachable: the roster test skips`);

const schema = runScopedName("heddle_roster");
const keyPrefix = runScopedName("heddle_roster");

beforeAll(() => (up ? buildChild() : undefined), 60_000);
afterEach(() => killAll());
afterAll(async () => {
  removeBundle();
  if (!up) return;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${keyPrefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

/** One team: its own teamId, and the lead's roster, mailbox and store in this process. */
async function openTeam(teamId: string) {
  const roster = new RedisTeamRoster({ url: REDIS_URL, teamId, keyPrefix });
  const mailbox = new RedisTeamMailbox({ url: REDIS_URL, teamId, keyPrefix, blockMs: 500 });
  const store = new PostgresSessionStore({ connectionString: POSTGRES_URL, schema });
  await store.listSessions(); // the schema exists before the workers race to create it
  const lead = new AgentTeamManager({ mailbox, store, roster, leadId: "lead" });
  const config = { postgresUrl: POSTGRES_URL, schema, redisUrl: REDIS_URL, keyPrefix, teamId };
  const worker = (workerId: string, leaseMs: number, maxTeammates: number): Child =>
    startChild(["worker", JSON.stringify({ ...config, workerId, leaseMs, maxTeammates })]);
  const close = async () => {
    await roster.close();
    await mailbox.close();
    await store.close();
  };
  return { roster, mailbox, store, lead, config, worker, close };
}

/** The lead's next reports (task notifications), waiting on its mailbox between them. */
async function reports(mailbox: RedisTeamMailbox, count: number, timeoutMs = 30_000): Promise<TeamMailboxMessage[]> {
  const taken: TeamMailboxMessage[] = [];
  const deadline = Date.now() + timeoutMs;
  while (taken.length < count && Date.now() < deadline) {
    const next = await mailbox.dequeue("lead");
    if (next?.kind === "task_notification") taken.push(next);
    else if (!next) await mailbox.wait("lead", AbortSignal.timeout(Math.max(1, deadline - Date.now()))).catch(() => {});
  }
  return taken;
}

/** Resolves with the exit code, or fails when the process is still running after `ms` (it must end by itself). */
function exitWithin(child: Child, ms: number): Promise<number | null> {
  return Promise.race([
    child.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`child still running after ${ms} ms: ${child.lines.join(" | ")}`)), ms),
    ),
  ]);
}

/**
 * A lead model: the `opening` tool calls, then `team_wait` until `count` reports arrived in this run, then the
 * `closing` steps. It records every team_wait result in `waits`.
 */
function waitingLead(opening: ScriptedResponse[], count: number, closing: ScriptedResponse[], waits: string[]) {
  return createScriptedModel(
    [
      ...opening,
      (request: AgentModelRequest) => {
        const results = request.messages.flatMap(getToolResults);
        const waited = results.filter((r) => r.toolName === "team_wait").map((r) => toolOutputText(r.output));
        waits.splice(0, waits.length, ...waited);
        const reported = waited.join("\n").match(/kind="task_notification"/g)?.length ?? 0;
        if (reported < count)
          return { toolCalls: [{ id: `wait_${waited.length}`, name: "team_wait", input: { timeout_seconds: 60 } }] };
        const after = closing[results.length - waited.length - opening.length];
        return after ?? { text: "all reported" };
      },
    ],
    { whenExhausted: "repeat-last" },
  );
}

const call = (name: string, input: object, id = name) => ({ toolCalls: [{ id, name, input }] });
const usageOf = (lines: string[]) =>
  lines.filter((l) => l.startsWith("TURN_FINISHED ")).map((l) => JSON.parse(l.slice(l.lastIndexOf(" {") + 1)));

describe.skipIf(!up)("a team on a roster across processes (Redis + PostgreSQL)", () => {
  it("the lead's teammates run on three workers; status names each worker; a broadcast reaches them all; usage adds up; a restarted lead sees the roster", async () => {
    const t = await openTeam(runScopedName("crew"));
    const workers = ["w1", "w2", "w3"].map((id) => t.worker(id, 2_000, 1));
    await Promise.all(workers.map((w) => w.waitFor(/^READY$/)));
    const tools = createTeamTools(t.lead, { leadId: "lead" });

    // The lead spawns three teammates, then waits for their reports with team_wait (it never polls).
    const waits: string[] = [];
    const spawns = ["a", "b", "c"].map((id) => call("team_spawn", { agent_id: id, prompt: `${id}: first task` }, id));
    const first = await new AgentRuntime({ model: waitingLead(spawns, 3, [], waits), tools, agentId: "lead" }).run(
      "start",
    );
    expect(first.outputText).toBe("all reported");
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits.length).toBeLessThanOrEqual(3);
    for (const output of waits) expect(output).toContain('kind="task_notification"');

    // Each teammate runs on its own worker, and the lead's status says which.
    const rows = await t.lead.status();
    expect(rows.map((r) => r.agentId)).toEqual(["a", "b", "c"]);
    const workerOf = Object.fromEntries(rows.map((r) => [r.agentId, r.workerId!]));
    expect(new Set(Object.values(workerOf))).toEqual(new Set(["w1", "w2", "w3"]));
    for (const [agentId, workerId] of Object.entries(workerOf))
      expect(workers[Number(workerId.slice(1)) - 1]!.lines).toContain(`TAKEN ${agentId} prev=`);

    // A broadcast from the lead reaches the teammates on every worker; team_status shows workers and usage.
    const statusText: string[] = [];
    const second = await new AgentRuntime({
      model: waitingLead(
        [call("team_broadcast", { text: "everyone: status report" })],
        3,
        [call("team_status", {})],
        waits,
      ),
      tools,
      agentId: "lead",
      hooks: {
        afterTool: ({ toolCall, result }) => {
          if (toolCall.toolName === "team_status") statusText.push(toolOutputText(result.output));
        },
      },
    }).run("ask everyone");
    expect(second.outputText).toBe("all reported");
    for (const [agentId, workerId] of Object.entries(workerOf))
      expect(workers[Number(workerId.slice(1)) - 1]!.lines).toContainEqual(
        expect.stringMatching(new RegExp(`^TURN_FINISHED ${agentId} everyone: status report `)),
      );
    const status = JSON.parse(statusText[0]!);
    expect(status.teammates.map((r: { agentId: string; workerId: string }) => [r.agentId, r.workerId])).toEqual(
      Object.entries(workerOf),
    );

    // Team usage: every worker's turns, summed in the roster.
    const perWorker = workers.map((w) => usageOf(w.lines));
    expect(perWorker.map((turns) => turns.length)).toEqual([2, 2, 2]);
    const input = perWorker.flat().reduce((sum, u) => sum + u.inputTokens, 0);
    await expect.poll(async () => (await t.lead.usage()).turns, { timeout: 10_000 }).toBe(6);
    const usage = await t.lead.usage();
    expect(usage.inputTokens).toBe(input);
    expect(usage.inputTokens).toBe(6 * 2 * 100);
    expect(usage.costUsd).toBeCloseTo(6 * 2 * 0.001, 9);
    expect(status.usage.turns).toBeGreaterThanOrEqual(3);

    // A lead restarted in a new process sees the roster, and cannot record an id it holds.
    const restarted = startChild(["lead", JSON.stringify({ ...t.config, existingId: "a" })]);
    await restarted.waitFor(/^DONE$/);
    const seen = JSON.parse(restarted.lines.find((l) => l.startsWith("STATUS "))!.slice(7));
    expect(seen.map((r: { agentId: string; workerId: string }) => [r.agentId, r.workerId])).toEqual(
      Object.entries(workerOf),
    );
    expect(JSON.parse(restarted.lines.find((l) => l.startsWith("USAGE "))!.slice(6))).toMatchObject({ turns: 6 });
    expect(restarted.lines).toContain("SPAWN_ERROR TeamAgentExistsError team_agent_exists");

    for (const w of workers) w.process.kill("SIGTERM");
    for (const w of workers) expect(await exitWithin(w, 15_000)).toBe(0);
    const all = workers.flatMap((w) => w.lines);
    expect(all.filter((l) => l.startsWith("ERROR") || l.startsWith("INVALID_REQUEST"))).toEqual([]);
    expect(all.filter((l) => l.startsWith("RELEASED")).sort()).toEqual(["RELEASED a", "RELEASED b", "RELEASED c"]);
    await t.close();
  }, 180_000);

  it("SIGKILL a worker mid-turn: its teammate runs on a survivor within leaseMs + 3 s, and the messages sent before the kill are handled in order, once each", async () => {
    const leaseMs = 2_000;
    const t = await openTeam(runScopedName("kill"));
    const doomed = t.worker("doomed", leaseMs, 1);
    await doomed.waitFor(/^READY$/);
    await t.lead.spawn({ agentId: "x" }, "x: set up");
    await doomed.waitFor(/^TURN_FINISHED x INITIAL /);
    const survivor = t.worker("survivor", leaseMs, 4);
    await t.lead.spawn({ agentId: "y" }, "y: set up");
    await survivor.waitFor(/^TURN_FINISHED y INITIAL /);

    const tasks = ["x task 1 SLOW", "x task 2", "x task 3"];
    for (const text of tasks) await t.lead.send("x", text);
    await doomed.waitFor(/^TOOL_RUNNING x$/);
    doomed.process.kill("SIGKILL");
    const killedAt = Date.now();
    await doomed.exited;

    await survivor.waitFor(/^TAKEN x prev=doomed$/, leaseMs + 10_000);
    const takenAfterMs = Date.now() - killedAt;
    expect(takenAfterMs).toBeLessThanOrEqual(leaseMs + 3_000);
    expect(await t.lead.status()).toMatchObject([
      { agentId: "x", workerId: "survivor" },
      { agentId: "y", workerId: "survivor" },
    ]);

    const got = (await reports(t.mailbox, 5)).map((m) => /done: (.*)/.exec(m.text)?.[1]);
    expect(got.filter((r) => r?.startsWith("x task"))).toEqual(tasks);
    // On the survivor: the cut turn first (resumed, not started again), then the two that waited, in send order.
    expect(survivor.lines.filter((l) => l.startsWith("TURN_STARTED x "))).toEqual([
      "TURN_STARTED x x task 1 SLOW resumed=true",
      "TURN_STARTED x x task 2 resumed=false",
      "TURN_STARTED x x task 3 resumed=false",
    ]);
    expect(doomed.lines.filter((l) => l.startsWith("TURN_STARTED x x task"))).toEqual([
      "TURN_STARTED x x task 1 SLOW resumed=false",
    ]);
    const history = await t.store.getHistory(`teammate-${t.roster.teamId}-x`);
    const turns = history.filter((m) => m.id.startsWith("team-turn-")).map(getMessageText);
    expect(turns.map((text) => /\n(.*)\n/.exec(text)?.[1] ?? text)).toEqual(["x: set up", ...tasks]);
    expect(await t.mailbox.list("x")).toEqual([]);

    survivor.process.kill("SIGTERM");
    expect(await exitWithin(survivor, 15_000)).toBe(0);
    const all = [...doomed.lines, ...survivor.lines];
    expect(all.filter((l) => l.startsWith("ERROR") || l.startsWith("INVALID_REQUEST"))).toEqual([]);
    await t.close();
  }, 180_000);

  it("a clean shutdown hands a worker's teammates over at once, long before their leases would end", async () => {
    const leaseMs = 30_000;
    const t = await openTeam(runScopedName("handover"));
    const leaving = t.worker("leaving", leaseMs, 1);
    await leaving.waitFor(/^READY$/);
    await t.lead.spawn({ agentId: "z" }, "z: set up");
    await leaving.waitFor(/^TURN_FINISHED z INITIAL /);
    const staying = t.worker("staying", leaseMs, 4);
    await staying.waitFor(/^READY$/);

    leaving.process.kill("SIGTERM");
    expect(await exitWithin(leaving, 15_000)).toBe(0);
    const exitedAt = Date.now();
    expect(leaving.lines).toContain("RELEASED z");
    await staying.waitFor(/^TAKEN z prev=leaving$/, 20_000);
    expect(Date.now() - exitedAt).toBeLessThan(leaseMs / 2);

    await t.lead.send("z", "z: after the handover");
    expect((await reports(t.mailbox, 2)).map((m) => /done: (.*)/.exec(m.text)?.[1])).toEqual([
      "z: set up",
      "z: after the handover",
    ]);
    expect(staying.lines).toContainEqual(expect.stringMatching(/^TURN_FINISHED z z: after the handover /));
    staying.process.kill("SIGTERM");
    expect(await exitWithin(staying, 15_000)).toBe(0);
    await t.close();
  }, 120_000);
});
