// The CLI's start (issue 32): how long `heddle-code --help`, `--version` and the first prompt take, against
// Claude Code's native binary and pi's coding agent (goal: heddle-code at most 1.0x Claude Code's binary).
//
// The peers are installed here, at bench time, with npm into bench/peers-cli/ (its package.json pins them; it is
// no workspace package and CI never installs it). Claude Code's npm package brings its native binary as a platform
// package among its optionalDependencies (@anthropic-ai/claude-code-linux-x64, ...), which this runs directly. A
// peer that cannot be installed or started is skipped with the reason printed.
//
// Every command runs as a whole process, in rounds: each round runs every command once, in an order that rotates
// from round to round, so a ratio heddle/peer is taken pair by pair within a round and its median quoted. Wall time
// is measured from here; CPU time (user + sys of the process and its children) by bash's `times`. Also timed: an
// empty Node script, the floor under any Node CLI's start.
//
// The first prompt: heddle-code in a fresh empty folder with a model key set (no request is made), stdin a pipe,
// until `› ` is printed; then stdin closes and it exits (its CPU time includes that exit). The peers' first screens
// need a terminal and a sign-in, so they are not timed: Claude Code's `--help` (its whole app loaded) stands in.
//
// Usage: pnpm bench cli-start [--rounds=N] [--quick] [--no-install]; writes bench/results/cli-start.json.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { arch, cpus, platform, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const flag = (name) => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const quick = args.includes("--quick");
const ROUNDS = Number(flag("rounds") ?? (quick ? 3 : 15));
const WARMUP = quick ? 1 : 2;

const here = fileURLToPath(new URL(".", import.meta.url));
const peersDir = join(here, "peers-cli");
const heddleCli = join(here, "../examples/coding-agent/dist/cli.js");
const scratch = mkdtempSync(join(tmpdir(), "heddle-bench-cli-start-"));
const home = join(scratch, "home");
mkdirSync(home);
// The same clean environment for every command: a home of its own, no colors, and no update checks or other
// traffic from the peers (this machine may have no network).
const env = {
  PATH: process.env.PATH ?? "",
  HOME: home,
  XDG_DATA_HOME: join(home, ".local/share"),
  XDG_CONFIG_HOME: join(home, ".config"),
  NO_COLOR: "1",
  TERM: "dumb",
  DISABLE_AUTOUPDATER: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  PI_SKIP_VERSION_CHECK: "1",
};
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const summary = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });

/** Installs the pinned peers with npm unless they are there already; returns why not, or undefined. */
function installPeers() {
  const pinned = JSON.parse(readFileSync(join(peersDir, "package.json"), "utf8")).dependencies;
  const installed = (name) => {
    const file = join(peersDir, "node_modules", name, "package.json");
    return existsSync(file) && JSON.parse(readFileSync(file, "utf8")).version === pinned[name];
  };
  if (Object.keys(pinned).every(installed)) return undefined;
  if (args.includes("--no-install")) return "not installed (--no-install)";
  console.log(
    `installing ${Object.entries(pinned)
      .map(([n, v]) => `${n}@${v}`)
      .join(", ")} into bench/peers-cli ...`,
  );
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const run = spawnSync(npm, ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"], {
    cwd: peersDir,
    encoding: "utf8",
    timeout: 900_000,
  });
  if (run.error) return `npm could not run: ${run.error.message}`;
  if (run.status !== 0)
    return `npm install failed (exit ${run.status}): ${(run.stderr || run.stdout).trim().slice(-600)}`;
  return undefined;
}

/** Claude Code's native binary: from its platform package (the postinstall only copies it to bin/claude.exe). */
function claudeBinary() {
  const names = [`${platform()}-${arch()}`, `${platform()}-${arch()}-musl`];
  for (const name of names) {
    const file = join(peersDir, "node_modules/@anthropic-ai", `claude-code-${name}`, "claude");
    if (existsSync(file)) return file;
  }
  const copied = join(peersDir, "node_modules/@anthropic-ai/claude-code/bin/claude.exe");
  // Before the postinstall ran, bin/claude.exe is a small stub that prints how to install; the binary is ~400 MB.
  if (existsSync(copied) && readFileSync(copied).length > 10_000_000) return copied;
  return undefined;
}

/** The commands to time, each `[file, ...args]` for a given mode; peers that cannot start are dropped. */
function commands() {
  const node = process.execPath;
  const floorScript = join(scratch, "empty.mjs");
  writeFileSync(floorScript, "");
  const list = [
    { id: "heddle", name: "heddle-code", argv: (mode) => [node, heddleCli, `--${mode}`] },
    { id: "node-floor", name: "node (an empty script)", argv: () => [node, floorScript] },
  ];
  const why = installPeers();
  if (why) {
    console.log(`peers skipped: ${why}`);
    return list;
  }
  const claude = claudeBinary();
  if (claude) list.push({ id: "claude", name: "Claude Code (native binary)", argv: (mode) => [claude, `--${mode}`] });
  else console.log(`Claude Code skipped: no native binary for ${platform()}-${arch()} under bench/peers-cli`);
  const pi = join(peersDir, "node_modules/@mariozechner/pi-coding-agent/dist/cli.js");
  if (existsSync(pi)) list.push({ id: "pi", name: "pi (coding agent)", argv: (mode) => [node, pi, `--${mode}`] });
  else console.log("pi skipped: its dist/cli.js is missing under bench/peers-cli");
  // A peer that does not answer --version is dropped here, with what it said.
  return list.filter((command) => {
    const [file, ...rest] = command.argv("version");
    const run = spawnSync(file, rest, { env, cwd: home, encoding: "utf8", timeout: 60_000 });
    if (run.status === 0) {
      command.version = run.stdout.trim();
      return true;
    }
    console.log(`${command.name} skipped: --version exited ${run.status}: ${(run.stderr || run.stdout).trim()}`);
    return false;
  });
}

/**
 * Runs one command as a whole process under bash, which reports the CPU time of its children (`times`). With
 * `untilPrompt`, stdin is a pipe and the wall time is taken when `› ` appears on stdout; stdin is then closed.
 */
function timeOnce(argv, { cwd = home, untilPrompt = false, extraEnv = {} } = {}) {
  return new Promise((resolve, reject) => {
    const script = '"$@" 2>/dev/null; status=$?; times >&2; exit $status';
    const child = spawn("bash", ["-c", script, "bash", ...argv], {
      cwd,
      env: { ...env, ...extraEnv },
      stdio: [untilPrompt ? "pipe" : "ignore", "pipe", "pipe"],
    });
    const start = performance.now();
    let wall;
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      if (untilPrompt && wall === undefined && stdout.includes("› ")) {
        wall = performance.now() - start;
        child.stdin.end();
      }
    });
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      const end = performance.now() - start;
      const lines = stderr.trim().split("\n");
      const [user, sys] = (lines.at(-1) ?? "").split(" ").map((t) => {
        const m = /^(\d+)m([\d.]+)s$/.exec(t);
        return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
      });
      if (status !== 0 || Number.isNaN(user) || (untilPrompt && wall === undefined))
        return reject(new Error(`${argv.join(" ")} exited ${status}: ${stdout.slice(-300)} ${stderr.slice(-300)}`));
      resolve({ wall: (wall ?? end) / 1000, cpu: user + sys });
    });
  });
}

/** Times `list` in rounds, rotating the order; returns each command's figures and heddle's ratio to each peer. */
async function measure(mode, list, options = () => ({})) {
  const runs = Object.fromEntries(list.map((c) => [c.id, []]));
  for (let round = -WARMUP; round < ROUNDS; round++) {
    const order = list.map((_, i) => list[(i + Math.max(round, 0)) % list.length]);
    for (const command of order) {
      const figures = await timeOnce(command.argv(mode), options(command));
      if (round >= 0) runs[command.id].push(figures);
    }
  }
  const result = { commands: {}, ratios: {} };
  for (const command of list) {
    const r = runs[command.id];
    result.commands[command.id] = {
      name: command.name,
      argv: command.argv(mode).slice(1).join(" "),
      wall_s: summary(r.map((x) => x.wall)),
      cpu_s: summary(r.map((x) => x.cpu)),
    };
  }
  for (const peer of list.filter((c) => c.id !== "heddle")) {
    const pair = (key) => summary(runs.heddle.map((h, i) => h[key] / runs[peer.id][i][key]));
    result.ratios[`heddle/${peer.id}`] = { wall: pair("wall"), cpu: pair("cpu") };
  }
  return result;
}

function print(title, result) {
  console.log(`\n${title} (medians of ${ROUNDS} rounds; min-max)`);
  const f = (s) => `${s.median.toFixed(3)} (${s.min.toFixed(3)}-${s.max.toFixed(3)})`;
  for (const [id, c] of Object.entries(result.commands))
    console.log(`  ${id.padEnd(11)} wall ${f(c.wall_s)} s   cpu ${f(c.cpu_s)} s`);
  for (const [pair, r] of Object.entries(result.ratios))
    console.log(`  ${pair.padEnd(18)} wall ${f(r.wall)}   cpu ${f(r.cpu)}`);
}

if (!existsSync(heddleCli)) {
  console.log(`cli-start: build first (pnpm build): ${heddleCli} is missing`);
  process.exit(1);
}
const list = commands();
const report = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: `${cpus().length} x ${cpus()[0]?.model ?? "?"}`,
  rounds: ROUNDS,
  versions: Object.fromEntries(list.map((c) => [c.id, c.version ?? process.version])),
  modes: {},
};
for (const mode of ["help", "version"]) {
  report.modes[mode] = await measure(mode, list);
  print(`--${mode}`, report.modes[mode]);
}
// The first prompt: heddle-code, each run in a new empty folder. Claude Code's first screen needs a terminal and a
// sign-in, so its `--help` stands beside it (it loads Claude Code's whole app: a lower bound on its first screen).
let folders = 0;
const prompt = [
  { ...list.find((c) => c.id === "heddle"), argv: () => [process.execPath, heddleCli] },
  ...list.filter((c) => c.id === "claude").map((c) => ({ ...c, id: "claude", argv: () => c.argv("help") })),
  list.find((c) => c.id === "node-floor"),
];
report.modes["first-prompt"] = await measure("first-prompt", prompt, (command) => {
  if (command.id !== "heddle") return {};
  const cwd = join(scratch, `fresh-${folders++}`);
  mkdirSync(cwd);
  return { cwd, untilPrompt: true, extraEnv: { ANTHROPIC_API_KEY: "bench-key-never-sent" } };
});
print("first prompt (heddle-code in a fresh folder, to `› `; claude: its --help)", report.modes["first-prompt"]);

// The goal: heddle-code at most 1.0x Claude Code's binary (wall, median of the pairs). Judged only when Claude Code
// ran; the exit code says whether every part was met.
const judged = [
  ["--help", report.modes.help.ratios["heddle/claude"]],
  ["--version", report.modes.version.ratios["heddle/claude"]],
  ["first prompt (vs its --help)", report.modes["first-prompt"].ratios["heddle/claude"]],
].filter(([, ratio]) => ratio);
report.goal = Object.fromEntries(judged.map(([name, r]) => [name, { wall: r.wall.median, met: r.wall.median <= 1 }]));
if (judged.length) {
  const parts = judged.map(
    ([name, r]) => `${name} ${r.wall.median.toFixed(2)}x ${r.wall.median <= 1 ? "met" : "NOT met"}`,
  );
  console.log(`\ngoal (heddle-code at most 1.0x Claude Code's native binary, wall): ${parts.join("; ")}`);
} else console.log("\ngoal not judged: Claude Code did not run here");
mkdirSync(join(here, "results"), { recursive: true });
writeFileSync(join(here, "results/cli-start.json"), `${JSON.stringify(report, null, 2)}\n`);
console.log("wrote bench/results/cli-start.json");
rmSync(scratch, { recursive: true, force: true });
process.exitCode = Object.values(report.goal).every((part) => part.met) ? 0 : 1;
