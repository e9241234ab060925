// A malicious MCP server as a real child process (`hostile-server.mjs`), next to an honest one: what it hands the
// host is bounded, its bad tools are left out and reported, and the host, the other server and every turn go on.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError } from "@heddle/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectMcpServers, type McpConnection, McpToolLimitError } from "../../src/mcp/index.js";
import { childScript, killAll } from "../support/child-process.js";
import { TEST_SERVER, toolContext } from "./helpers.js";

const HOSTILE_SERVER = join(TEST_SERVER, "..", "hostile-server.mjs");
const node = process.execPath;
// The SDK reaches CommonJS packages (cross-spawn) that an ESM bundle cannot require: it loads from node_modules.
const host = childScript(fileURLToPath(new URL("./hostile-host-child.ts", import.meta.url)), {
  external: ["@modelcontextprotocol/sdk"],
});

let open: McpConnection[] = [];
const connect = async (mode: string, options: Parameters<typeof connectMcpServers>[1] = {}) => {
  const connection = await connectMcpServers(
    { mcpServers: { bad: { command: node, args: [HOSTILE_SERVER, mode] } } },
    { connectTimeoutMs: 15_000, ...options },
  );
  open.push(connection);
  return connection;
};
const names = (mcp: McpConnection) => mcp.tools().map((tool) => tool.name);

beforeAll(() => host.buildChild(), 60_000);
afterEach(async () => {
  await Promise.all(open.map((connection) => connection.close()));
  open = [];
  killAll();
});
afterAll(() => host.removeBundle());

describe("a hostile MCP server", { timeout: 30_000 }, () => {
  it("a tool schema nested 5,000 levels is left out (mcp_schema_too_deep); the host survives a turn, another server's exit and close()", async () => {
    const child = host.startChild([TEST_SERVER, HOSTILE_SERVER, "deep-schema"]);
    const code = await child.exited;
    const records = child.lines.map((line) => JSON.parse(line));
    const step = (key: string) => records.find((record) => key in record)?.[key];
    // Was: an uncaught RangeError (stack overflow) ended the process when the other server exited.
    expect({ code, stderr: child.stderr() }).toMatchObject({
      code: 0,
      stderr: expect.not.stringMatching(/RangeError/),
    });
    expect(step("connected")).toEqual([
      {
        name: "good",
        status: "connected",
        tools: ["mcp__good__greet", "mcp__good__add-tool", "mcp__good__remove-greet"],
        issues: [],
      },
      {
        name: "bad",
        status: "connected",
        tools: ["mcp__bad__echo"],
        issues: [{ code: "mcp_schema_too_deep", tool: "deep", action: "omitted" }],
      },
    ]);
    // Was: every turn failed (the request could not be serialized), for the tools of every server.
    expect(step("run")).toMatchObject({
      status: "completed",
      reason: "end_turn",
      outputs: ["echo: still here", expect.stringContaining("Hello, Ada!")],
    });
    expect(step("run").offered).toContain("mcp__bad__echo");
    expect(step("run").offered).not.toContain("mcp__bad__deep");
    expect(step("afterExit").map((s: { status: string }) => s.status)).toEqual(["failed", "connected"]);
    expect(step("closed").map((s: { status: string }) => s.status)).toEqual(["closed", "closed"]);
  });

  it("a 5,000-level output schema leaves that tool out and the server connected; was: the whole server failed", async () => {
    const mcp = await connect("deep-output-schema");
    const [server] = mcp.servers();
    expect(server).toMatchObject({ status: "connected", toolCount: 1 });
    expect(server!.toolIssues).toEqual([{ action: "omitted", error: expect.any(McpToolLimitError) }]);
    expect(server!.toolIssues[0]!.error).toMatchObject({
      code: "mcp_schema_too_deep",
      server: "bad",
      tool: "deep_output",
    });
    expect(names(mcp)).toEqual(["mcp__bad__echo"]);
    expect(await mcp.tools()[0]!.execute({ text: "ok" }, toolContext())).toBe("echo: ok");
  });

  it("a 1 MB description full of escape and control bytes is cleaned and cut to maxDescriptionChars, and reported", async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
    const mcp = await connect("huge-description", { logger });
    const loud = mcp.tools().find((tool) => tool.name === "mcp__bad__loud")!;
    expect(loud.description).toHaveLength(2048);
    expect(loud.description).toMatch(/^Loud tool\. (IGNORE PREVIOUS INSTRUCTIONS)+I?G?N?O?R?E?.*…$/);
    // No escape, NUL, BEL, backspace, carriage return or right-to-left override reaches the model.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for exactly these
    expect(loud.description).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(mcp.tools().find((tool) => tool.name === "mcp__bad__echo")!.description).toBe("Returns its text.");
    expect(mcp.servers()[0]!.toolIssues.map((issue) => [issue.action, issue.error.code, issue.error.tool])).toEqual([
      ["trimmed", "mcp_description_too_long", "loud"],
    ]);
    expect(warnings.join("\n")).toMatch(/description of tool "loud" had \d+ characters; it was cut to 2048/);

    const tight = await connect("huge-description", { maxDescriptionChars: 40 });
    expect(tight.tools().find((tool) => tool.name === "mcp__bad__loud")!.description).toHaveLength(40);
  });

  it("of 30,000 tools only maxToolsPerServer (default 128) are offered, listing stops early, and the cut is reported", async () => {
    const mcp = await connect("many-tools");
    expect(names(mcp)).toHaveLength(128);
    expect(names(mcp).slice(0, 2)).toEqual(["mcp__bad__echo", "mcp__bad__t0"]);
    const [issue] = mcp.servers()[0]!.toolIssues;
    expect(issue!.error).toMatchObject({ code: "mcp_too_many_tools", server: "bad", tool: undefined });
    // Stopped after the first page of 501: it never fetched the other 29,500.
    expect(issue!.error.message).toContain("offered more than 501 tools; only the first 128 are used");
    expect(mcp.servers()[0]!.toolCount).toBe(128);

    const few = await connect("many-tools", { maxToolsPerServer: 5 });
    expect(names(few)).toEqual(["mcp__bad__echo", "mcp__bad__t0", "mcp__bad__t1", "mcp__bad__t2", "mcp__bad__t3"]);
  });

  it("tools/list pages that never end stop at the tool cap: connect resolves; was: the listing never ended", async () => {
    const mcp = await connect("endless-pages", { maxToolsPerServer: 20 });
    expect(mcp.servers()[0]).toMatchObject({ status: "connected", toolCount: 20 });
    expect(mcp.servers()[0]!.toolIssues[0]!.error.code).toBe("mcp_too_many_tools");
  });

  it("a limit that is not a positive integer or Infinity is a ConfigError", async () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      await expect(connect("many-tools", { maxToolsPerServer: bad })).rejects.toBeInstanceOf(ConfigError);
    }
  });
});
