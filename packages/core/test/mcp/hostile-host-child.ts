// A host process for the hostile MCP server test: it connects an honest server ("good") and a hostile one ("bad",
// `hostile-server.mjs <mode>`), runs one agent turn through the real gateway against the loopback mock provider
// (the request is serialized like any vendor request), then the honest server's process is killed ("another server
// exits") and the connection closed. Each step is one JSON line on stdout; a crash shows as a non-zero exit.
// Bundled with esbuild by the test. argv: <test-server.mjs> <hostile-server.mjs> <mode>
import { readFileSync, writeSync } from "node:fs";
import { createAgent } from "@heddle/agents";
import { startMockProviderServer } from "@heddle/llms/testing";
import { getToolResults, toolOutputText } from "@heddle/shared";
import { connectMcpServers, type McpConnection } from "../../src/mcp/index.js";
import { descendantPids } from "../../src/process/index.js";

const [testServer, hostileServer, mode] = process.argv.slice(2) as [string, string, string];
const say = (record: object) => writeSync(1, `${JSON.stringify(record)}\n`);

function servers(mcp: McpConnection) {
  return mcp.servers().map((s) => ({
    name: s.name,
    status: s.status,
    tools: s.tools.map((t) => t.mcpName),
    issues: (s.toolIssues ?? []).map((i) => ({ code: i.error.code, tool: i.error.tool, action: i.action })),
  }));
}

const chunk = (delta: object, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const call = (index: number, id: string, name: string, args: object) => ({
  tool_calls: [{ index, id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
});

const provider = await startMockProviderServer();
const mcp = await connectMcpServers(
  {
    mcpServers: {
      good: { command: process.execPath, args: [testServer, "stdio"] },
      bad: { command: process.execPath, args: [hostileServer, mode] },
    },
  },
  {
    connectTimeoutMs: 15_000,
    onStatusChange: (change) => say({ change: { server: change.server, status: change.status } }),
  },
);
say({ connected: servers(mcp) });

provider.enqueue(
  "openai-chat",
  {
    events: [
      chunk(call(0, "call_1", "mcp__bad__echo", { text: "still here" })),
      chunk(call(1, "call_2", "mcp__good__greet", { name: "Ada" })),
      chunk({}, "tool_calls"),
    ],
  },
  { events: [chunk({ content: "done" }, "stop")] },
);
const agent = createAgent({
  providerId: "openai-compatible",
  modelId: "gpt-4o",
  apiKey: "test-key",
  baseUrl: provider.baseUrl("openai-chat"),
  tools: mcp.tools(),
  logger: { debug() {}, info() {}, warn() {}, error() {} },
});
const result = await agent.run("Use the tools.");
const outputs = result.messages.flatMap((m) => getToolResults(m)).map((r) => toolOutputText(r.output));
const offered = (provider.requests[0]?.body?.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
say({ run: { status: result.status, reason: result.reason, error: result.error?.message, outputs, offered } });

// Another server exits: the connection rebuilds its tool list from what is left.
const good = descendantPids(process.pid).find((pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("test-server.mjs");
  } catch {
    return false;
  }
});
process.kill(good!, "SIGKILL");
const until = Date.now() + 10_000;
while (mcp.servers().find((s) => s.name === "good")?.status === "connected" && Date.now() < until) {
  await new Promise((resolve) => setTimeout(resolve, 20));
}
say({ afterExit: servers(mcp) });
await mcp.close();
say({ closed: servers(mcp) });
await provider.close();
