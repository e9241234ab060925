// MCP timeouts a timer cannot hold, on a real server process. The SDK sets plain timers for its requests: a value
// past 2^31-1 ms (or Infinity) fired after 1 ms, so no server could start, or every call timed out.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TEST_SERVER, toolContext } from "../../test/mcp/helpers.js";
import { connectMcpServers, type McpConnection } from "./connection.js";

const HOSTILE_SERVER = join(TEST_SERVER, "..", "hostile-server.mjs");
let open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.map((connection) => connection.close()));
  open = [];
});

describe("MCP timeouts past 2^31-1 ms", { timeout: 20_000 }, () => {
  it("connectTimeoutMs and callTimeoutMs of Infinity or 2^31 start the server and let a 50 ms call answer; was: failed at once", async () => {
    const cases: Array<{ connectTimeoutMs?: number; callTimeoutMs?: number }> = [
      { connectTimeoutMs: Number.POSITIVE_INFINITY },
      { connectTimeoutMs: 2 ** 31 },
      { callTimeoutMs: Number.POSITIVE_INFINITY },
      { callTimeoutMs: 2 ** 31 },
    ];
    for (const timeouts of cases) {
      const mcp = await connectMcpServers(
        { mcpServers: { s: { command: process.execPath, args: [HOSTILE_SERVER, "plain"] } } },
        timeouts,
      );
      open.push(mcp);
      const label = `${Object.keys(timeouts)[0]} ${Object.values(timeouts)[0]}`;
      expect(mcp.servers()[0], label).toMatchObject({ status: "connected", toolCount: 1 });
      const [echo] = mcp.tools();
      // The loop enforces the tool's own timeoutMs (Infinity: no timer; see packages/agents).
      expect(echo!.timeoutMs, label).toBe(timeouts.callTimeoutMs ?? 120_000);
      expect(await echo!.execute({ text: "late", delayMs: 50 }, toolContext()), label).toBe("echo: late");
    }
  });
});
