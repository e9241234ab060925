import Redis from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { REDIS_URL, reachable, runScopedName } from "../../../test/support/services.js";
import { runTeamRosterConformance } from "../../testing/index.js";
import { leaseKey, rosterKeys } from "./redis-keys.js";
import { RedisTeamRoster } from "./redis-roster.js";

const up = await reachable(REDIS_URL);
if (!up) console.warn(`[heddle] Redis is not reachable at ${REDIS_URL}: the RedisTeamRoster tests skip`);

// Every key this run writes starts with its own prefix; they are all deleted at the end.
const prefix = runScopedName("heddle_roster");
afterAll(async () => {
  if (!up) return;
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

if (up)
  runTeamRosterConformance(
    "RedisTeamRoster",
    (location) => new RedisTeamRoster({ url: REDIS_URL, teamId: location, keyPrefix: prefix }),
  );

describe.skipIf(!up)("RedisTeamRoster specifics", () => {
  it("a lease is a key Redis expires: the worker's id with a TTL of leaseMs, renewed by PEXPIRE, gone on release", async () => {
    const teamId = runScopedName("lease");
    const roster = new RedisTeamRoster({ url: REDIS_URL, teamId, keyPrefix: prefix });
    const admin = new Redis(REDIS_URL);
    await roster.create({ spec: { agentId: "a:1" }, createdBy: "lead" });
    await roster.acquire("worker-1", { leaseMs: 5_000, max: 1 });
    const key = leaseKey(prefix, teamId, "a:1");
    expect(key).toBe(`${prefix}:team:${teamId}:lease:a%3A1`);
    expect(await admin.get(key)).toBe("worker-1");
    const ttl = await admin.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
    await roster.renew("worker-1", ["a:1"], 60_000);
    expect(await admin.pttl(key)).toBeGreaterThan(5_000);
    // Redis ends it by itself: once the key is gone, the teammate waits for a worker.
    await admin.del(key);
    expect(await roster.get("a:1")).toMatchObject({ state: "waiting", lastWorkerId: "worker-1" });
    // The roster's keys sit beside the mailbox's, never on an inbox key.
    const keys = rosterKeys(prefix, teamId);
    expect((await admin.keys(`${prefix}:team:${teamId}:*`)).sort()).toEqual([keys.roster, keys.seq, keys.state].sort());
    await admin.quit();
    await roster.close();
  });

  it("leaves a client the host passed in open on close()", async () => {
    const client = new Redis(REDIS_URL);
    const roster = new RedisTeamRoster({ client, teamId: runScopedName("own"), keyPrefix: prefix });
    await roster.create({ spec: { agentId: "a" }, createdBy: "lead" });
    await roster.close();
    expect(await client.ping()).toBe("PONG");
    await client.quit();
  });
});
