// A small MCP server on the SDK's server classes, for tests: `node test-server.mjs stdio`, `... http` (streamable
// HTTP) or `... sse` (the older HTTP+SSE), the last two on 127.0.0.1, a free port, printed as {"port": N} on stdout.
// Tools: `greet {name}`; `add-tool {name}` registers a new tool, so the server sends tools/list_changed;
// `remove-greet` removes `greet` (list_changed too). With MCP_ASK_ANYWAY=1, `ask-anyway` sends `elicitation/create`
// whatever the client declared and returns the client's answer as JSON. MCP_LINGER=1 (stdio): ignore stdin's end and keep running.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

function buildServer() {
  const server = new McpServer(
    { name: "heddle-test-server", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true } } },
  );
  const greet = server.registerTool(
    "greet",
    { description: "Greets someone.", inputSchema: { name: z.string() } },
    async ({ name }) => ({ content: [{ type: "text", text: `Hello, ${name}! (pid ${process.pid})` }] }),
  );
  server.registerTool(
    "add-tool",
    { description: "Adds a tool named `name` that returns its name.", inputSchema: { name: z.string() } },
    async ({ name }) => {
      server.registerTool(name, { description: `Added at run time: ${name}.`, inputSchema: {} }, async () => ({
        content: [{ type: "text", text: `I am ${name}` }],
      }));
      return { content: [{ type: "text", text: `added ${name}` }] };
    },
  );
  if (process.env.MCP_ASK_ANYWAY)
    server.registerTool(
      "ask-anyway",
      { description: "Asks the person, declared or not.", inputSchema: {} },
      async () => {
        const answer = await server.server.request(
          {
            method: "elicitation/create",
            params: {
              message: "Your name?",
              requestedSchema: { type: "object", properties: { name: { type: "string" } } },
            },
          },
          ElicitResultSchema,
        );
        return { content: [{ type: "text", text: JSON.stringify(answer) }] };
      },
    );
  server.registerTool("remove-greet", { description: "Removes greet.", inputSchema: {} }, async () => {
    greet.remove();
    return { content: [{ type: "text", text: "greet removed" }] };
  });
  return server;
}

if (process.argv[2] === "http") {
  const transports = new Map();
  const http = createServer(async (req, res) => {
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? transports.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
        // A client that ends its session (HTTP DELETE) is announced on stdout, for the tests.
        onsessionclosed: (sessionId) => process.stdout.write(`${JSON.stringify({ sessionClosed: sessionId })}\n`),
      });
      await buildServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  http.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: http.address().port })}\n`));
} else if (process.argv[2] === "sse") {
  // The older HTTP+SSE transport only: GET /sse opens the stream, POST /messages carries requests. A POST to /sse
  // (a streamable HTTP handshake) gets 405, as from servers of that time.
  const transports = new Map();
  const http = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      transports.set(transport.sessionId, transport);
      await buildServer().connect(transport);
    } else if (req.method === "POST" && url.pathname === "/messages") {
      await transports.get(url.searchParams.get("sessionId"))?.handlePostMessage(req, res);
    } else {
      res.writeHead(405).end();
    }
  });
  http.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: http.address().port })}\n`));
} else {
  await buildServer().connect(new StdioServerTransport());
  // MCP_LINGER=1: keep running after stdin ends, like a server with timers of its own.
  if (process.env.MCP_LINGER) setInterval(() => {}, 1000);
}
