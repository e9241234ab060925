// Mailbox send, wait and mark-read (bench/teams.bench.mjs, scenario "mailbox") against the raw client running the
// same statements (better-sqlite3) or commands (ioredis). Each round: `agents` fresh inboxes; a send to each, then a
// wait on each (a message is there, so it returns at once: on Redis that is the mailbox's peek, four commands, and
// leaves the message pending for this reader), then a mark-read of each. Each phase is timed (CPU of this process)
// on both sides, the sides taking turns at going first; the ratio is the median of the per-round ratios.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { RedisTeamMailbox, SqliteTeamMailbox } from "../../../packages/core/dist/index.js";
import { cpuMs, median, REDIS_URL, requireFromCore } from "./common.mjs";

const PHASES = ["send", "wait", "markRead"];
const TEXT = `please look at ${"the failing test in packages/core ".repeat(4)}`;

async function phase(ops) {
  globalThis.gc?.();
  const start = process.cpuUsage();
  for (const op of ops) await op();
  return (cpuMs(process.cpuUsage(start)) * 1000) / ops.length; // µs per op
}

/** One side's round: the three phases over `agents` inboxes; µs CPU per op of each phase. */
async function round(side, agents, waitRepeats) {
  const ids = [];
  const out = {};
  out.send = await phase(agents.map((agent, i) => async () => ids.push(await side.send(agent, i))));
  // A wait that finds a message leaves it there, so on SQLite the phase repeats to be long enough to time.
  const waits = Array.from({ length: waitRepeats }, () => agents).flat();
  out.wait = await phase(waits.map((agent) => () => side.wait(agent)));
  out.markRead = await phase(agents.map((agent, i) => () => side.markRead(agent, ids[i])));
  await side.check?.(agents, ids);
  return out;
}

async function compare({ heddle, raw, rounds, agents, prepare, waitRepeats = 1 }) {
  const samples = { heddle: [], raw: [] };
  const ratios = Object.fromEntries(PHASES.map((p) => [p, []]));
  for (let r = -2; r < rounds; r++) {
    // Rounds -2 and -1 warm up; each side gets its own inboxes.
    const names = (side) => Array.from({ length: agents }, (_, i) => `${side}-r${r + 2}-a${i}`);
    const h = names("h");
    const w = names("w");
    await prepare?.(h, w);
    let a;
    let b;
    if (r % 2) {
      b = await round(raw, w, waitRepeats);
      a = await round(heddle, h, waitRepeats);
    } else {
      a = await round(heddle, h, waitRepeats);
      b = await round(raw, w, waitRepeats);
    }
    if (r < 0) continue;
    samples.heddle.push(a);
    samples.raw.push(b);
    for (const p of PHASES) ratios[p].push(a[p] / b[p]);
  }
  return Object.fromEntries(
    PHASES.map((p) => [
      p,
      {
        heddleUsPerOp: median(samples.heddle.map((s) => s[p])),
        rawUsPerOp: median(samples.raw.map((s) => s[p])),
        ratios: ratios[p],
      },
    ]),
  );
}

export async function measureSqliteMailbox({ rounds, agents }) {
  const dir = mkdtempSync(join(tmpdir(), "heddle-bench-teams-mailbox-"));
  try {
    const mailbox = new SqliteTeamMailbox({ path: join(dir, "heddle.db") });
    // The raw side's file gets the same schema from a mailbox that is closed again.
    const rawPath = join(dir, "raw.db");
    await new SqliteTeamMailbox({ path: rawPath }).close();
    const Database = requireFromCore("better-sqlite3");
    const db = new Database(rawPath);
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    const insert = db.prepare(
      `INSERT INTO team_messages (id, team_id, from_agent, to_agent, kind, text, created_at)
       VALUES (@id, @team_id, @from_agent, @to_agent, @kind, @text, @created_at)`,
    );
    const hasUnread = db.prepare("SELECT 1 FROM team_messages WHERE to_agent = ? AND read_at IS NULL LIMIT 1");
    const markReadById = db.prepare(
      "UPDATE team_messages SET read_at = ? WHERE id = ? AND to_agent = ? AND read_at IS NULL",
    );
    const heddle = {
      send: async (to, i) => (await mailbox.send({ to, from: "lead", text: `${TEXT}${i}` })).id,
      wait: (agent) => mailbox.wait(agent),
      markRead: async (agent, id) => {
        if (!(await mailbox.markRead(agent, id))) throw new Error("heddle: markRead found no unread message");
      },
    };
    const raw = {
      send: (to, i) => {
        const id = `msg_${randomUUID()}`;
        insert.run({
          id,
          team_id: null,
          from_agent: "lead",
          to_agent: to,
          kind: "user",
          text: `${TEXT}${i}`,
          created_at: Date.now(),
        });
        return id;
      },
      wait: (agent) => {
        if (!hasUnread.get(agent)) throw new Error("raw: no unread message");
      },
      markRead: (agent, id) => {
        if (markReadById.run(Date.now(), id, agent).changes !== 1) throw new Error("raw: markRead changed no row");
      },
    };
    const result = await compare({ heddle, raw, rounds, agents, waitRepeats: 10 });
    await mailbox.close();
    db.close();
    return {
      statements: {
        send: "INSERT",
        wait: "SELECT 1 ... LIMIT 1",
        markRead: "UPDATE ... WHERE id AND to_agent AND read_at IS NULL",
      },
      synchronous: "FULL",
      ...result,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function redisReachable() {
  const Redis = requireFromCore("ioredis");
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  const reachable = await probe.connect().then(
    () => true,
    () => false,
  );
  probe.disconnect();
  return reachable;
}

export async function measureRedisMailbox({ rounds, agents }) {
  const Redis = requireFromCore("ioredis");
  const keyPrefix = `heddle_bench_mailbox_${process.pid}`;
  const teamId = "bench";
  const GROUP = "heddle";
  const consumer = `bench:${process.pid}:raw`;
  const inbox = (agent) => `${keyPrefix}:team:${teamId}:inbox:${agent}`;
  const mailbox = new RedisTeamMailbox({ url: REDIS_URL, teamId, keyPrefix });
  const redis = new Redis(REDIS_URL);
  try {
    const heddle = {
      send: async (to, i) => (await mailbox.send({ to, from: "lead", text: `${TEXT}${i}` })).id,
      wait: (agent) => mailbox.wait(agent),
      markRead: async (agent, id) => {
        if (!(await mailbox.markRead(agent, id))) throw new Error("heddle: markRead found no unread message");
      },
    };
    // The mailbox's commands, in its order: send is one XADD; wait with a message there is its peek (own pending,
    // then a claim, then a new one, then the read marker); mark-read checks the entry, sets the marker, acknowledges.
    const raw = {
      send: (to, i) =>
        redis.xadd(
          inbox(to),
          "*",
          "from",
          "lead",
          "to",
          to,
          "kind",
          "user",
          "text",
          `${TEXT}${i}`,
          "createdAt",
          Date.now(),
        ),
      wait: async (agent) => {
        const key = inbox(agent);
        const own = await redis.xreadgroup("GROUP", GROUP, consumer, "COUNT", 1, "STREAMS", key, "0");
        if (own?.[0]?.[1]?.length) throw new Error("raw: a message was already pending");
        await redis.xautoclaim(key, GROUP, consumer, 30_000, "0-0", "COUNT", 1);
        const next = await redis.xreadgroup("GROUP", GROUP, consumer, "COUNT", 1, "STREAMS", key, ">");
        const id = next?.[0]?.[1]?.[0]?.[0];
        if (!id) throw new Error("raw: no message");
        if (await redis.hexists(`${key}:read`, id)) throw new Error("raw: already read");
      },
      markRead: async (agent, id) => {
        const key = inbox(agent);
        const found = await redis.xrange(key, id, id);
        if (found.length === 0) throw new Error("raw: no such entry");
        if ((await redis.hsetnx(`${key}:read`, id, Date.now())) !== 1) throw new Error("raw: read twice");
        await redis.xack(key, GROUP, id);
      },
    };
    // Groups exist before the clock starts on both sides (the mailbox makes one on an inbox's first read).
    const prepare = async (h, w) => {
      for (const agent of h) await mailbox.peek(agent);
      for (const agent of w) await redis.xgroup("CREATE", inbox(agent), GROUP, "0", "MKSTREAM");
    };
    const result = await compare({ heddle, raw, rounds, agents, prepare });
    result.blockingWait = await compareBlockingWait({ mailbox, redis, inbox, consumer, rounds, agents, prepare });
    return {
      commands: {
        send: "XADD",
        wait: "XREADGROUP 0, XAUTOCLAIM, XREADGROUP >, HEXISTS",
        markRead: "XRANGE, HSETNX, XACK",
        blockingWait:
          "XREADGROUP 0, XAUTOCLAIM, XREADGROUP >, then XREADGROUP BLOCK: Heddle on a new connection per block, raw on one long-lived connection",
      },
      ...result,
    };
  } finally {
    await mailbox.close();
    const keys = await redis.keys(`${keyPrefix}:*`);
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
    await redis.quit();
  }
}

/**
 * Redis `wait` on an empty inbox: it finds nothing (three commands), blocks (`XREADGROUP ... BLOCK`) and returns
 * when a send arrives 50 ms later (an `XADD` from a third client, the same on both sides). The mailbox blocks on a
 * connection of its own, made for each block (`duplicate()`); the raw side blocks on one long-lived connection. CPU
 * µs per wait, the sleep included on both sides; the server's count of connections tells how many each side opened.
 */
async function compareBlockingWait({ mailbox, redis, inbox, consumer, rounds, agents, prepare }) {
  const Redis = requireFromCore("ioredis");
  const blocking = new Redis(REDIS_URL);
  const sender = new Redis(REDIS_URL);
  const GROUP = "heddle";
  const count = Math.max(10, Math.floor(agents / 4));
  const connections = async () => Number(/total_connections_received:(\d+)/.exec(await redis.info("stats"))[1]);
  const heddleWait = (agent) => mailbox.wait(agent);
  const rawWait = async (agent) => {
    const key = inbox(agent);
    await redis.xreadgroup("GROUP", GROUP, consumer, "COUNT", 1, "STREAMS", key, "0");
    await redis.xautoclaim(key, GROUP, consumer, 30_000, "0-0", "COUNT", 1);
    const next = await redis.xreadgroup("GROUP", GROUP, consumer, "COUNT", 1, "STREAMS", key, ">");
    if (next?.[0]?.[1]?.length) return; // the send came first (a slow machine): no block, as in the mailbox
    const got = await blocking.xreadgroup("GROUP", GROUP, consumer, "COUNT", 1, "BLOCK", 5_000, "STREAMS", key, ">");
    if (!got?.[0]?.[1]?.length) throw new Error("raw: the blocking read returned nothing");
  };
  const side = async (wait, names) => {
    const before = await connections();
    globalThis.gc?.();
    const start = process.cpuUsage();
    for (const agent of names) {
      const waiting = wait(agent);
      await sleep(50);
      await sender.xadd(
        inbox(agent),
        "*",
        "from",
        "lead",
        "to",
        agent,
        "kind",
        "user",
        "text",
        TEXT,
        "createdAt",
        Date.now(),
      );
      await waiting;
    }
    const us = (cpuMs(process.cpuUsage(start)) * 1000) / names.length;
    return { us, connectionsPerWait: ((await connections()) - before) / names.length };
  };
  const samples = { heddle: [], raw: [] };
  const ratios = [];
  try {
    for (let r = -1; r < rounds; r++) {
      const h = Array.from({ length: count }, (_, i) => `bh-r${r + 1}-a${i}`);
      const w = Array.from({ length: count }, (_, i) => `bw-r${r + 1}-a${i}`);
      await prepare(h, w);
      const [a, b] =
        r % 2
          ? [await side(rawWait, w), await side(heddleWait, h)].reverse()
          : [await side(heddleWait, h), await side(rawWait, w)];
      if (r < 0) continue;
      samples.heddle.push(a);
      samples.raw.push(b);
      ratios.push(a.us / b.us);
    }
  } finally {
    blocking.disconnect();
    sender.disconnect();
  }
  return {
    waitsPerRound: count,
    heddleUsPerOp: median(samples.heddle.map((s) => s.us)),
    rawUsPerOp: median(samples.raw.map((s) => s.us)),
    heddleConnectionsPerWait: median(samples.heddle.map((s) => s.connectionsPerWait)),
    rawConnectionsPerWait: median(samples.raw.map((s) => s.connectionsPerWait)),
    ratios,
  };
}
