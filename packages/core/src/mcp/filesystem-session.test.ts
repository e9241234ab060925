// A session on a scripted model uses the real @modelcontextprotocol/server-filesystem over stdio: its tools go
// through the session's approvals like built-in tools, work inside the allowed folder and are refused outside it.
// The server is started with no folder: the folder it may use is the root the client declares (`roots`).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScriptedModel } from "@heddle/llms/testing";
import { getToolResults, type ToolApprovalRequest } from "@heddle/shared";
import { afterEach, describe, expect, it } from "vitest";
import { FILESYSTEM_SERVER } from "../../test/mcp/helpers.js";
import { MemorySessionStore } from "../backends/memory/index.js";
import { createSession } from "../sessions/create-session.js";
import { connectMcpServers, type McpConnection, withMcpTools } from "./connection.js";

const root = realpathSync(mkdtempSync(join(tmpdir(), "heddle-mcp-fs-")));
const allowed = join(root, "allowed");
const outside = join(root, "outside");
mkdirSync(allowed);
mkdirSync(outside);
let mcp: McpConnection | undefined;
afterEach(async () => {
  await mcp?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("a session with server-filesystem", { timeout: 20_000 }, () => {
  it("writes and reads a file in the root the client declares and is refused outside it", async () => {
    mcp = await connectMcpServers(
      { mcpServers: { fs: { command: process.execPath, args: [FILESYSTEM_SERVER] } } },
      { roots: [allowed] },
    );
    expect(mcp.servers()[0]).toMatchObject({ status: "connected" });
    const notes = join(allowed, "notes.txt");
    const model = createScriptedModel([
      { toolCalls: [{ id: "w", name: "mcp__fs__write_file", input: { path: notes, content: "hello from heddle" } }] },
      { toolCalls: [{ id: "r", name: "mcp__fs__read_text_file", input: { path: notes } }] },
      { toolCalls: [{ id: "x", name: "mcp__fs__write_file", input: { path: join(outside, "x.txt"), content: "no" } }] },
      { text: "done" },
    ]);
    const asked: string[] = [];
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      compaction: false,
      tools: withMcpTools([], mcp),
      requestToolApproval: async (request: ToolApprovalRequest) => {
        asked.push(request.toolCall.toolName);
        return { approved: true };
      },
    });
    const result = await session.send("keep a note");
    await session.close();

    expect(result.status).toBe("completed");
    expect(result.outputText).toBe("done");
    expect(asked).toEqual(["mcp__fs__write_file", "mcp__fs__read_text_file", "mcp__fs__write_file"]);
    expect(readFileSync(notes, "utf8")).toBe("hello from heddle");
    const results = result.newMessages.flatMap((m) => getToolResults(m));
    const byId = Object.fromEntries(results.map((r) => [r.toolCallId, r]));
    expect(byId.w?.isError).toBeFalsy();
    expect(byId.r).toMatchObject({ output: "hello from heddle" });
    expect(byId.r?.isError).toBeFalsy();
    expect(byId.x?.isError).toBe(true);
    expect(JSON.stringify(byId.x?.output)).toMatch(/Access denied - path outside allowed directories/);
    expect(existsSync(join(outside, "x.txt"))).toBe(false);
    // The model saw the MCP tools with their schemas.
    expect(model.requests[0]!.tools.map((t) => t.name)).toContain("mcp__fs__read_text_file");
  });
});
