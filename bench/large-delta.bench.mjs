// One huge SSE event must decode in linear time: stream a single text delta of 4, 8 and 16 MB through the gateway's
// `openai-chat` family (the real `openai` client underneath) and through the raw `openai` client, from a loopback
// server that writes the body in 64 KB pieces, as a network does. The raw client's SSE decoder re-joins and re-scans
// its buffer for every piece (quadratic: 8 MB took 1.6 s, 16 MB 11 s before the gateway re-cut the body at line
// breaks). Goal: Heddle's 16 MB / 4 MB time ratio at most 8 (linear is 4; quadratic is 16).
// Imports the BUILT packages: run `pnpm build` first (`pnpm bench large-delta` does).
import { createGateway } from "../packages/llms/dist/index.js";
import { startMockProviderServer } from "../packages/llms/dist/testing/index.js";
import { openaiModuleUrl } from "./lib/chat-clients.mjs";

const { OpenAI } = await import(openaiModuleUrl());

const SIZES_MB = [4, 8, 16];
const RUNS = Number(process.env.LARGE_DELTA_RUNS ?? 3);
const GOAL = 8;

const server = await startMockProviderServer();
const baseURL = server.baseUrl("openai-chat");

function response(megabytes) {
  const text = "x".repeat(megabytes * 1024 * 1024);
  const sse =
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n` +
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n` +
    "data: [DONE]\n\n";
  return { sse, chunkSizes: 64 * 1024, length: text.length };
}

const model = createGateway({ onWarning: () => {} }).createAgentModel({
  providerId: "openai-compatible",
  modelId: "gpt-4o",
  baseUrl: baseURL,
  apiKey: "bench",
  limits: { maxResponseBytes: 256 * 1024 * 1024 },
});
const raw = new OpenAI({ baseURL, apiKey: "bench", maxRetries: 0 });

async function heddle(megabytes) {
  const { length, ...mock } = response(megabytes);
  server.enqueue("openai-chat", mock);
  let received = 0;
  for await (const event of model.stream({ messages: [], tools: [] }))
    if (event.type === "text-delta") received += event.text.length;
  if (received !== length) throw new Error(`heddle received ${received} of ${length} characters`);
}

async function floor(megabytes) {
  const { length, ...mock } = response(megabytes);
  server.enqueue("openai-chat", mock);
  let received = 0;
  const stream = await raw.chat.completions.create({ model: "gpt-4o", messages: [], stream: true });
  for await (const chunk of stream) received += chunk.choices[0]?.delta?.content?.length ?? 0;
  if (received !== length) throw new Error(`floor received ${received} of ${length} characters`);
}

async function median(run, megabytes) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    globalThis.gc?.();
    const start = performance.now();
    await run(megabytes);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const results = {};
for (const megabytes of SIZES_MB) {
  const h = await median(heddle, megabytes);
  // The raw client is quadratic: past 8 MB it takes too long to be worth waiting for in every run.
  const f = megabytes <= 8 ? await median(floor, megabytes) : undefined;
  results[megabytes] = h;
  console.log(
    `${megabytes} MB delta: heddle ${h.toFixed(0)} ms` +
      (f === undefined ? "" : `, raw openai client ${f.toFixed(0)} ms`),
  );
}
const growth = results[16] / results[4];
console.log(`growth 16 MB / 4 MB: heddle x${growth.toFixed(2)} (goal <= ${GOAL}; linear is 4, quadratic 16)`);
await server.close();
if (growth > GOAL) {
  console.log("large-delta bench: the goal was missed");
  process.exit(1);
}
