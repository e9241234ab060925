// Heddle against its floor, the raw `openai` client in a hand-written loop (DESIGN.md, "Performance targets").
// A 50-turn tool loop against a loopback Chat Completions server; every tool turn streams its arguments in 200
// fragments, the last turn answers with text. Goals: CPU per turn at most 1.10x the floor at 2 KB of arguments
// and still at 32 KB (linear in argument size), and import + construct no slower than importing `openai` alone.
// Imports the BUILT packages: run `pnpm build` first (`pnpm bench openai-floor` does).
//
// The server runs in child processes (one per argument size), so process.cpuUsage here counts the client side
// only. Both clients run in this one process, in adjacent pairs whose order alternates, and the goal is the median
// of the per-pair ratios: load on a shared machine drifts, and a pair sees the same drift on both sides.
// Knobs (environment): FLOOR_PAIRS_2K, FLOOR_PAIRS_32K, FLOOR_IMPORT_RUNS, FLOOR_PROFILE=1 (profile even when
// within goal), FLOOR_PROFILE=0 (never).
import { fork, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { runFloor, runHeddle } from "./lib/chat-clients.mjs";
import { summarizeProfile } from "./lib/cpu-profile.mjs";

const TURNS = 50;
const FRAGMENTS = 200;
const GOAL = 1.1;
const SIZES = [
  { label: "2 KB", bytes: 2 * 1024, pairs: Number(process.env.FLOOR_PAIRS_2K ?? 21) },
  { label: "32 KB", bytes: 32 * 1024, pairs: Number(process.env.FLOOR_PAIRS_32K ?? 9) },
];
const IMPORT_RUNS = Number(process.env.FLOOR_IMPORT_RUNS ?? 9);
const lib = (name) => fileURLToPath(new URL(`./lib/${name}`, import.meta.url));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fixed = (value, digits = 2) => value.toFixed(digits);

/** Starts a chat server child for one argument size; resolves with its base URL and the child. */
function startServer(bytes) {
  const child = fork(lib("chat-server.mjs"), [String(bytes), String(FRAGMENTS), String(TURNS)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (message) => resolve({ child, baseUrl: message.baseUrl }));
    child.once("exit", (code) => reject(new Error(`bench chat server (${bytes} B) exited early with code ${code}`)));
  });
}

/** One whole loop: CPU and wall ms per turn. */
async function timeOnce(run, options) {
  globalThis.gc?.();
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  await run(options);
  const cpu = process.cpuUsage(cpuStart);
  return { cpu: (cpu.user + cpu.system) / 1000 / TURNS, wall: (performance.now() - wallStart) / TURNS };
}

async function measureSize(size, baseUrl) {
  const options = { baseUrl, turns: TURNS, argumentBytes: size.bytes };
  // Warm up the JIT, the connection pools and Heddle's cached client on both sides.
  for (let i = 0; i < 2; i++) {
    await runFloor(options);
    await runHeddle(options);
  }
  const floor = [];
  const heddle = [];
  const ratios = [];
  for (let i = 0; i < size.pairs; i++) {
    let f;
    let h;
    if (i % 2 === 0) {
      f = await timeOnce(runFloor, options);
      h = await timeOnce(runHeddle, options);
    } else {
      h = await timeOnce(runHeddle, options);
      f = await timeOnce(runFloor, options);
    }
    floor.push(f);
    heddle.push(h);
    ratios.push(h.cpu / f.cpu);
  }
  const result = {
    ...size,
    floorCpu: median(floor.map((s) => s.cpu)),
    heddleCpu: median(heddle.map((s) => s.cpu)),
    floorWall: median(floor.map((s) => s.wall)),
    heddleWall: median(heddle.map((s) => s.wall)),
    ratio: median(ratios),
    spread: [Math.min(...ratios), Math.max(...ratios)],
  };
  console.log(
    `${size.label} arguments (${FRAGMENTS} fragments/turn, ${TURNS} turns, median of ${size.pairs} pairs): ` +
      `floor ${fixed(result.floorCpu)} ms CPU/turn (${fixed(result.floorWall)} wall), ` +
      `heddle ${fixed(result.heddleCpu)} ms CPU/turn (${fixed(result.heddleWall)} wall)`,
  );
  console.log(
    `  ratio heddle/floor = ${fixed(result.ratio, 3)} (pairs ${fixed(result.spread[0])}..${fixed(result.spread[1])}) ` +
      `(goal <= ${GOAL}) ${result.ratio <= GOAL ? "OK" : "OVER"}`,
  );
  return result;
}

/** Cold import + construct, each in a fresh process, the modes interleaved; medians of CPU and wall ms. */
function measureImports() {
  const modes = ["openai", "openai+client", "heddle", "heddle+client", "zod"];
  const samples = Object.fromEntries(modes.map((mode) => [mode, []]));
  for (let i = 0; i < IMPORT_RUNS; i++) {
    for (const mode of i % 2 === 0 ? modes : [...modes].reverse()) {
      const run = spawnSync(process.execPath, [lib("import-probe.mjs"), mode], { encoding: "utf8" });
      if (run.status !== 0) throw new Error(`import probe "${mode}" failed: ${run.stderr}`);
      samples[mode].push(JSON.parse(run.stdout));
    }
  }
  const out = {};
  for (const mode of modes) {
    out[mode] = { cpu: median(samples[mode].map((s) => s.cpuMs)), wall: median(samples[mode].map((s) => s.wallMs)) };
  }
  console.log(`import + construct, fresh process each (median of ${IMPORT_RUNS}):`);
  const describe = {
    openai: 'import("openai") alone',
    "openai+client": 'import("openai") + new OpenAI()',
    heddle: "@heddle/agents + @heddle/llms, createAgent + gateway model",
    "heddle+client": "that + the openai client its first request loads",
    zod: 'import("zod") alone (for scale: createTool users load it; @heddle/shared does not)',
  };
  for (const mode of modes) {
    console.log(
      `  ${describe[mode].padEnd(58)} ${fixed(out[mode].cpu, 1)} ms CPU, ${fixed(out[mode].wall, 1)} ms wall`,
    );
  }
  const ratio = out.heddle.cpu / out.openai.cpu;
  console.log(
    `  heddle / openai import (CPU) = ${fixed(ratio, 3)} (goal <= 1.00) ${ratio <= 1 ? "OK" : "OVER"}` +
      ` (wall ${fixed(out.heddle.wall / out.openai.wall, 3)})`,
  );
  return ratio;
}

/** Runs a child under `node --cpu-prof` and returns its profile's self-time summary. */
function profileChild(args, label) {
  const dir = mkdtempSync(join(tmpdir(), "heddle-bench-floor-prof-"));
  try {
    const run = spawnSync(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, ...args], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`profiling ${label} failed: ${run.stderr}`);
    const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
    return summarizeProfile(join(dir, file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const line = (ms, unit, f) => `    ${fixed(ms, 3)} ${unit}  ${f.owner}  ${f.name}`;

/** Where each client's self time goes at one size, and the top functions that are Heddle's own code. */
function profileLoops(baseUrl, bytes) {
  const runs = bytes > 8192 ? 3 : 6;
  console.log(`\nCPU profiles at ${bytes / 1024} KB, ${runs} loops each in a child (timings under the profiler):`);
  const perTurn = (ms) => ms / (runs * TURNS);
  const summaries = {};
  for (const which of ["floor", "heddle"]) {
    const args = [lib("profile-heddle.mjs"), which, baseUrl, String(TURNS), String(bytes), String(runs)];
    const summary = profileChild(args, which);
    console.log(`  ${which}: ${fixed(perTurn(summary.totalMs), 3)} ms self time/turn (incl. start-up), by owner:`);
    for (const { owner, ms } of summary.owners.slice(0, 6))
      console.log(`    ${fixed(perTurn(ms), 3)} ms/turn  ${owner}`);
    summaries[which] = summary;
  }
  const { floor, heddle } = summaries;
  // Heddle's own code is the part of the gap that is Heddle's to fix; the rest (client, runtime, GC) is shared.
  const own = heddle.owners.filter((o) => o.owner.startsWith("@heddle/")).reduce((sum, o) => sum + o.ms, 0);
  console.log(
    `  Heddle's own code: ${fixed(perTurn(own), 3)} ms/turn = ${fixed((100 * own) / floor.totalMs, 1)}% of the ` +
      `floor loop's profiled self time; whole heddle/floor under the profiler = ${fixed(heddle.totalMs / floor.totalMs, 3)}`,
  );
  console.log("  top self-time functions of Heddle's own code (heddle loop):");
  for (const f of heddle.functions.filter((entry) => entry.owner.startsWith("@heddle/")).slice(0, 10))
    console.log(line(perTurn(f.ms), "ms/turn", f));
  console.log("  top self-time functions overall (heddle loop):");
  for (const f of heddle.functions.slice(0, 8)) console.log(line(perTurn(f.ms), "ms/turn", f));
}

const servers = await Promise.all(SIZES.map((size) => startServer(size.bytes)));
try {
  const results = [];
  for (let i = 0; i < SIZES.length; i++) results.push(await measureSize(SIZES[i], servers[i].baseUrl));
  const [small, large] = results;
  const heddleGrowth = large.heddleCpu / small.heddleCpu;
  const floorGrowth = large.floorCpu / small.floorCpu;
  console.log(
    `linearity 32 KB / 2 KB per turn: floor x${fixed(floorGrowth)}, heddle x${fixed(heddleGrowth)} ` +
      `(heddle's growth / floor's = ${fixed(heddleGrowth / floorGrowth, 3)}; goal: the 32 KB ratio above <= ${GOAL})`,
  );
  const importRatio = measureImports();
  // Profile whatever missed its goal (everything when FLOOR_PROFILE=1), so a miss always comes with evidence.
  const always = process.env.FLOOR_PROFILE === "1";
  const never = process.env.FLOOR_PROFILE === "0";
  for (let i = 0; i < SIZES.length; i++) {
    if (!never && (always || results[i].ratio > GOAL)) profileLoops(servers[i].baseUrl, SIZES[i].bytes);
  }
  const ok = results.every((r) => r.ratio <= GOAL) && importRatio <= 1;
  console.log(ok ? "openai-floor bench: goals met" : "openai-floor bench: a goal was missed");
  process.exitCode = ok ? 0 : 1;
} finally {
  for (const { child } of servers) child.disconnect();
}
