// One measuring process of the peer benchmark (forked with IPC by bench/peers.bench.mjs). It loads only the
// clients it measures, so imports, heaps and JIT state never leak between peers. Usage:
//   node worker.mjs '<job JSON>'
// Jobs (all carry family, url, turns, argumentBytes):
//   pairs:   {clients: [floor, other], pairs, warmups} -> per pair, CPU and wall ms of each whole loop; the two
//            run back to back, taking turns at going first, so load drift hits both sides of a pair
//   batch:   {client, agents} -> a warm-up batch a tenth the size, then `agents` loops at once: CPU, wall, peak RSS
//   batchPairs: {clients: [floor, other], agents, pairs} -> a warm-up batch of each, then per pair a batch of
//            `agents` loops at once of each, taking turns at going first: CPU and wall ms of each batch
//   first:   {client, warm?} -> the clock starts before the client's import: import + construct + one whole loop;
//            with `warm`, the host's warm-up (./warm-up.mjs: the vendor client, for Heddle `gateway.warmUp`) runs
//            first, before the clock
//   profile: {client, warmups, loops, profilePath} -> warm-up loops, then `loops` loops under V8's CPU profiler,
//            the profile written to profilePath (the .cpuprofile format of `node --cpu-prof`)
// Replies with one message: {ok: true, runs, ...} or {ok: false, error}.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { performance } from "node:perf_hooks";

const job = JSON.parse(process.argv[2]);
// Warnings the clients raise (Node still prints them); their names go back to the parent to be attributed.
const warnings = [];
process.on("warning", (warning) => warnings.push(warning.name));
const clientUrl = (name) => new URL(`./${name}.mjs`, import.meta.url).href;
const loopOptions = { url: job.url, turns: job.turns, argumentBytes: job.argumentBytes };

async function load(name) {
  const { runs } = await import(clientUrl(name));
  const run = runs[job.family];
  if (!run) throw new Error(`client ${name} does not support the ${job.family} scenario`);
  return run;
}

/** CPU and wall ms of one call of `fn`. */
async function measure(fn) {
  globalThis.gc?.();
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1000, wall: performance.now() - wall, value };
}

async function pairs() {
  const [floor, other] = await Promise.all(job.clients.map(load));
  for (let i = 0; i < job.warmups; i++) {
    await floor(loopOptions);
    await other(loopOptions);
  }
  const samples = [];
  for (let i = 0; i < job.pairs; i++) {
    const order = i % 2 === 0 ? [floor, other] : [other, floor];
    const first = await measure(() => order[0](loopOptions));
    const second = await measure(() => order[1](loopOptions));
    const [f, o] = i % 2 === 0 ? [first, second] : [second, first];
    samples.push({ floor: { cpu: f.cpu, wall: f.wall }, other: { cpu: o.cpu, wall: o.wall } });
  }
  return { runs: 2 * (job.warmups + job.pairs), samples };
}

async function batch() {
  const run = await load(job.client);
  const many = (agents) => Promise.all(Array.from({ length: agents }, () => run(loopOptions)));
  // A small warm-up batch (the JIT and the connection pool), then the measured one.
  const warmup = Math.max(1, Math.ceil(job.agents / 10));
  await many(warmup);
  const sample = await measure(() => many(job.agents));
  return {
    runs: warmup + job.agents,
    cpu: sample.cpu,
    wall: sample.wall,
    // Peak resident set of this whole process (KB on Linux): the import, both batches and everything kept.
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

async function batchPairs() {
  const [floor, other] = await Promise.all(job.clients.map(load));
  const many = (run, agents) => Promise.all(Array.from({ length: agents }, () => run(loopOptions)));
  const warmup = Math.max(1, Math.ceil(job.agents / 10));
  await many(floor, warmup);
  await many(other, warmup);
  const samples = [];
  for (let i = 0; i < job.pairs; i++) {
    const order = i % 2 === 0 ? [floor, other] : [other, floor];
    const first = await measure(() => many(order[0], job.agents));
    const second = await measure(() => many(order[1], job.agents));
    const [f, o] = i % 2 === 0 ? [first, second] : [second, first];
    samples.push({ floor: { cpu: f.cpu, wall: f.wall }, other: { cpu: o.cpu, wall: o.wall } });
  }
  return { runs: 2 * (warmup + job.agents * job.pairs), samples };
}

async function first() {
  if (job.warm) {
    const { warmUps } = await import("./warm-up.mjs");
    await warmUps[job.client](job.family);
  }
  const sample = await measure(async () => {
    const run = await load(job.client);
    return run(loopOptions);
  });
  return { runs: 1, cpu: sample.cpu, wall: sample.wall };
}

async function profile() {
  const run = await load(job.client);
  for (let i = 0; i < job.warmups; i++) await run(loopOptions);
  // V8's sampling profiler (what `node --cpu-prof` drives), started after the warm-up, so imports and the JIT's
  // first passes stay out of the steady-state profile.
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  for (let i = 0; i < job.loops; i++) await run(loopOptions);
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  writeFileSync(job.profilePath, JSON.stringify(profile));
  return { runs: job.warmups + job.loops };
}

const jobs = { pairs, batch, batchPairs, first, profile };
let reply;
try {
  reply = { ok: true, ...(await jobs[job.kind]()), warnings };
} catch (error) {
  reply = { ok: false, error: error?.stack ?? String(error) };
}
// Exit once the reply is out: idle keep-alive sockets must not hold the process (--cpu-prof still writes).
process.send(reply, () => process.exit(0));
