// MCP: start a server from npm over stdio, give its tools to a session next to your own, close it when done.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { connectMcpServers, createSession, MemorySessionStore, withMcpTools } from "@heddle/core";
import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentModel } from "@heddle/shared";

// The server's entry as installed in node_modules. In your project, `{command: "npx", args: ["-y",
// "@modelcontextprotocol/server-filesystem", folder]}` does the same (npx downloads it on first use).
const filesystemServer = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-filesystem/package.json")),
  "dist/index.js",
);

export async function main(
  model: AgentModel = createScriptedModel([
    { toolCalls: [{ name: "mcp__files__read_text_file", input: { path: "notes.txt" } }] },
    { text: "The note says: buy milk." },
  ]),
) {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), "heddle-mcp-recipe-")));
  writeFileSync(join(folder, "notes.txt"), "buy milk");
  const mcp = await connectMcpServers({
    // The server may only touch `folder`; relative paths resolve against its cwd.
    mcpServers: { files: { command: process.execPath, args: [filesystemServer, folder], cwd: folder } },
  });
  try {
    for (const server of mcp.servers()) console.log(`${server.name}: ${server.status}, ${server.toolCount} tools`);
    mcp.onStatusChange((change) => console.log(change.message)); // e.g. the server died: its tools are gone
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      // Called at each turn: MCP tools come and go with their servers.
      tools: withMcpTools([], mcp),
      // MCP tools go through the same policies, approvals and hooks as built-in tools.
      toolPolicies: { mcp__files__read_text_file: { autoApprove: true } },
    });
    const result = await session.send("What does notes.txt say?");
    console.log(result.outputText);
    await session.close();
    return { result, mcp };
  } finally {
    await mcp.close(); // ends the server process and anything it started
    rmSync(folder, { recursive: true, force: true });
  }
}
