// Server lifecycle over stdio with real child processes: start failures, initialize timeouts, a server killed
// mid-session, tools/list_changed, and close() leaving no process behind.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { pidAlive, TEST_SERVER, toolContext, WRAPPER, waitFor } from "../../test/mcp/helpers.js";
import { descendantPids } from "../process/index.js";
import { connectMcpServers, type McpAgentTool, type McpConnection, type McpStatusChange } from "./connection.js";
import { McpServerUnavailableError } from "./errors.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-mcp-life-"));
const node = process.execPath;
let open: McpConnection[] = [];
const connect = async (...[config, options]: Parameters<typeof connectMcpServers>) => {
  // Shorter than the test's own timeout, so a stuck start fails the test and is still cleaned up.
  const connection = await connectMcpServers(config, { connectTimeoutMs: 15_000, ...options });
  open.push(connection);
  return connection;
};
/** Processes a test saw start: killed after it, should a failing test leave any behind. */
let seen: number[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
  for (const pid of seen.filter(pidAlive)) process.kill(pid, "SIGKILL");
  seen = [];
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("MCP server lifecycle", { timeout: 20_000 }, () => {
  it("close() ends every server process and what the servers started, even a child its launcher left behind", async () => {
    const before = new Set(descendantPids(process.pid));
    const childPidFile = join(dir, "child.pid");
    const mcp = await connect({
      mcpServers: {
        wrapped: {
          command: node,
          args: [WRAPPER, node, TEST_SERVER, "stdio"],
          env: { MCP_CHILD_PID_FILE: childPidFile, MCP_LINGER: "1" },
        },
        direct: { command: node, args: [TEST_SERVER, "stdio"] },
      },
    });
    expect(mcp.servers().map((s) => s.status)).toEqual(["connected", "connected"]);
    const started = descendantPids(process.pid).filter((pid) => !before.has(pid));
    seen = started;
    const grandchild = Number(readFileSync(childPidFile, "utf8"));
    // Two server processes, the launcher, and the launcher's child (the real server).
    expect(started).toContain(grandchild);
    expect(started.length).toBeGreaterThanOrEqual(3);
    await mcp.close();
    expect(started.filter(pidAlive)).toEqual([]);
    expect(mcp.servers().map((s) => s.status)).toEqual(["closed", "closed"]);
    expect(mcp.tools()).toEqual([]);
  });

  it("reports a server that cannot start or exits at once as failed, with its stderr; the others work", async () => {
    const changes: McpStatusChange[] = [];
    const mcp = await connect(
      {
        mcpServers: {
          missing: { command: join(dir, "no-such-binary") },
          crashes: { command: node, args: ["-e", "console.error('boom: bad flag'); process.exit(3)"] },
          good: { command: node, args: [TEST_SERVER, "stdio"] },
        },
      },
      { onStatusChange: (change) => changes.push(change) },
    );
    const servers = Object.fromEntries(mcp.servers().map((s) => [s.name, s]));
    expect(servers.missing).toMatchObject({ status: "failed", toolCount: 0, error: expect.stringMatching(/ENOENT/) });
    expect(servers.crashes).toMatchObject({ status: "failed", error: expect.stringContaining("boom: bad flag") });
    expect(servers.good).toMatchObject({ status: "connected", toolCount: 3 });
    expect(mcp.tools().map((t) => t.name)).toEqual([
      "mcp__good__greet",
      "mcp__good__add-tool",
      "mcp__good__remove-greet",
    ]);
    expect(changes.filter((c) => c.status === "failed").map((c) => c.server)).toEqual(["missing", "crashes"]);
    expect(changes.find((c) => c.server === "crashes")?.message).toMatch(/MCP server "crashes" failed/);
  });

  it("stops a server that does not answer initialize in time and reports it failed", async () => {
    const before = new Set(descendantPids(process.pid));
    const mcp = await connect(
      { mcpServers: { silent: { command: node, args: ["-e", "setInterval(() => {}, 1000)"] } } },
      { connectTimeoutMs: 500 },
    );
    expect(mcp.servers()[0]).toMatchObject({ status: "failed", error: expect.stringMatching(/timed out/i) });
    // Stopped, not left running.
    expect(
      descendantPids(process.pid)
        .filter((pid) => !before.has(pid))
        .filter(pidAlive),
    ).toEqual([]);
  });

  it("reports a server killed mid-session: failed with the error, a status notice, its tools gone", async () => {
    const before = new Set(descendantPids(process.pid));
    const mcp = await connect({ mcpServers: { t: { command: node, args: [TEST_SERVER, "stdio"] } } });
    const [pid] = descendantPids(process.pid).filter((p) => !before.has(p));
    const greet = mcp.tools()[0]!;
    expect(await greet.execute({ name: "Ada" }, toolContext())).toContain(`Hello, Ada! (pid ${pid})`);
    const changes: McpStatusChange[] = [];
    const toolLists: McpAgentTool[][] = [];
    mcp.onStatusChange((change) => changes.push(change));
    mcp.onToolsChanged((tools) => toolLists.push(tools));
    process.kill(pid!, "SIGKILL");
    expect(await waitFor(() => changes.length > 0)).toBe(true);
    expect(changes[0]).toMatchObject({ server: "t", status: "failed", message: expect.stringContaining('"t" failed') });
    expect(mcp.servers()[0]).toMatchObject({ status: "failed", toolCount: 0, error: expect.stringMatching(/closed/) });
    expect(mcp.tools()).toEqual([]);
    expect(toolLists.at(-1)).toEqual([]);
    // A tool object a turn still holds now fails with a clear error instead of hanging.
    await expect(Promise.resolve(greet.execute({ name: "Ada" }, toolContext()))).rejects.toBeInstanceOf(
      McpServerUnavailableError,
    );
  });

  it("follows notifications/tools/list_changed: tools() is refreshed and onToolsChanged listeners are called", async () => {
    const mcp = await connect({ mcpServers: { t: { command: node, args: [TEST_SERVER, "stdio"] } } });
    const toolLists: string[][] = [];
    mcp.onToolsChanged((tools) => toolLists.push(tools.map((t) => t.name)));
    const tool = (name: string) => mcp.tools().find((t) => t.name === `mcp__t__${name}`);
    await tool("add-tool")!.execute({ name: "fresh.tool" }, toolContext());
    expect(await waitFor(() => tool("fresh_tool") !== undefined)).toBe(true);
    expect(toolLists.at(-1)).toContain("mcp__t__fresh_tool");
    expect(mcp.servers()[0]!.tools.find((t) => t.name === "fresh.tool")?.mcpName).toBe("mcp__t__fresh_tool");
    expect(await tool("fresh_tool")!.execute({}, toolContext())).toBe("I am fresh.tool");
    await tool("remove-greet")!.execute({}, toolContext());
    expect(await waitFor(() => tool("greet") === undefined)).toBe(true);
    expect(toolLists.at(-1)).not.toContain("mcp__t__greet");
  });
});
