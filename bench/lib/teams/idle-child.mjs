// One process of the "idle" scenario (bench/teams.bench.mjs): `node --expose-gc idle-child.mjs <kind> <count>`
// starts <count> teammates in one AgentTeamManager, each runs a first short turn and goes idle (waits for mail);
// then, after two GCs, it prints one JSON line: memory, the active resources by type, and the CPU it spends idle.
// Kinds: memory (InMemoryTeamMailbox + MemorySessionStore, the manager's default), sqlite (SqliteTeamMailbox +
// SqliteSessionStore on one file), redis (RedisTeamMailbox + SqliteSessionStore).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  AgentTeamManager,
  InMemoryTeamMailbox,
  MemorySessionStore,
  RedisTeamMailbox,
  SqliteSessionStore,
  SqliteTeamMailbox,
} from "../../../packages/core/dist/index.js";
import { cpuMs, instantModel, REDIS_URL, requireFromCore } from "./common.mjs";

const [kind, countText] = process.argv.slice(2);
const count = Number(countText);
const IDLE_MS = Number(process.env.TEAMS_IDLE_CPU_MS ?? 3000);
const dir = mkdtempSync(join(tmpdir(), "heddle-bench-teams-idle-"));
const keyPrefix = `heddle_bench_idle_${process.pid}`;

function open() {
  if (kind === "memory") return { mailbox: new InMemoryTeamMailbox(), store: new MemorySessionStore() };
  const store = new SqliteSessionStore({ path: join(dir, "team.db") });
  if (kind === "sqlite") return { mailbox: new SqliteTeamMailbox({ path: join(dir, "team.db") }), store };
  return { mailbox: new RedisTeamMailbox({ url: REDIS_URL, teamId: "idle", keyPrefix }), store };
}

const resources = () => {
  const byType = {};
  for (const type of process.getActiveResourcesInfo()) byType[type] = (byType[type] ?? 0) + 1;
  return byType;
};

const settle = async () => {
  for (let i = 0; i < 3; i++) {
    await sleep(100);
    globalThis.gc?.();
  }
};

const { mailbox, store } = open();
const manager = new AgentTeamManager({
  mailbox,
  store,
  model: instantModel(),
  compaction: false,
  limits: { maxTeammates: count + 1 },
});
let idle = 0;
let failed;
const allIdle = new Promise((resolve) => {
  manager.subscribe((event) => {
    if (event.type === "idle" && ++idle === count) resolve();
    if (event.type === "stopped" && event.error) failed ??= event.error;
  });
});
await settle();
const before = { ...process.memoryUsage(), resources: resources() };
for (let i = 0; i < count; i++) manager.spawn({ agentId: `mate-${i}` }, "say hello");
await allIdle;
if (failed) throw failed;
await settle();
const memory = process.memoryUsage();
const active = resources();
// What idle teammates cost while nothing arrives: CPU over IDLE_MS.
const cpuStart = process.cpuUsage();
await sleep(IDLE_MS);
const idleCpuMsPerSecond = (cpuMs(process.cpuUsage(cpuStart)) * 1000) / IDLE_MS;
const turns = manager.usage().turns;
await manager.stopAll();
await mailbox.close();
await store.close();
if (kind === "redis") {
  const redis = new (requireFromCore("ioredis"))(REDIS_URL);
  const keys = await redis.keys(`${keyPrefix}:*`);
  for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
  await redis.quit();
}
rmSync(dir, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({ kind, count, turns, before, rss: memory.rss, heapUsed: memory.heapUsed, external: memory.external, resources: active, idleCpuMsPerSecond })}\n`,
);
process.exit(0);
