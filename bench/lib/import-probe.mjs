// Measures one cold import + construct in a fresh process and prints {wallMs, cpuMs} as JSON. Usage:
//   node import-probe.mjs <openai | openai+client | heddle | heddle+client | zod>
// openai:         import("openai") alone (the design's yardstick)
// openai+client:  that, then `new OpenAI(...)` (what the floor loop pays before its first request)
// heddle:         import @heddle/agents and @heddle/llms, createAgent(...) with a tool, and the gateway's model
//                 (what a host pays before its first run; the family and its client load on the first request)
// heddle+client:  that, then the `openai` import and client the first request adds
// zod:            import("zod") alone, as @heddle/shared resolves it (it is imported at load, for createTool)
// Paths are resolved before the clock starts, so only loading and constructing is timed.
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const mode = process.argv[2];
const MODES = ["openai", "openai+client", "heddle", "heddle+client", "zod"];
if (!MODES.includes(mode)) {
  console.error(`import-probe: mode must be one of ${MODES.join(", ")}, got ${String(mode)}`);
  process.exit(2);
}
const require = createRequire(new URL("../../packages/llms/package.json", import.meta.url));
const openaiUrl = pathToFileURL(require.resolve("openai").replace(/index\.js$/, "index.mjs")).href;
// `require` resolves zod's CommonJS entry (index.cjs); its ESM entry is index.js beside it.
const sharedRequire = createRequire(new URL("../../packages/shared/package.json", import.meta.url));
const zodUrl = pathToFileURL(sharedRequire.resolve("zod").replace(/index\.cjs$/, "index.js")).href;
const agentsUrl = new URL("../../packages/agents/dist/index.js", import.meta.url).href;
const llmsUrl = new URL("../../packages/llms/dist/index.js", import.meta.url).href;
const baseUrl = "http://127.0.0.1:9/v1";

const cpu = process.cpuUsage();
const start = performance.now();
if (mode === "zod") await import(zodUrl);
if (mode.startsWith("heddle")) {
  const [{ createAgent }, { createGateway }] = await Promise.all([import(agentsUrl), import(llmsUrl)]);
  const inputSchema = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
  const tools = [{ name: "note", description: "Take a note", inputSchema, execute: () => "ok" }];
  createAgent({ providerId: "openai-chat", modelId: "gpt-4o", baseUrl, apiKey: "sk-bench", tools });
  createGateway().createAgentModel({ providerId: "openai-chat", modelId: "gpt-4o", baseUrl, apiKey: "sk-bench" });
}
if (mode.startsWith("openai") || mode === "heddle+client") {
  const { OpenAI } = await import(openaiUrl);
  if (mode.endsWith("+client")) new OpenAI({ baseURL: baseUrl, apiKey: "sk-bench", maxRetries: 0 });
}
const wallMs = performance.now() - start;
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ wallMs, cpuMs: (used.user + used.system) / 1000 }));
