// What OpenTelemetry costs the loop: the same runs with `telemetry` unset, with a no-op tracer (the API's default
// without an SDK) and with a recording tracer (the SDK's BasicTracerProvider into an in-memory exporter), measured in
// the same process, interleaved, as ratios to "unset". Two shapes: one turn streaming 10,000 text deltas (the
// per-delta path, which telemetry must not touch: goal ratio < 1.10 for both tracers) and 100 turns each running one
// tool call (where spans are made: 101 chat + 100 execute_tool + 1 invoke_agent per run; reported).
// Imports the BUILT packages: run `pnpm build` first (`pnpm bench telemetry` does). CPU time of this process.
import { createRequire } from "node:module";
import { AgentRuntime } from "../packages/agents/dist/index.js";
import { createScriptedModel } from "../packages/llms/dist/testing/index.js";

// The OpenTelemetry packages are @heddle/agents' own (dependency and devDependencies).
const require = createRequire(new URL("../packages/agents/package.json", import.meta.url));
const { trace } = require("@opentelemetry/api");
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require("@opentelemetry/sdk-trace-base");

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 9 : 25;
const DELTAS = 10_000;
const TOOL_TURNS = 100;

const exporter = new InMemorySpanExporter();
const modes = {
  unset: undefined,
  noop: { tracer: trace.getTracer("bench") },
  recording: {
    tracer: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("bench"),
  },
};

const deltaScript = [
  [
    ...Array.from({ length: DELTAS }, (_, i) => ({ type: "text-delta", text: `tok${i % 10} ` })),
    { type: "usage", usage: { inputTokens: 10, outputTokens: DELTAS } },
    { type: "finish", reason: "stop" },
  ],
];
const toolScript = [
  ...Array.from({ length: TOOL_TURNS }, (_, i) => ({
    toolCalls: [{ id: `c${i}`, name: "echo", input: { text: `t${i}` } }],
  })),
  { text: "done" },
];
const echo = {
  name: "echo",
  description: "Echo the text back",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: (input) => `echo: ${input.text}`,
};

const cpuMs = (usage) => (usage.user + usage.system) / 1000;

async function timeOnce(shape, telemetry) {
  const model = createScriptedModel(shape === "deltas" ? deltaScript : toolScript);
  const agent = new AgentRuntime({
    model,
    tools: [echo],
    maxIterations: TOOL_TURNS + 5,
    ...(telemetry && { telemetry }),
  });
  let received = 0;
  agent.subscribe((event) => {
    if (event.type === "assistant-text-delta") received++;
  });
  globalThis.gc?.();
  const start = process.cpuUsage();
  const result = await agent.run("go");
  const ms = cpuMs(process.cpuUsage(start));
  exporter.reset();
  if (result.status !== "completed") throw new Error(`benchmark run ended ${result.status}: ${result.reasonDetail}`);
  if (shape === "deltas" && received !== DELTAS) throw new Error("benchmark run did not stream every delta");
  return ms;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

let over = false;
for (const shape of ["deltas", "tools"]) {
  for (let i = 0; i < 3; i++) for (const telemetry of Object.values(modes)) await timeOnce(shape, telemetry);
  const times = { unset: [], noop: [], recording: [] };
  const ratios = { noop: [], recording: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round so drift on a shared machine falls on every mode alike.
    const order = Object.keys(modes);
    for (let k = 0; k < round % 3; k++) order.push(order.shift());
    const took = {};
    for (const mode of order) took[mode] = await timeOnce(shape, modes[mode]);
    for (const mode of order) times[mode].push(took[mode]);
    ratios.noop.push(took.noop / took.unset);
    ratios.recording.push(took.recording / took.unset);
  }
  const label = shape === "deltas" ? `1 turn, ${DELTAS} deltas` : `${TOOL_TURNS} tool turns`;
  console.log(
    `${label}: unset ${median(times.unset).toFixed(1)} ms, no-op tracer ${median(times.noop).toFixed(1)} ms, recording tracer ${median(times.recording).toFixed(1)} ms (CPU, median of ${ROUNDS})`,
  );
  const noop = median(ratios.noop);
  const recording = median(ratios.recording);
  if (shape === "deltas") {
    const ok = noop < 1.1 && recording < 1.1;
    over ||= !ok;
    console.log(
      `  ratio to unset: no-op ${noop.toFixed(3)}, recording ${recording.toFixed(3)} (goal < 1.10: the per-delta path has no tracing) ${ok ? "OK" : "OVER"}`,
    );
  } else {
    console.log(`  ratio to unset: no-op ${noop.toFixed(3)}, recording ${recording.toFixed(3)} (reported)`);
  }
}
process.exitCode = over ? 1 : 0;
