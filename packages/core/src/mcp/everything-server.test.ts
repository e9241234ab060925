// Against the real @modelcontextprotocol/server-everything, started over stdio through an npx-like launcher that
// records every byte the server is sent.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScriptedModel } from "@heddle/llms/testing";
import type { ImagePart, TextPart } from "@heddle/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVERYTHING_SERVER, toolContext, WRAPPER, waitFor } from "../../test/mcp/helpers.js";
import { MemorySessionStore } from "../backends/memory/index.js";
import { createSession } from "../sessions/create-session.js";
import { connectMcpServers, type McpConnection, withMcpTools } from "./connection.js";
import { McpToolError } from "./errors.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-mcp-everything-"));
const record = join(dir, "sent.jsonl");
let mcp: McpConnection;

beforeAll(async () => {
  mcp = await connectMcpServers(
    {
      mcpServers: {
        everything: {
          command: process.execPath,
          args: [WRAPPER, process.execPath, EVERYTHING_SERVER, "stdio"],
          env: { MCP_RECORD: record },
        },
      },
    },
    { connectTimeoutMs: 20_000, callTimeoutMs: 10_000 },
  );
}, 30_000);
afterAll(async () => {
  await mcp?.close();
  rmSync(dir, { recursive: true, force: true });
});

const tool = (name: string) => {
  const found = mcp.tools().find((t) => t.name === `mcp__everything__${name}`);
  if (!found)
    throw new Error(
      `no tool ${name} in ${mcp
        .tools()
        .map((t) => t.name)
        .join(", ")}`,
    );
  return found;
};

/** Every JSON-RPC message the server was sent, from the launcher's record. */
const sentMessages = () =>
  existsSync(record)
    ? readFileSync(record, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { id?: number; method?: string; params?: any })
    : [];

describe("MCP client against server-everything (stdio)", { timeout: 20_000 }, () => {
  it("connects and lists its tools as mcp__everything__<tool> with their JSON Schemas", () => {
    expect(mcp.servers()).toMatchObject([{ name: "everything", status: "connected" }]);
    const names = mcp.tools().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["mcp__everything__echo", "mcp__everything__get-sum"]));
    expect(mcp.servers()[0]!.toolCount).toBe(names.length);
    expect(tool("get-sum").inputSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
    });
    expect(tool("echo").mcp).toEqual({ server: "everything", tool: "echo" });
    // The per-call timeout is the tool's own, which the loop enforces (and turns into a cancellation).
    expect(tool("echo").timeoutMs).toBe(10_000);
  });

  it("calls echo and get-sum and returns their text", async () => {
    expect(await tool("echo").execute({ message: "hi there" }, toolContext())).toBe("Echo: hi there");
    expect(await tool("get-sum").execute({ a: 2, b: 40 }, toolContext())).toContain("42");
  });

  it("maps an image result to an image part next to its text", async () => {
    const output = (await tool("get-tiny-image").execute({}, toolContext())) as Array<TextPart | ImagePart>;
    const image = output.find((p): p is ImagePart => p.type === "image");
    expect(image?.mediaType).toBe("image/png");
    expect(Buffer.from(image!.data, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(output.some((p) => p.type === "text")).toBe(true);
  });

  it("maps an embedded resource to text headed by its URI", async () => {
    const output = await tool("get-resource-reference").execute({}, toolContext());
    expect(output).toMatch(/\[resource <demo:\/\/resource\/[^>]+> text\/plain\]\nResource 1:/);
  });

  it("throws the server's text for an isError result (the loop makes it an error result)", async () => {
    const error = (await Promise.resolve(tool("get-sum").execute({ a: "two" }, toolContext())).catch(
      (e: unknown) => e,
    )) as McpToolError;
    expect(error).toBeInstanceOf(McpToolError);
    expect(error.code).toBe("mcp_tool_error");
    expect(error.message).toMatch(/Input validation error/);
  });

  it("cancels a long-running call when the run is aborted: the call ends at once and the server gets notifications/cancelled", async () => {
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: "long", name: "mcp__everything__trigger-long-running-operation", input: { duration: 30, steps: 60 } },
        ],
      },
      { text: "not reached" },
    ]);
    const session = await createSession({
      store: new MemorySessionStore(),
      model,
      compaction: false,
      tools: withMcpTools([], mcp),
      toolPolicies: { "*": { autoApprove: true } },
    });
    const stream = session.stream("run the long operation");
    let abortedAt = 0;
    const progress: unknown[] = [];
    for await (const event of stream) {
      // The first progress notification proves the server is inside the operation; then the user stops the run.
      if (event.type === "tool-updated" && abortedAt === 0) {
        progress.push(event.update);
        abortedAt = Date.now();
        session.abort("user stop");
      }
    }
    const result = await stream.result;
    const endedAfter = Date.now() - abortedAt;
    expect(progress[0]).toMatchObject({ kind: "mcp-progress", progress: 1, total: 60 });
    expect(result.status).toBe("aborted");
    // The operation had 29 more seconds to run; the call ended with the abort.
    expect(endedAfter).toBeLessThan(5000);
    const call = sentMessages().find(
      (m) => m.method === "tools/call" && m.params?.name === "trigger-long-running-operation",
    );
    expect(call?.id).toBeTypeOf("number");
    const cancelled = () =>
      sentMessages().some((m) => m.method === "notifications/cancelled" && m.params?.requestId === call!.id);
    expect(await waitFor(cancelled, 3000)).toBe(true);
    await session.close();
  });
});
