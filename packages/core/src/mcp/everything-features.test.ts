// What the client offers servers and takes from them besides tools, against the real
// @modelcontextprotocol/server-everything over stdio: roots, sampling, elicitation, resources (list, templates,
// read, subscribe), prompts and server log messages. Also the clean decline, with the SDK-based test server.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createScriptedModel } from "@heddle/llms/testing";
import type { Logger } from "@heddle/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVERYTHING_SERVER, TEST_SERVER, toolContext, waitFor } from "../../test/mcp/helpers.js";
import { connectMcpServers, type McpConnection, type McpConnectOptions } from "./connection.js";
import type { McpElicitationRequest } from "./elicitation.js";
import { promptMessagesToAgentMessages } from "./prompts.js";
import { createMcpResourceTools } from "./resource-tools.js";
import type { McpSamplingRequest } from "./sampling.js";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "heddle-mcp-features-")));
const everything = { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] };
const open: McpConnection[] = [];
afterAll(async () => {
  await Promise.all(open.map((connection) => connection.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function connect(options: McpConnectOptions, server: object = everything): Promise<McpConnection> {
  const connection = await connectMcpServers(
    { mcpServers: { everything: server as typeof everything } },
    { connectTimeoutMs: 20_000, callTimeoutMs: 10_000, ...options },
  );
  open.push(connection);
  expect(connection.servers()[0]).toMatchObject({ status: "connected" });
  return connection;
}

/** Calls a tool of server-everything directly and returns its text. */
async function call(connection: McpConnection, name: string, input: unknown = {}): Promise<string> {
  const tool = connection.tools().find((t) => t.mcp.tool === name);
  if (!tool) throw new Error(`no tool ${name} in ${connection.tools().map((t) => t.mcp.tool)}`);
  const output = await tool.execute(input, toolContext());
  return typeof output === "string" ? output : JSON.stringify(output);
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (line: string) => lines.push(`${level} ${line}`);
  return { lines, debug: push("debug"), info: push("info"), warn: push("warn"), error: push("error") };
}

describe("capabilities are declared only when served", { timeout: 30_000 }, () => {
  it("without roots, sampling and elicitation the server offers none of the tools that need them", async () => {
    const bare = await connect({});
    const names = bare.tools().map((t) => t.mcp.tool);
    expect(names).toContain("echo");
    expect(names).not.toContain("get-roots-list");
    expect(names).not.toContain("trigger-sampling-request");
    expect(names).not.toContain("trigger-elicitation-request");
  });

  it("a server that asks for input anyway gets a clean decline, not Method not found", async () => {
    const connection = await connect(
      { roots: false },
      { command: process.execPath, args: [TEST_SERVER, "stdio"], env: { MCP_ASK_ANYWAY: "1" } },
    );
    expect(JSON.parse(await call(connection, "ask-anyway"))).toEqual({ action: "decline" });
  });
});

describe("roots", { timeout: 30_000 }, () => {
  it("tells the server the roots given, and the new ones after setRoots", async () => {
    const first = join(dir, "first");
    const connection = await connect({ roots: [first, { uri: "file:///srv/data", name: "data" }] });
    const listed = await call(connection, "get-roots-list");
    expect(listed).toContain(pathToFileURL(first).href);
    expect(listed).toContain("file:///srv/data");
    await connection.setRoots([join(dir, "second")]);
    // The server asks for the roots again when told they changed: ask it until it has.
    let after = "";
    for (let i = 0; i < 100 && !after.includes("second"); i++) after = await call(connection, "get-roots-list");
    expect(after).toContain(pathToFileURL(join(dir, "second")).href);
    expect(after).not.toContain("file:///srv/data");
  });
});

describe("sampling", { timeout: 30_000 }, () => {
  it("answers the server's sampling request with the host's model, capped to maxTokens, and counts its cost", async () => {
    const model = createScriptedModel([{ text: "Paris.", usage: { inputTokens: 1_000_000, outputTokens: 0 } }], {
      info: {
        provider: "scripted",
        id: "scripted-model",
        contextWindow: 1000,
        maxOutputTokens: 100,
        pricing: { input: 2, output: 10 },
        supports: { tools: true, reasoning: false, images: false },
      },
    });
    const asked: McpSamplingRequest[] = [];
    const connection = await connect({
      sampling: {
        model,
        maxTokens: 50,
        approve: (request) => {
          asked.push(request);
          return true;
        },
      },
    });
    const text = await call(connection, "trigger-sampling-request", { prompt: "Capital of France?", maxTokens: 500 });
    expect(text).toContain("Paris.");
    expect(text).toContain('"model": "scripted-model"');
    expect(asked[0]).toMatchObject({ server: "everything" });
    const request = model.requests[0]!;
    expect(request.systemPrompt).toBe("You are a helpful test server.");
    expect(request.options?.maxTokens).toBe(50);
    expect(request.messages[0]?.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("France") });
    expect(connection.samplingUsage().costUsd).toBeCloseTo(2);
  });

  it("refuses a request the approver declines, and any request once the budget is spent", async () => {
    const model = createScriptedModel([{ text: "spent", usage: { inputTokens: 10, outputTokens: 10, costUsd: 1 } }]);
    let allow = false;
    const connection = await connect({ sampling: { model, maxBudgetUsd: 0.5, approve: () => allow } });
    await expect(call(connection, "trigger-sampling-request", { prompt: "hi" })).rejects.toThrow(/rejected/i);
    expect(model.requests).toHaveLength(0);
    allow = true;
    expect(await call(connection, "trigger-sampling-request", { prompt: "hi" })).toContain("spent");
    await expect(call(connection, "trigger-sampling-request", { prompt: "again" })).rejects.toThrow(/budget/);
    expect(model.requests).toHaveLength(1);
  });
});

describe("elicitation", { timeout: 30_000 }, () => {
  it("hands the server's form to onElicitation and returns the person's answer, defaults filled in", async () => {
    const asked: McpElicitationRequest[] = [];
    const connection = await connect({
      onElicitation: async (request) => {
        asked.push(request);
        return { action: "accept", content: { name: "Ada Lovelace", check: true, integer: 3 } };
      },
    });
    const text = await call(connection, "trigger-elicitation-request");
    expect(asked[0]?.server).toBe("everything");
    expect(asked[0]?.message).toMatch(/provide inputs/);
    expect(Object.keys(asked[0]?.requestedSchema.properties ?? {})).toContain("email");
    expect(text).toContain("Ada Lovelace");
    // `firstLine` was left empty: the schema's default went back to the server.
    expect(text).toContain("It was a dark and stormy night.");
  });

  it("a declined form reaches the server as a decline", async () => {
    const connection = await connect({ onElicitation: async () => ({ action: "decline" }) });
    expect(await call(connection, "trigger-elicitation-request")).toMatch(/declined/i);
  });
});

describe("resources, prompts and server logs", { timeout: 30_000 }, () => {
  let connection: McpConnection;
  const logger = recordingLogger();
  beforeAll(async () => {
    connection = await connect({ logger, serverLogLevel: "debug" });
  }, 30_000);

  it("lists resources and templates of every server, and reads one", async () => {
    const resources = await connection.listResources();
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((r) => r.server === "everything")).toBe(true);
    const templates = await connection.listResourceTemplates("everything");
    expect(templates.map((t) => t.uriTemplate).join(" ")).toContain("{");
    const first = resources[0]!;
    const contents = await connection.readResource("everything", first.uri);
    expect(contents[0]).toMatchObject({ uri: first.uri });
    expect("text" in contents[0]! || "blob" in contents[0]!).toBe(true);
  });

  it("calls a subscriber on notifications/resources/updated; the server's log messages reach the logger", async () => {
    const [resource] = await connection.listResources();
    const updates: string[] = [];
    const unsubscribe = await connection.subscribeResource("everything", resource!.uri, (update) =>
      updates.push(update.uri),
    );
    await call(connection, "toggle-subscriber-updates");
    expect(await waitFor(() => updates.length > 0, 10_000)).toBe(true);
    expect(updates[0]).toBe(resource!.uri);
    expect(logger.lines.some((line) => line.startsWith("info mcp everything") && line.includes("Subscribe"))).toBe(
      true,
    );
    await unsubscribe();
    await call(connection, "toggle-subscriber-updates");
  });

  it("lists prompts and fills one in; its messages become Heddle messages", async () => {
    const prompts = await connection.listPrompts();
    const args = prompts.find((p) => p.name === "args-prompt");
    expect(args?.arguments?.map((a) => a.name)).toEqual(["city", "state"]);
    const result = await connection.getPrompt("everything", "args-prompt", { city: "Paris", state: "TX" });
    const [message] = promptMessagesToAgentMessages(result);
    expect(message).toMatchObject({ role: "user", content: [{ type: "text", text: "What's weather in Paris, TX?" }] });
  });

  it("offers resources to the model as two read-only tools", async () => {
    const [list, read] = createMcpResourceTools(connection);
    expect([list?.name, read?.readOnly]).toEqual(["mcp_list_resources", true]);
    const [resource] = await connection.listResources();
    expect(await list!.execute({}, toolContext())).toContain(resource!.uri);
    const output = await read!.execute({ server: "everything", uri: resource!.uri }, toolContext());
    expect(JSON.stringify(output)).toContain(resource!.uri);
  });
});
