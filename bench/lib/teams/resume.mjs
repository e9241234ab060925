// Resuming a 10,000-message session (bench/teams.bench.mjs, scenario "resume"), on SQLite and on PostgreSQL,
// against the raw driver reading the same rows. Heddle: a new store, `openSession` (it reads the session and its
// whole history once, to give a crash's unfinished tool calls their results), then close. Raw: a new connection
// (better-sqlite3 `new Database`, pg `new Client` + `connect`), `SELECT data FROM messages WHERE session_id = ?
// ORDER BY seq`, `JSON.parse` of each row, then close. Also reported: Heddle's `openSession` + `history()` (what a
// host that shows the conversation does: a second read). CPU of this process and wall time, adjacent pairs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openSession, PostgresSessionStore, SqliteSessionStore } from "../../../packages/core/dist/index.js";
import { cpuMs, instantModel, median, POSTGRES_URL, requireFromCore, seedMessage } from "./common.mjs";

const ID = "resume-me";

async function timed(fn) {
  globalThis.gc?.();
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const count = await fn();
  return { cpu: cpuMs(process.cpuUsage(cpu)), wall: performance.now() - wall, count };
}

async function compare(sides, pairs, expected) {
  const names = Object.keys(sides);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let p = -1; p < pairs; p++) {
    const order = p % 2 ? [...names].reverse() : names;
    const got = {};
    for (const name of order) {
      got[name] = await timed(sides[name]);
      if (got[name].count !== undefined && got[name].count !== expected)
        throw new Error(`${name} read ${got[name].count} messages, not ${expected}`);
    }
    if (p >= 0) for (const name of names) samples[name].push(got[name]);
  }
  const out = { pairs };
  for (const name of names) {
    out[name] = { cpuMs: median(samples[name].map((s) => s.cpu)), wallMs: median(samples[name].map((s) => s.wall)) };
    if (name === "raw") continue;
    out[name].cpuRatios = samples[name].map((s, i) => s.cpu / samples.raw[i].cpu);
    out[name].wallRatios = samples[name].map((s, i) => s.wall / samples.raw[i].wall);
  }
  return out;
}

const heddleSides = (openStore, close) => ({
  heddle: async () => {
    const store = openStore();
    const session = await openSession({ store, model: instantModel(), id: ID, compaction: false });
    await session.close();
    await close(store);
    return undefined; // openSession read the history but does not return it: not counted here
  },
  heddleWithHistory: async () => {
    const store = openStore();
    const session = await openSession({ store, model: instantModel(), id: ID, compaction: false });
    const count = (await session.history()).length;
    await session.close();
    await close(store);
    return count;
  },
});

export async function measureSqliteResume({ messages, pairs }) {
  const dir = mkdtempSync(join(tmpdir(), "heddle-bench-teams-resume-"));
  const path = join(dir, "sessions.db");
  try {
    const seeder = new SqliteSessionStore({ path, synchronous: "NORMAL" });
    await seeder.createSession({ id: ID });
    for (let i = 0; i < messages; i++) await seeder.appendMessage(ID, seedMessage(i));
    await seeder.close();
    const Database = requireFromCore("better-sqlite3");
    const raw = () => {
      const db = new Database(path);
      const rows = db.prepare("SELECT data FROM messages WHERE session_id = ? ORDER BY seq").all(ID);
      const parsed = rows.map((row) => JSON.parse(row.data));
      db.close();
      return parsed.length;
    };
    return await compare(
      {
        raw,
        ...heddleSides(
          () => new SqliteSessionStore({ path }),
          (store) => store.close(),
        ),
      },
      pairs,
      messages,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function postgresReachable() {
  const pg = requireFromCore("pg");
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export async function measurePostgresResume({ messages, pairs }) {
  const pg = requireFromCore("pg");
  const schema = `heddle_bench_resume_${process.pid}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    // The store makes its schema and the session; the rows go in with multi-row INSERTs (10,000 appends one by one
    // would take most of a minute), in the store's own format: the message as JSON, each the parent of the next.
    const seeder = new PostgresSessionStore({ connectionString: POSTGRES_URL, schema });
    await seeder.createSession({ id: ID });
    await seeder.close();
    for (let start = 0; start < messages; start += 1000) {
      const values = [];
      const params = [];
      for (let i = start; i < Math.min(messages, start + 1000); i++) {
        const m = seedMessage(i);
        const at = params.length;
        values.push(`($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6})`);
        params.push(ID, m.id, i === 0 ? null : seedMessage(i - 1).id, m.role, m.createdAt, JSON.stringify(m));
      }
      await admin.query(
        `INSERT INTO "${schema}".messages (session_id, id, parent_id, role, created_at, data) VALUES ${values.join(", ")}`,
        params,
      );
    }
    await admin.query(`UPDATE "${schema}".sessions SET head_message_id = $2 WHERE id = $1`, [
      ID,
      seedMessage(messages - 1).id,
    ]);
    const raw = async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      const result = await client.query(`SELECT data FROM "${schema}".messages WHERE session_id = $1 ORDER BY seq`, [
        ID,
      ]);
      const parsed = result.rows.map((row) => JSON.parse(row.data));
      await client.end();
      return parsed.length;
    };
    return await compare(
      {
        raw,
        ...heddleSides(
          () => new PostgresSessionStore({ connectionString: POSTGRES_URL, schema }),
          (store) => store.close(),
        ),
      },
      pairs,
      messages,
    );
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}
