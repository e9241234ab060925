// A teammate's turn against the same turn on a bare AgentRuntime (bench/teams.bench.mjs, scenario "turn").
// Teammate: the lead's `send` puts a message in the teammate's SQLite mailbox, the teammate (AgentTeamManager,
// SqliteSessionStore and SqliteTeamMailbox on one file) wakes, runs the turn on a fresh AgentRuntime seeded from
// the store, stores it, marks the message read and sends its notification, which the lead then takes from its
// inbox. Baseline: one long-lived `AgentRuntime` whose history is in memory, `run(text)`. Both start from the same N
// messages and add two per turn; the model is the same instant one. CPU of this process, in adjacent pairs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentRuntime } from "../../../packages/agents/dist/index.js";
import {
  AgentTeamManager,
  InMemoryTeamMailbox,
  MemorySessionStore,
  SqliteSessionStore,
  SqliteTeamMailbox,
} from "../../../packages/core/dist/index.js";
import { cpuMs, instantModel, median, seedMessage } from "./common.mjs";

const SESSION = "teammate-mate";
const BASELINE_SEGMENTS = 10;

async function seed(store, count) {
  await store.createSession({ id: SESSION });
  for (let i = 0; i < count; i++) await store.appendMessage(SESSION, seedMessage(i));
}

/** A teammate waiting for mail, on `kind` ("sqlite" or "memory") storage holding `count` messages already. */
export async function openTeammate(kind, count, dir) {
  let store;
  let mailbox;
  if (kind === "sqlite") {
    const path = join(dir, `turn-${count}.db`);
    // Seeding uses NORMAL so 10,000 fsyncs do not dominate the run; the turns use the default (FULL).
    const seeder = new SqliteSessionStore({ path, synchronous: "NORMAL" });
    await seed(seeder, count);
    await seeder.close();
    store = new SqliteSessionStore({ path });
    mailbox = new SqliteTeamMailbox({ path });
  } else {
    store = new MemorySessionStore();
    await seed(store, count);
    mailbox = new InMemoryTeamMailbox();
  }
  const manager = new AgentTeamManager({ mailbox, store, model: instantModel(), compaction: false });
  const idle = new Promise((resolve) => {
    const off = manager.subscribe((event) => {
      if (event.type === "idle") {
        off();
        resolve();
      }
      if (event.type === "stopped" && event.error) console.error(event.error);
    });
  });
  manager.spawn({ agentId: "mate", sessionId: SESSION });
  await idle;
  let turns = 0;
  let sinceReset = 0;
  return {
    /** Puts the session's head back on the last seeded message (between samples, while the teammate is idle). */
    async reset() {
      await store.setHead(SESSION, count > 0 ? seedMessage(count - 1).id : null);
      sinceReset = 0;
    },
    async turn() {
      sinceReset++;
      await manager.send("mate", `task ${turns++}: note this`);
      for (;;) {
        const note = await mailbox.dequeue("lead");
        if (note) {
          if (note.kind !== "task_notification" || !note.text.includes("done: noted"))
            throw new Error(`unexpected notification: ${note.text}`);
          return;
        }
        await mailbox.wait("lead");
      }
    },
    async check() {
      const expected = count + 2 * sinceReset;
      const length = (await store.getHistory(SESSION)).length;
      if (length !== expected) throw new Error(`the teammate's session holds ${length} messages, expected ${expected}`);
    },
    async close() {
      await manager.stopAll();
      await mailbox.close();
      await store.close();
    },
    get turns() {
      return turns;
    },
  };
}

export function openBaseline(count) {
  const seeded = Array.from({ length: count }, (_, i) => seedMessage(i));
  const model = instantModel();
  let agent = new AgentRuntime({ model, initialMessages: seeded });
  let turns = 0;
  return {
    /** A new runtime on the seeded history (between samples). */
    reset() {
      agent = new AgentRuntime({ model, initialMessages: seeded });
    },
    async turn() {
      const result = await agent.run(`task ${turns++}: note this`);
      if (result.status !== "completed" || !result.outputText.includes("done: noted"))
        throw new Error("baseline turn did not complete");
    },
  };
}

// Each segment starts from the seeded history, so "N stored messages" stays N (plus two per turn of the segment);
// the reset is outside the clock. A sample is `segments` segments of `turns` turns: the baseline's turn is so cheap
// that it runs ten segments per sample, so both sides' samples are long enough to time on a busy machine.
async function timed(side, turns, segments = 1) {
  globalThis.gc?.();
  let cpu = 0;
  for (let s = 0; s < segments; s++) {
    await side.reset();
    const start = process.cpuUsage();
    for (let i = 0; i < turns; i++) await side.turn();
    cpu += cpuMs(process.cpuUsage(start));
  }
  return cpu / (turns * segments);
}

/**
 * Per size: `pairs` adjacent pairs (order alternating), each side running `turnsFor(size)` turns per sample after
 * a warm-up. Returns per size the medians (ms CPU per turn) and the per-pair ratios teammate / baseline.
 */
export async function measureTurns({ sizes, pairs, turnsFor, kinds, log }) {
  const dir = mkdtempSync(join(tmpdir(), "heddle-bench-teams-turn-"));
  const rows = [];
  try {
    for (const size of sizes) {
      const turns = turnsFor(size);
      const baseline = openBaseline(size);
      const sides = {};
      for (const kind of kinds) sides[kind] = await openTeammate(kind, size, dir);
      for (let i = 0; i < 3; i++) {
        await baseline.turn();
        for (const kind of kinds) await sides[kind].turn();
      }
      const samples = { baseline: [] };
      const ratios = {};
      for (const kind of kinds) {
        samples[kind] = [];
        ratios[kind] = [];
      }
      for (let p = 0; p < pairs; p++) {
        // Each teammate kind is paired with its own baseline sample, the two taking turns at going first.
        for (const kind of kinds) {
          let a;
          let b;
          if (p % 2) {
            b = await timed(baseline, turns, BASELINE_SEGMENTS);
            a = await timed(sides[kind], turns);
          } else {
            a = await timed(sides[kind], turns);
            b = await timed(baseline, turns, BASELINE_SEGMENTS);
          }
          samples[kind].push(a);
          samples.baseline.push(b);
          ratios[kind].push(a / b);
        }
      }
      for (const kind of kinds) {
        await sides[kind].check();
        await sides[kind].close();
      }
      const row = {
        storedMessages: size,
        turnsPerSample: turns,
        pairs,
        baselineMsPerTurn: median(samples.baseline),
      };
      for (const kind of kinds) row[kind] = { msPerTurn: median(samples[kind]), ratios: ratios[kind] };
      rows.push(row);
      log(row);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
