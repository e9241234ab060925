// MCP over HTTP: a server on the SDK's server classes, started by the test on 127.0.0.1 (port 0) in its own
// process, so it can really be killed mid-session.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { createScriptedModel } from "@heddle/llms/testing";
import { getToolResults, toolOutputText } from "@heddle/shared";
import { afterEach, describe, expect, it } from "vitest";
import { TEST_SERVER, toolContext, waitFor } from "../../test/mcp/helpers.js";
import { MemorySessionStore } from "../backends/memory/index.js";
import { createSession } from "../sessions/create-session.js";
import { connectMcpServers, type McpConnection, type McpStatusChange, withMcpTools } from "./connection.js";

let server: ChildProcess | undefined;
/** Lines the test server printed after its port. */
let serverLines: string[] = [];
let mcp: McpConnection | undefined;
afterEach(async () => {
  await mcp?.close();
  server?.kill("SIGKILL");
  mcp = undefined;
  server = undefined;
  serverLines = [];
});

/** Starts `test-server.mjs <mode>` and resolves with its URL once it listens. */
async function startServer(mode: "http" | "sse"): Promise<string> {
  server = spawn(process.execPath, [TEST_SERVER, mode], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: server.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    server!.once("exit", (code) => reject(new Error(`test server exited with ${code}`)));
  });
  lines.on("line", (line) => serverLines.push(line));
  const { port } = JSON.parse(first) as { port: number };
  return `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));
}

describe("MCP over HTTP", { timeout: 20_000 }, () => {
  it("a session uses a streamable HTTP server; killed mid-session, it is reported failed and the turn completes", async () => {
    const url = await startServer("http");
    const changes: McpStatusChange[] = [];
    mcp = await connectMcpServers({ mcpServers: { remote: { url } } }, { onStatusChange: (c) => changes.push(c) });
    expect(mcp.servers()[0]).toMatchObject({ name: "remote", status: "connected", toolCount: 3 });
    const model = createScriptedModel([
      { toolCalls: [{ id: "one", name: "mcp__remote__greet", input: { name: "Ada" } }] },
      { toolCalls: [{ id: "two", name: "mcp__remote__greet", input: { name: "Grace" } }] },
      { text: "Grace could not be greeted." },
      { text: "next turn" },
    ]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      compaction: false,
      tools: withMcpTools([], mcp),
      toolPolicies: { "*": { autoApprove: true } },
      hooks: {
        // Before the second call, the server process is killed (SIGKILL: no goodbye on the wire).
        beforeTool: async ({ toolCall }) => {
          if (toolCall.toolCallId !== "two" || !server) return;
          server.kill("SIGKILL");
          await exited(server);
        },
      },
    });
    const result = await session.send("greet twice");

    expect(result.status).toBe("completed");
    const results = Object.fromEntries(
      result.newMessages.flatMap((m) => getToolResults(m)).map((r) => [r.toolCallId, r]),
    );
    expect(toolOutputText(results.one!.output)).toMatch(/^Hello, Ada!/);
    expect(results.two!.isError).toBe(true);
    expect(toolOutputText(results.two!.output)).toMatch(/MCP server "remote" is not available \(failed/);
    expect(mcp.servers()[0]).toMatchObject({ status: "failed", toolCount: 0, error: expect.any(String) });
    expect(mcp.tools()).toEqual([]);
    expect(changes.map((c) => c.status)).toEqual(["connected", "failed"]);
    // The session's next turn no longer offers the dead server's tools.
    expect(model.requests[0]!.tools.map((t) => t.name)).toContain("mcp__remote__greet");
    await session.send("and now?");
    expect(model.requests[3]!.tools).toEqual([]);
    await session.close();
  });

  it("close() ends the HTTP session on the server (DELETE)", async () => {
    const url = await startServer("http");
    mcp = await connectMcpServers({ mcpServers: { remote: { url } } });
    expect(mcp.servers()[0]!.status).toBe("connected");
    await mcp.close();
    expect(await waitFor(() => serverLines.some((line) => line.includes("sessionClosed")), 2000)).toBe(true);
  });

  it("falls back to the older HTTP+SSE transport when the server refuses streamable HTTP", async () => {
    const url = await startServer("sse");
    mcp = await connectMcpServers({ mcpServers: { old: { url } } });
    expect(mcp.servers()[0]).toMatchObject({ status: "connected", toolCount: 3 });
    const greet = mcp.tools().find((t) => t.name === "mcp__old__greet")!;
    expect(await greet.execute({ name: "Linus" }, toolContext())).toMatch(/^Hello, Linus!/);
  });
});
