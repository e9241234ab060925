// Session store throughput with several writers: 50 sessions, each process appending to the sessions it owns (all of
// them at once), from 1 process and from 4, on PostgresSessionStore (one database) and SqliteSessionStore (one
// file, WAL), the same workload in the same run. Prints messages/s per case and the PostgreSQL/SQLite ratio; exits
// non-zero when a case lost or duplicated a message. Imports the built packages (`pnpm bench` builds first).
// Knobs: SCALE_OUT_MESSAGES (per session, default 20), SCALE_OUT_ROUNDS (default 3), HEDDLE_TEST_POSTGRES_URL.
// Then a team across worker processes on Redis + PostgreSQL (bench/lib/scale-out-teams.mjs): message delivery and
// round trip, takeover after SIGKILL and handover after SIGTERM, each as a ratio to the raw Redis round trip of
// the same round. Knobs: SCALE_OUT_TEAM_ROUNDS (default 3), SCALE_OUT_TEAM_MESSAGES (default 30),
// HEDDLE_TEST_REDIS_URL; SCALE_OUT_PART=sessions or teams runs one half.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PostgresSessionStore, SqliteSessionStore } from "../packages/core/dist/index.js";
import { measureTeamRound } from "./lib/scale-out-teams.mjs";

const POSTGRES_URL = process.env.HEDDLE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.HEDDLE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PART = process.env.SCALE_OUT_PART ?? "both";
const TEAM_ROUNDS = Number(process.env.SCALE_OUT_TEAM_ROUNDS ?? 3);
const TEAM_MESSAGES = Number(process.env.SCALE_OUT_TEAM_MESSAGES ?? 30);
const SESSIONS = 50;
const PER_SESSION = Number(process.env.SCALE_OUT_MESSAGES ?? 20);
const ROUNDS = Number(process.env.SCALE_OUT_ROUNDS ?? 3);
const self = fileURLToPath(import.meta.url);
// pg is core's optional peer (a devDependency there): load it from core, as the store does.
const pg = createRequire(new URL("../packages/core/package.json", import.meta.url))("pg");

const message = (id, i) => ({
  id,
  role: i % 2 ? "assistant" : "user",
  content: [{ type: "text", text: `${id} ${"lorem ipsum dolor ".repeat(20)}` }],
  createdAt: Date.now(),
});

function openStore(target) {
  return target.kind === "postgres"
    ? new PostgresSessionStore({ connectionString: POSTGRES_URL, schema: target.schema })
    : new SqliteSessionStore({ path: target.path });
}

// ── child: append PER_SESSION messages to each owned session, all sessions at once; print the count and the end ──
if (process.argv[2] === "child") {
  const { target, sessions, startAt } = JSON.parse(process.argv[3]);
  const store = openStore(target);
  await store.getSession(sessions[0]); // connect and migrate before the common start
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  const startedAt = Date.now(); // later than startAt when this process was slow to start
  let acked = 0;
  await Promise.all(
    sessions.map(async (id) => {
      for (let i = 0; i < PER_SESSION; i++) {
        await store.appendMessage(id, message(`${id}-m${i}`, i));
        acked++;
      }
    }),
  );
  const endedAt = Date.now();
  await store.close();
  process.stdout.write(`${JSON.stringify({ acked, startedAt, endedAt })}\n`);
  process.exit(0);
}

function runChild(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [self, "child", JSON.stringify(args)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop())) : reject(new Error(`child exited ${code}`)),
    );
  });
}

async function measure(target, processes) {
  const store = openStore(target);
  const ids = Array.from({ length: SESSIONS }, (_, i) => `s${i}`);
  for (const id of ids) await store.createSession({ id });
  const startAt = Date.now() + 2000;
  const results = await Promise.all(
    Array.from({ length: processes }, (_, p) =>
      runChild({ target, sessions: ids.filter((_, i) => i % processes === p), startAt }),
    ),
  );
  const acked = results.reduce((sum, r) => sum + r.acked, 0);
  const seconds = (Math.max(...results.map((r) => r.endedAt)) - Math.min(...results.map((r) => r.startedAt))) / 1000;
  let stored = 0;
  for (const id of ids) stored += (await store.getHistory(id)).length;
  await store.close();
  return { acked, stored, perSecond: acked / seconds, seconds };
}

async function postgresReachable() {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    const settings = await client.query(
      "SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync, version() AS version",
    );
    await client.end();
    return settings.rows[0];
  } catch {
    return undefined;
  }
}

const settings = await postgresReachable();
if (!settings) {
  console.log(`scale-out: PostgreSQL is not reachable at ${POSTGRES_URL}: skipped`);
  process.exit(0);
}
console.log(
  `${SESSIONS} sessions × ${PER_SESSION} messages (~400 B each); ${settings.version.split(",")[0]}, fsync=${settings.fsync}, synchronous_commit=${settings.sync}; SQLite WAL, synchronous FULL (default)`,
);
const dir = mkdtempSync(join(tmpdir(), "heddle-bench-scale-out-"));
const admin = new pg.Client({ connectionString: POSTGRES_URL });
await admin.connect();
let ok = true;
const results = { 1: { postgres: [], sqlite: [] }, 4: { postgres: [], sqlite: [] } };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
try {
  for (let round = 0; round < (PART === "teams" ? 0 : ROUNDS); round++) {
    for (const processes of [1, 4]) {
      // The stores take turns at going first, so load drift on a shared machine hits both alike.
      const order = round % 2 ? ["sqlite", "postgres"] : ["postgres", "sqlite"];
      const got = {};
      for (const kind of order) {
        const schema = `heddle_bench_${process.pid}_${round}_${processes}`;
        const target = kind === "postgres" ? { kind, schema } : { kind, path: join(dir, `r${round}p${processes}.db`) };
        const r = await measure(target, processes);
        if (kind === "postgres") await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        if (r.stored !== r.acked || r.acked !== SESSIONS * PER_SESSION) {
          ok = false;
          console.log(
            `${kind}, ${processes} process(es): acknowledged ${r.acked}, stored ${r.stored}: LOST OR DUPLICATED`,
          );
        }
        got[kind] = r.perSecond;
        results[processes][kind].push(r.perSecond);
      }
      console.log(
        `round ${round + 1}, ${processes} process(es): PostgreSQL ${got.postgres.toFixed(0)} msg/s, SQLite ${got.sqlite.toFixed(0)} msg/s`,
      );
    }
  }
  for (const processes of PART === "teams" ? [] : [1, 4]) {
    const { postgres, sqlite } = results[processes];
    const ratios = postgres.map((value, i) => value / sqlite[i]);
    console.log(
      `median, ${processes} process(es): PostgreSQL ${median(postgres).toFixed(0)} msg/s, SQLite ${median(sqlite).toFixed(0)} msg/s, ` +
        `PostgreSQL/SQLite ${median(ratios).toFixed(2)} (per-round ratios ${ratios.map((r) => r.toFixed(2)).join(", ")})`,
    );
  }
  if (PART !== "sessions") await teams();
} finally {
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);

async function teams() {
  const redis = createRequire(new URL("../packages/core/package.json", import.meta.url))("ioredis");
  const probe = new redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  const reachable = await probe.connect().then(
    () => true,
    () => false,
  );
  probe.disconnect();
  if (!reachable) {
    console.log(`teams: Redis is not reachable at ${REDIS_URL}: skipped`);
    return;
  }
  const schema = `heddle_bench_teams_${process.pid}`;
  const keyPrefix = `heddle_bench_${process.pid}`;
  const base = { postgresUrl: POSTGRES_URL, schema, redisUrl: REDIS_URL, keyPrefix };
  console.log(
    `teams: a lead and worker processes on Redis Streams + PostgreSQL, instant models, ${TEAM_MESSAGES} messages per round, leaseMs 2000`,
  );
  const rounds = [];
  try {
    for (let round = 0; round < TEAM_ROUNDS; round++) {
      const r = await measureTeamRound(base, { messages: TEAM_MESSAGES, leaseMs: 2_000 });
      rounds.push(r);
      console.log(
        `round ${round + 1}: Redis round trip ${r.rtt.toFixed(3)} ms; delivery ${r.delivery.toFixed(1)} ms (${(r.delivery / r.rtt).toFixed(0)}×), ` +
          `round trip ${r.roundTrip.toFixed(1)} ms (${(r.roundTrip / r.rtt).toFixed(0)}×), takeover ${r.takeover} ms ` +
          `(${(r.takeover / r.rtt).toFixed(0)}×; ${r.takeover - r.leaseMs} ms past leaseMs), handover ${r.handover} ms (${(r.handover / r.rtt).toFixed(0)}×)`,
      );
    }
    const m = (key) => median(rounds.map((r) => r[key]));
    const ratio = (key) => median(rounds.map((r) => r[key] / r.rtt));
    console.log(
      `median: Redis round trip ${m("rtt").toFixed(3)} ms; delivery ${m("delivery").toFixed(1)} ms = ${ratio("delivery").toFixed(0)}× the round trip; ` +
        `send → report ${m("roundTrip").toFixed(1)} ms = ${ratio("roundTrip").toFixed(0)}×; takeover after SIGKILL ${m("takeover")} ms = ` +
        `${ratio("takeover").toFixed(0)}× (leaseMs 2000); handover after SIGTERM ${m("handover")} ms = ${ratio("handover").toFixed(0)}×`,
    );
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    const cleaner = new redis(REDIS_URL);
    const keys = await cleaner.keys(`${keyPrefix}:*`);
    if (keys.length > 0) await cleaner.del(...keys);
    await cleaner.quit();
  }
}
