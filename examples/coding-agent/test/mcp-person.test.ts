// What heddle-code does when MCP servers ask the person: forms asked field by field at the prompt, sampling asked
// about, sign-in through a loopback listener with the browser opened or the URL printed. End to end against the real
// @modelcontextprotocol/server-everything with heddle-code's own connect options.
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectMcpServers, type McpConnection } from "@heddle/core";
import { createScriptedModel } from "@heddle/llms/testing";
import { afterAll, describe, expect, it } from "vitest";
import { hostMcpOptions, type McpPersonLink } from "../src/mcp.js";
import { askElicitation, signInWithBrowser } from "../src/mcp-person.js";

const require = createRequire(import.meta.url);
// The real server is a devDependency of @heddle/core: resolved from there.
const core = fileURLToPath(new URL("../../../packages/core/", import.meta.url));
const everything = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json", { paths: [core] })),
  "dist",
  "index.js",
);
const open: McpConnection[] = [];
afterAll(async () => {
  await Promise.all(open.map((connection) => connection.close()));
});

/** A person who answers from a script, and what they were asked. */
function person(answers: string[]) {
  const asked: string[] = [];
  const link: McpPersonLink = {
    ask: async (question) => {
      asked.push(question);
      return answers.shift() ?? "";
    },
  };
  return { link, asked };
}

const context = () => ({
  toolCallId: "c",
  signal: new AbortController().signal,
  metadata: {},
  emitUpdate: () => {},
  runId: "r",
  agentId: "a",
  reportUsage: () => {},
});

describe("heddle-code and what MCP servers ask", { timeout: 30_000 }, () => {
  it("asks a server's form field by field, asks again on a bad value, and sends the answers back", async () => {
    // Answer it; name; check: "maybe" is refused, then yes; the rest left empty (defaults fill in).
    const { link, asked } = person(["y", "Ada", "maybe", "y"]);
    const said: string[] = [];
    const connection = await connectMcpServers(
      { mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] } } },
      hostMcpOptions({
        workspaceRoot: process.cwd(),
        model: createScriptedModel([]),
        interactive: true,
        yes: false,
        person: link,
        say: (line) => said.push(line),
      }),
    );
    open.push(connection);
    const tool = connection.tools().find((t) => t.mcp.tool === "trigger-elicitation-request")!;
    const output = JSON.stringify(await tool.execute({}, context()));
    expect(said[0]).toContain('MCP server "everything" asks:');
    expect(asked[1]).toContain("Your full, legal name");
    expect(said).toContain("not a valid yes/no");
    expect(output).toContain("Ada");
    expect(output).toContain("It was a dark and stormy night.");
  });

  it("asks before a server's sampling request reaches the model; a no refuses it", async () => {
    const model = createScriptedModel([{ text: "sampled answer" }]);
    const { link } = person(["n", "y"]);
    const connection = await connectMcpServers(
      { mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] } } },
      hostMcpOptions({
        workspaceRoot: process.cwd(),
        model,
        interactive: true,
        yes: false,
        person: link,
        say: () => {},
      }),
    );
    open.push(connection);
    const tool = connection.tools().find((t) => t.mcp.tool === "trigger-sampling-request")!;
    await expect(tool.execute({ prompt: "hello" }, context())).rejects.toThrow(/rejected/);
    expect(JSON.stringify(await tool.execute({ prompt: "hello" }, context()))).toContain("sampled answer");
    expect(model.requests).toHaveLength(1);
  });

  it("a declined form goes back as a decline", async () => {
    const result = await askElicitation(
      {
        server: "s",
        message: "m",
        requestedSchema: { type: "object", properties: {} },
        signal: new AbortController().signal,
      },
      async () => "n",
      () => {},
    );
    expect(result).toEqual({ action: "decline" });
  });

  it("signs in: listens on the redirect URI, opens the page (or prints it), returns where the browser came back", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const redirectUrl = `http://127.0.0.1:${port}/callback`;
    const said: string[] = [];
    // No browser here: the "opener" fails, so the URL is printed; the person's browser then comes back.
    const came = signInWithBrowser(
      new URL("https://auth.example/authorize?x=1"),
      { server: "docs", redirectUrl },
      (line) => said.push(line),
      async () => false,
    );
    await expect.poll(() => said.length).toBe(1);
    expect(said[0]).toBe('MCP server "docs" needs you to sign in: open https://auth.example/authorize?x=1');
    const page = await fetch(`${redirectUrl}?code=abc&state=s1`);
    expect(await page.text()).toContain("signed in");
    expect(await came).toBe(`${redirectUrl}?code=abc&state=s1`);
    // The listener is gone once the callback came.
    await expect(fetch(redirectUrl)).rejects.toThrow();
  });
});
