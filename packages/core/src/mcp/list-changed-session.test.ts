// A session whose tools come from a real MCP server (a child process): a tools/list_changed that arrives in the
// middle of one send reaches the next model call of that same send.
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentTool, getToolResults, toolOutputText } from "@heddle/shared";
import { afterEach, describe, expect, it } from "vitest";
import { TEST_SERVER, waitFor } from "../../test/mcp/helpers.js";
import { MemorySessionStore } from "../backends/memory/index.js";
import { createSession } from "../sessions/create-session.js";
import { connectMcpServers, type McpConnection, withMcpTools } from "./connection.js";

let mcp: McpConnection | undefined;
afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
});

describe("MCP tools within one send", { timeout: 20_000 }, () => {
  it("a tool the server adds mid-send is offered on the next model call and runs in the same send", async () => {
    mcp = await connectMcpServers({ mcpServers: { t: { command: process.execPath, args: [TEST_SERVER, "stdio"] } } });
    const connection = mcp;
    // Waits (in the same round of calls) until the server's new list has arrived, so the test does not race it.
    const settle: AgentTool = {
      name: "settle",
      description: "waits for the tool list to change",
      inputSchema: { type: "object" },
      readOnly: true,
      execute: async () => String(await waitFor(() => connection.tools().some((t) => t.name === "mcp__t__late"))),
    };
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "add", name: "mcp__t__add-tool", input: { name: "late" } },
          { id: "wait", name: "settle", input: {} },
        ],
      },
      { toolCalls: [{ id: "use", name: "mcp__t__late", input: {} }] },
      { text: "done" },
    ]);
    const session = await createSession({
      model,
      store: new MemorySessionStore(),
      tools: withMcpTools([settle], mcp),
      toolPolicies: { "*": { autoApprove: true } },
      compaction: false,
    });
    const result = await session.send("add a tool and use it");
    await session.close();

    expect(model.requests[0]!.tools.map((t) => t.name)).not.toContain("mcp__t__late");
    expect(model.requests[1]!.tools.map((t) => t.name)).toContain("mcp__t__late");
    const used = result.newMessages.flatMap(getToolResults).find((r) => r.toolCallId === "use");
    expect(used?.isError).toBeUndefined();
    expect(toolOutputText(used!.output)).toBe("I am late");
  });
});
