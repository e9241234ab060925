// Session store costs (issue 5): appending to a 10,000-message session must cost what appending to a
// 10-message one does (goal: ratio within 1.20), and reopening a 10,000-message session must take well under a
// second. Imports the built packages (`pnpm bench` builds first).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openSession, SqliteSessionStore } from "../packages/core/dist/index.js";

const BIG = 10_000;
const SMALL = 10;
const ROUNDS = 300;
const dir = mkdtempSync(join(tmpdir(), "heddle-bench-sessions-"));
const path = join(dir, "sessions.db");

const message = (i) => ({
  id: `msg_${i}_${Math.random().toString(36).slice(2)}`,
  role: i % 2 ? "assistant" : "user",
  content: [{ type: "text", text: `message ${i} ${"lorem ipsum dolor ".repeat(20)}` }],
  createdAt: Date.now(),
});
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function seed() {
  // Seeding uses NORMAL so 10,000 fsyncs do not dominate the run; the measurements below use both settings.
  const store = new SqliteSessionStore({ path, synchronous: "NORMAL" });
  await store.createSession({ id: "big" });
  await store.createSession({ id: "small" });
  for (let i = 0; i < BIG; i++) await store.appendMessage("big", message(i));
  for (let i = 0; i < SMALL; i++) await store.appendMessage("small", message(i));
  await store.close();
}

async function appendRatio(synchronous) {
  const store = new SqliteSessionStore({ path, synchronous });
  const big = [];
  const small = [];
  // Interleaved, alternating which goes first, so disk, CPU and cache noise hit both sides alike.
  const timed = async (id, into, i) => {
    const start = performance.now();
    await store.appendMessage(id, message(i));
    into.push(performance.now() - start);
  };
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2) {
      await timed("big", big, i);
      await timed("small", small, i);
    } else {
      await timed("small", small, i);
      await timed("big", big, i);
    }
  }
  await store.close();
  return { big: median(big), small: median(small) };
}

async function reopen() {
  const model = { provider: "bench", modelId: "none", stream: async function* () {} };
  const times = [];
  let count = 0;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const store = new SqliteSessionStore({ path });
    const session = await openSession({ store, model, id: "big", compaction: false });
    count = (await session.history()).length;
    times.push(performance.now() - start);
    await session.close();
    await store.close();
  }
  return { ms: median(times), count };
}

try {
  const seedStart = performance.now();
  await seed();
  console.log(`seeded ${BIG} + ${SMALL} messages in ${(performance.now() - seedStart).toFixed(0)} ms`);
  let ok = true;
  for (const synchronous of ["NORMAL", "FULL"]) {
    const { big, small } = await appendRatio(synchronous);
    const ratio = big / small;
    ok &&= ratio <= 1.2;
    console.log(
      `append (synchronous=${synchronous}, median of ${ROUNDS}): ${BIG}-message session ${big.toFixed(3)} ms, ` +
        `${SMALL}-message session ${small.toFixed(3)} ms, ratio ${ratio.toFixed(2)} (goal <= 1.20)`,
    );
  }
  const { ms, count } = await reopen();
  ok &&= ms < 1000;
  console.log(`reopen + read history of a ${count}-message session: ${ms.toFixed(1)} ms (goal well under 1000 ms)`);
  console.log(ok ? "sessions bench: goals met" : "sessions bench: a goal was missed");
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
