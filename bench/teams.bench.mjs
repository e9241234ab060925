// The multi-agent half (issue 32): what teams, mailboxes and stored sessions cost over a baseline measured in the
// same run. Four scenarios, each printing its ratios and writing bench/results/teams-<scenario>.json:
// - turn: a teammate's turn (mailbox message, stored turn, notification) / the same turn on a bare AgentRuntime
//   with its history in memory, CPU, at 10, 1,000 and 10,000 stored messages. Goal <= 1.25.
// - mailbox: send, wait (a message there) and mark-read on SqliteTeamMailbox and RedisTeamMailbox / better-sqlite3
//   and ioredis running the same statements and commands, CPU. Goal <= 1.5.
// - idle: 1,000 idle teammates in one process: RSS per teammate (goal <= 64 KB) and the active handles and timers
//   at 10 and at 1,010 teammates (goal: none that grow with the teammates).
// - resume: opening a 10,000-message session on SQLite and PostgreSQL / the raw driver reading the same rows.
//   Goal <= 1.5.
// `--only=turn,mailbox,idle,resume` picks scenarios; `--quick` runs few, short samples (proves the harness) and
// writes teams-<scenario>.quick.json instead.
// Imports the built packages (`pnpm bench teams` builds first). PostgreSQL (HEDDLE_TEST_POSTGRES_URL) and Redis
// (HEDDLE_TEST_REDIS_URL) parts print one line and are skipped when the server is not reachable.
import { fmt, median, spread, writeResults } from "./lib/teams/common.mjs";
import { measureIdle } from "./lib/teams/idle.mjs";
import { measureRedisMailbox, measureSqliteMailbox, redisReachable } from "./lib/teams/mailbox.mjs";
import { measurePostgresResume, measureSqliteResume, postgresReachable } from "./lib/teams/resume.mjs";
import { measureTurns } from "./lib/teams/turn.mjs";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const only = args
  .find((arg) => arg.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const wants = (name) => !only || only.includes(name);
const knob = (name, fallback) => Number(process.env[name] ?? fallback);
let ok = true;
const verdict = (value, goal) => {
  const met = value <= goal;
  ok &&= met;
  return met ? "OK" : "OVER";
};

if (wants("turn")) {
  const pairs = knob("TEAMS_TURN_PAIRS", quick ? 3 : 11);
  const sizes = quick ? [10, 1_000] : [10, 1_000, 10_000];
  const turnsFor = (size) => (quick ? 2 : size >= 10_000 ? 4 : 10);
  console.log(
    `turn: a teammate's turn (SQLite mailbox + session store on one file, synchronous FULL; and all in memory) / ` +
      `a bare AgentRuntime's turn with its history in memory; CPU, median of ${pairs} pairs`,
  );
  const rows = await measureTurns({
    sizes,
    pairs,
    turnsFor,
    kinds: ["sqlite", "memory"],
    log: (row) =>
      console.log(
        `  ${String(row.storedMessages).padStart(6)} stored messages: baseline ${fmt(row.baselineMsPerTurn, 3)} ms CPU/turn; ` +
          `teammate on SQLite ${fmt(row.sqlite.msPerTurn, 3)} ms, ratio ${spread(row.sqlite.ratios)} ` +
          `(goal <= 1.25) ${verdict(median(row.sqlite.ratios), 1.25)}; in memory ${fmt(row.memory.msPerTurn, 3)} ms, ` +
          `ratio ${spread(row.memory.ratios)}`,
      ),
  });
  console.log(`  results: ${writeResults(`teams-turn${quick ? ".quick" : ""}`, { goal: 1.25, rows })}`);
}

if (wants("mailbox")) {
  const rounds = knob("TEAMS_MAILBOX_ROUNDS", quick ? 3 : 11);
  const agents = knob("TEAMS_MAILBOX_AGENTS", quick ? 50 : 200);
  console.log(
    `mailbox: send, wait (a message there) and mark-read / the raw client running the same statements or commands; ` +
      `CPU µs per op, ${agents} inboxes a round, median of ${rounds} rounds`,
  );
  const results = {};
  const print = (store, result) => {
    for (const [op, r] of Object.entries(result).filter(([, r]) => r.ratios)) {
      console.log(
        `  ${store} ${op.padEnd(12)}: raw ${fmt(r.rawUsPerOp, 1)} µs, Heddle ${fmt(r.heddleUsPerOp, 1)} µs, ` +
          `ratio ${spread(r.ratios)} (goal <= 1.5) ${verdict(median(r.ratios), 1.5)}` +
          (r.heddleConnectionsPerWait === undefined
            ? ""
            : `; connections opened per wait: Heddle ${fmt(r.heddleConnectionsPerWait)}, raw ${fmt(r.rawConnectionsPerWait)}`),
      );
    }
  };
  results.sqlite = await measureSqliteMailbox({ rounds, agents });
  print("SQLite", results.sqlite);
  if (await redisReachable()) {
    results.redis = await measureRedisMailbox({ rounds, agents });
    print("Redis ", results.redis);
  } else console.log("  Redis is not reachable: skipped");
  console.log(
    `  results: ${writeResults(`teams-mailbox${quick ? ".quick" : ""}`, { goal: 1.5, agents, rounds, ...results })}`,
  );
}

if (wants("idle")) {
  const rounds = knob("TEAMS_IDLE_ROUNDS", quick ? 1 : 3);
  const kinds = ["memory", "sqlite"];
  if (await redisReachable()) kinds.push("redis");
  else console.log("  Redis is not reachable: its idle teammates are skipped");
  console.log(
    `idle: 10 and 1,010 idle teammates (each after one short turn), fresh processes, ${rounds} round(s) per kind; ` +
      "RSS per teammate = (RSS at 1,010 - RSS at 10) / 1,000, median of the rounds",
  );
  const result = measureIdle({ kinds, rounds });
  for (const [kind, r] of Object.entries(result)) {
    const kb = r.rssPerTeammateBytes / 1024;
    const list = (byType) =>
      Object.entries(byType)
        .map(([type, n]) => `${type} ${n}`)
        .join(", ") || "none";
    const timersGrow = r.timersAt[1010] > r.timersAt[10];
    ok &&= !timersGrow;
    console.log(
      `  ${kind.padEnd(6)}: RSS ${fmt(kb, 1)} KB per teammate (goal <= 64) ${verdict(kb, 64)}, heap ${fmt(r.heapUsedPerTeammateBytes / 1024, 1)} KB; ` +
        `active resources at 10: ${list(r.resourcesAt[10])}; at 1,010: ${list(r.resourcesAt[1010])} ` +
        `(timers ${timersGrow ? "GROW" : "do not grow"}); idle CPU ${fmt(r.idleCpuMsPerSecondAt[10], 1)} / ${fmt(r.idleCpuMsPerSecondAt[1010], 1)} ms per s`,
    );
  }
  console.log(
    `  results: ${writeResults(`teams-idle${quick ? ".quick" : ""}`, { goalKbPerTeammate: 64, rounds, ...result })}`,
  );
}

if (wants("resume")) {
  const pairs = knob("TEAMS_RESUME_PAIRS", quick ? 3 : 11);
  const messages = knob("TEAMS_RESUME_MESSAGES", quick ? 1_000 : 10_000);
  console.log(
    `resume: openSession on a ${messages}-message session (a new store) / the raw driver reading the same rows ` +
      `(a new connection, SELECT data ... ORDER BY seq, JSON.parse); median of ${pairs} pairs`,
  );
  const results = {};
  const print = (name, r) =>
    console.log(
      `  ${name.padEnd(10)}: raw ${fmt(r.raw.wallMs, 1)} ms wall, ${fmt(r.raw.cpuMs, 1)} ms CPU; openSession ` +
        `${fmt(r.heddle.wallMs, 1)} ms wall, ratio ${spread(r.heddle.wallRatios)} (goal <= 1.5) ${verdict(median(r.heddle.wallRatios), 1.5)}, ` +
        `CPU ratio ${spread(r.heddle.cpuRatios)}; openSession + history(): wall ratio ${spread(r.heddleWithHistory.wallRatios)}, ` +
        `CPU ratio ${spread(r.heddleWithHistory.cpuRatios)}`,
    );
  results.sqlite = await measureSqliteResume({ messages, pairs });
  print("SQLite", results.sqlite);
  if (await postgresReachable()) {
    results.postgres = await measurePostgresResume({ messages, pairs });
    print("PostgreSQL", results.postgres);
  } else console.log("  PostgreSQL is not reachable: skipped");
  console.log(
    `  results: ${writeResults(`teams-resume${quick ? ".quick" : ""}`, { goal: 1.5, messages, ...results })}`,
  );
}

console.log(ok ? "teams bench: goals met" : "teams bench: a goal was missed");
process.exitCode = ok ? 0 : 1;
