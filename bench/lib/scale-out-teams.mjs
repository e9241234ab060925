// The teams half of `bench/scale-out.bench.mjs`: a lead (this process) and worker processes (`runTeamWorker` with a
// RedisTeamRoster, a RedisTeamMailbox and a PostgresSessionStore, instant scripted models) on one machine. Measured
// in each round, against the raw Redis round trip (PING, ioredis) measured in the same round:
// - delivery: the lead's send → the teammate's turn starts in a worker process (both read the same clock);
// - round trip: the lead's send → the teammate's report is in the lead's hands (a turn with two PostgreSQL appends);
// - takeover: SIGKILL of a worker → a survivor holds its teammate (bounded by leaseMs + a poll);
// - handover: SIGTERM to a worker (a clean stop) → another worker holds its teammate (a release, then a poll).
// Run as `node scale-out-teams.mjs worker <config>` it is one worker.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import {
  AgentTeamManager,
  PostgresSessionStore,
  RedisTeamMailbox,
  RedisTeamRoster,
  runTeamWorker,
} from "../../packages/core/dist/index.js";
import { createScriptedModel } from "../../packages/llms/dist/testing/index.js";

const self = fileURLToPath(import.meta.url);
const requireFromCore = createRequire(new URL("../../packages/core/package.json", import.meta.url));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function open(config) {
  const { redisUrl: url, teamId, keyPrefix } = config;
  return {
    roster: new RedisTeamRoster({ url, teamId, keyPrefix }),
    mailbox: new RedisTeamMailbox({ url, teamId, keyPrefix }),
    store: new PostgresSessionStore({ connectionString: config.postgresUrl, schema: config.schema }),
  };
}

// ── child: one worker; prints TAKEN <agent> <time> and STARTED <text> <time> ──
if (process.argv[2] === "worker") {
  const config = JSON.parse(process.argv[3]);
  const { roster, mailbox, store } = open(config);
  await store.listSessions();
  const controller = new AbortController();
  process.once("SIGTERM", () => controller.abort());
  const say = (line) => process.stdout.write(`${line}\n`);
  say("READY");
  await runTeamWorker({
    roster,
    mailbox,
    store,
    workerId: config.workerId,
    leaseMs: config.leaseMs,
    maxTeammates: 1,
    model: createScriptedModel([{ text: "pong" }], { whenExhausted: "repeat-last" }),
    compaction: false,
    signal: controller.signal,
    onEvent: (event) => {
      if (event.type === "lease-taken") say(`TAKEN ${event.agentId} ${Date.now()}`);
      if (event.type === "turn-started" && event.message) say(`STARTED ${event.message.text} ${Date.now()}`);
    },
  });
  await roster.close();
  await mailbox.close();
  await store.close();
  process.exit(0);
}

function startWorker(config, workerId) {
  const child = spawn(process.execPath, [self, "worker", JSON.stringify({ ...config, workerId })], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = [];
  const waiters = [];
  let buffer = "";
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      lines.push(line);
      for (const w of [...waiters]) {
        if (!w.pattern.test(line)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const waitFor = (pattern, ms = 30_000) =>
    new Promise((resolve, reject) => {
      const found = lines.find((line) => pattern.test(line));
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`${workerId} never printed ${pattern}`)), ms);
      const done = (line) => {
        clearTimeout(timer);
        resolve(line);
      };
      waiters.push({ pattern, resolve: done });
    });
  return { child, lines, exited, waitFor, workerId };
}

async function redisRoundTrip(url, count = 200) {
  const Redis = requireFromCore("ioredis");
  const redis = new Redis(url);
  await redis.ping();
  const times = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await redis.ping();
    times.push(performance.now() - start);
  }
  await redis.quit();
  return median(times);
}

async function report(mailbox) {
  for (;;) {
    const message = await mailbox.dequeue("lead");
    if (message?.kind === "task_notification") return message;
    if (!message) await mailbox.wait("lead", AbortSignal.timeout(30_000));
  }
}

/** One round: a fresh team, two workers, then latency, takeover and handover. Times in ms. */
export async function measureTeamRound(base, { messages = 30, leaseMs = 2_000 } = {}) {
  const config = { ...base, teamId: `bench-${process.pid}-${Date.now()}`, leaseMs };
  const rtt = await redisRoundTrip(config.redisUrl);
  const { roster, mailbox, store } = open(config);
  await store.listSessions();
  const lead = new AgentTeamManager({ mailbox, store, roster });
  const workers = [startWorker(config, "w1"), startWorker(config, "w2")];
  await Promise.all(workers.map((w) => w.waitFor(/^READY$/)));
  for (const id of ["t1", "t2"]) await lead.spawn({ agentId: id }, "warm up");
  await report(mailbox);
  await report(mailbox);
  const delivery = [];
  const roundTrip = [];
  for (let i = 0; i < messages; i++) {
    const text = `ping-${i}`;
    const sentAt = Date.now();
    const start = performance.now();
    await lead.send(i % 2 ? "t2" : "t1", text);
    await report(mailbox);
    roundTrip.push(performance.now() - start);
    const line = workers.flatMap((w) => w.lines).find((l) => l.startsWith(`STARTED ${text} `));
    delivery.push(Number(line.split(" ").pop()) - sentAt);
  }
  const holderOf = async (agentId) => (await lead.status()).find((row) => row.agentId === agentId).workerId;
  // Takeover: SIGKILL the worker that holds t1; a fresh worker with room (the other one is full) takes t1 once the
  // dead worker's lease ends.
  const victimId = await holderOf("t1");
  const doomed = workers.find((w) => w.workerId === victimId);
  const spare = startWorker(config, "w3");
  await spare.waitFor(/^READY$/);
  doomed.child.kill("SIGKILL");
  const killedAt = Date.now();
  const taken = await spare.waitFor(/^TAKEN t1 /, leaseMs + 30_000);
  const takeover = Number(taken.split(" ").pop()) - killedAt;
  // Handover: a clean exit of the worker holding t2 while a fresh worker waits with room.
  const leavingId = await holderOf("t2");
  const leaving = workers.find((w) => w.workerId === leavingId);
  const next = startWorker(config, "w4");
  await next.waitFor(/^READY$/);
  leaving.child.kill("SIGTERM");
  const signalledAt = Date.now();
  const handed = await next.waitFor(/^TAKEN t2 /, leaseMs + 30_000);
  const handover = Number(handed.split(" ").pop()) - signalledAt;
  await leaving.exited;
  for (const w of [...workers, spare, next]) if (w.child.exitCode === null) w.child.kill("SIGTERM");
  await Promise.all([spare, next, ...workers].map((w) => w.exited));
  await roster.close();
  await mailbox.close();
  await store.close();
  return { rtt, delivery: median(delivery), roundTrip: median(roundTrip), takeover, handover, leaseMs };
}
