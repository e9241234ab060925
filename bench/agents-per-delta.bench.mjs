// Per-delta cost must not grow with history: stream 10,000 text deltas through one run whose transcript already
// holds 10 messages, then 5,000, and compare. Goal: ratio < 1.20.
// Imports the BUILT packages: run `pnpm build` first (`pnpm bench agents` does).
//
// Two numbers per run, both in CPU time of this process (on a shared machine wall time mostly measures the
// neighbours): the streaming window, from the first delta event to the last (the goal), and the whole run, which
// also pays the per-turn O(history) work the design allows (the request's copy of the messages, the result's).
import { AgentRuntime } from "../packages/agents/dist/index.js";
import { createScriptedModel } from "../packages/llms/dist/testing/index.js";

const DELTAS = 10_000;
const PAIRS = 41;

const deltas = Array.from({ length: DELTAS }, (_, i) => ({ type: "text-delta", text: `tok${i % 10} ` }));
const script = [
  ...deltas,
  { type: "usage", usage: { inputTokens: 10, outputTokens: DELTAS } },
  { type: "finish", reason: "stop" },
];

function history(count) {
  const messages = [];
  for (let i = 0; i < count; i++) {
    const role = i % 2 === 0 ? "user" : "assistant";
    messages.push({ id: `m${i}`, role, createdAt: i, content: [{ type: "text", text: `message ${i} `.repeat(20) }] });
  }
  return messages;
}

const cpuMs = (usage) => (usage.user + usage.system) / 1000;

async function timeOnce(prior) {
  const model = createScriptedModel([script]);
  const agent = new AgentRuntime({ model, initialMessages: prior });
  let received = 0;
  let firstDelta;
  let lastDelta;
  // A listener, as a UI would have: every delta goes through the event path.
  agent.subscribe((event) => {
    if (event.type !== "assistant-text-delta") return;
    received++;
    if (received === 1) firstDelta = process.cpuUsage();
    else if (received === DELTAS) lastDelta = process.cpuUsage(firstDelta);
  });
  globalThis.gc?.();
  const start = process.cpuUsage();
  const result = await agent.run("go");
  const run = cpuMs(process.cpuUsage(start));
  if (received !== DELTAS || result.status !== "completed") throw new Error("benchmark run did not stream every delta");
  return { stream: cpuMs(lastDelta), run };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const small = history(10);
const large = history(5_000);
// Warm up the JIT on both shapes before measuring.
for (let i = 0; i < 5; i++) {
  await timeOnce(small);
  await timeOnce(large);
}
// Load drifts on a shared machine: measure in adjacent pairs (order alternating) and take the median of the
// per-pair ratios, which cancels drift that a ratio of two separate medians would not.
const samples = { small: [], large: [], streamRatios: [], runRatios: [] };
for (let i = 0; i < PAIRS; i++) {
  let a;
  let b;
  if (i % 2 === 0) {
    a = await timeOnce(small);
    b = await timeOnce(large);
  } else {
    b = await timeOnce(large);
    a = await timeOnce(small);
  }
  samples.small.push(a);
  samples.large.push(b);
  samples.streamRatios.push(b.stream / a.stream);
  samples.runRatios.push(b.run / a.run);
}
const report = (label, list) => {
  const stream = median(list.map((s) => s.stream));
  const run = median(list.map((s) => s.run));
  console.log(
    `${label}: stream ${stream.toFixed(1)} ms CPU (${((stream * 1000) / DELTAS).toFixed(2)} µs/delta), whole run ${run.toFixed(1)} ms CPU`,
  );
};
report("10 prior messages   ", samples.small);
report("5,000 prior messages", samples.large);
const ratio = median(samples.streamRatios);
console.log(
  `whole-run ratio 5,000 / 10 (median of ${PAIRS} pairs) = ${median(samples.runRatios).toFixed(3)} (reported)`,
);
console.log(
  `per-delta ratio 5,000 / 10 (median of ${PAIRS} pairs) = ${ratio.toFixed(3)} (goal < 1.20) ${ratio < 1.2 ? "OK" : "OVER"}`,
);
process.exitCode = ratio < 1.2 ? 0 : 1;
