// A lead (this process) and two teammate worker processes sharing one team over Redis (RedisTeamMailbox) and
// PostgreSQL (PostgresSessionStore). One worker is SIGKILLed inside a tool and restarted under the same consumer
// name: every acknowledged message gets exactly one turn and one notification, and every transcript stays valid.
import { getMessageText, getToolCalls, getToolResults } from "@heddle/shared";
import Redis from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTeamManager, PostgresSessionStore, RedisTeamMailbox, type TeamMailboxMessage } from "../../src/index.js";
import { POSTGRES_URL, REDIS_URL, reachable, runScopedName } from "../support/services.js";
import { buildChild, type Child, killAll, removeBundle, startChild } from "./child-process.js";

const up = (await reachable(POSTGRES_URL)) && (await reachable(REDIS_URL));
if (!up)
  console.warn(
    `[heddle] PostgreSQL (${POSTGRES_URL}) or Redis (${REDIS_URL}) is not reachable: the team crash test skips`,
  );

const schema = runScopedName("heddle_crash");
const keyPrefix = runScopedName("heddle_crash");
const teamId = "crew";

beforeAll(() => (up ? buildChild() : undefined), 60_000);
afterAll(async () => {
  killAll();
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

function startWorker(agentId: string, consumer: string): Child {
  const config = { postgresUrl: POSTGRES_URL, schema, redisUrl: REDIS_URL, keyPrefix, teamId, consumer, agentId };
  return startChild(["worker", JSON.stringify(config)]);
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

describe.skipIf(!up)("a team across processes on Redis + PostgreSQL", () => {
  it("a worker killed mid-turn and restarted: nothing lost, nothing run twice, transcripts valid", async () => {
    const mailbox = new RedisTeamMailbox({ url: REDIS_URL, teamId, keyPrefix, blockMs: 500 });
    const store = new PostgresSessionStore({ connectionString: POSTGRES_URL, schema });
    // The lead runs no teammate here: it sends tasks and reads reports.
    const lead = new AgentTeamManager({ mailbox, store, teamId });
    await store.listSessions(); // the schema exists before the workers race to create it

    const tasks = {
      alpha: ["alpha task 1", "alpha task 2 SLOW", "alpha task 3", "alpha task 4"],
      beta: ["beta task 1", "beta task 2", "beta task 3", "beta task 4"],
    };
    const doomed = startWorker("alpha", "worker-alpha");
    const beta = startWorker("beta", "worker-beta");
    for (const [agentId, list] of Object.entries(tasks)) for (const text of list) await lead.send(agentId, text);

    await doomed.waitFor(/^TOOL_RUNNING$/);
    doomed.process.kill("SIGKILL");
    await doomed.exited;
    // Restarted under the same consumer name, it takes back its own pending message at once (no claimIdleMs wait).
    const alpha = startWorker("alpha", "worker-alpha");

    // The lead reads its inbox until every task was reported.
    const notices: TeamMailboxMessage[] = [];
    const deadline = Date.now() + 30_000;
    while (notices.length < 8 && Date.now() < deadline) {
      const next = await mailbox.dequeue("lead");
      if (next) notices.push(next);
      else await mailbox.wait("lead", AbortSignal.timeout(Math.max(1, deadline - Date.now()))).catch(() => {});
    }
    const reported = notices.map((m) => /done: (.*)/.exec(m.text)?.[1]).sort();
    expect(reported).toEqual([...tasks.alpha, ...tasks.beta].sort());

    // Alpha stops on a shutdown request, beta on SIGTERM (the worker's abort): both end by themselves.
    await lead.requestShutdown("alpha", "lead", "all done");
    expect(await exitWithin(alpha, 15_000)).toBe(0);
    beta.process.kill("SIGTERM");
    expect(await exitWithin(beta, 15_000)).toBe(0);
    expect(alpha.lines).toContain("STOPPED alpha shutdown ");
    expect(beta.lines).toContain("STOPPED beta stopped ");

    const all = [...doomed.lines, ...alpha.lines, ...beta.lines];
    expect(all.filter((l) => l.startsWith("ERROR") || l.startsWith("INVALID_REQUEST"))).toEqual([]);
    // Each task started once as a new turn; only the one the kill cut started again, as a resumed turn.
    const fresh = all.filter((l) => l.startsWith("TURN_STARTED") && l.endsWith("resumed=false")).sort();
    expect(fresh).toEqual([...tasks.alpha, ...tasks.beta].map((t) => `TURN_STARTED ${t} resumed=false`).sort());
    expect(alpha.lines.filter((l) => l.startsWith("TURN_STARTED") && l.endsWith("resumed=true"))).toEqual([
      "TURN_STARTED alpha task 2 SLOW resumed=true",
    ]);

    for (const agentId of ["alpha", "beta"] as const) {
      const history = await store.getHistory(`teammate-${teamId}-${agentId}`);
      const turns = history.filter((m) => m.id.startsWith("team-turn-")).map(getMessageText);
      expect(turns.map((t) => /\n(.*)\n/.exec(t)?.[1])).toEqual(tasks[agentId]);
      // Every tool call in the stored transcript has its result right after it.
      history.forEach((message, i) => {
        const calls = getToolCalls(message).map((c) => c.toolCallId);
        if (calls.length > 0) expect(getToolResults(history[i + 1]!).map((r) => r.toolCallId)).toEqual(calls);
      });
      expect(await mailbox.list(agentId)).toEqual([]);
    }
    expect((await mailbox.list("lead")).map((m) => m.kind)).toEqual(["shutdown_approved"]);
    await mailbox.close();
    await store.close();
  }, 90_000);
});
