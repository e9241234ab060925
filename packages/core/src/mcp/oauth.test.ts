// OAuth 2.1 sign-in to an HTTP server, against a loopback server with its own authorization server
// (test/mcp/oauth-server.mjs) in a child process: discovery, dynamic registration, PKCE, the host's redirect
// handler and token store, refresh, and what is refused.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAUTH_SERVER, toolContext } from "../../test/mcp/helpers.js";
import type { McpServerConfig } from "./config.js";
import { connectMcpServers, type McpConnection, type McpConnectOptions } from "./connection.js";
import { FileMcpOAuthStore, type McpOAuthStore, MemoryMcpOAuthStore } from "./oauth.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-mcp-oauth-"));
let server: ChildProcess;
let base = "";
const open: McpConnection[] = [];

beforeAll(async () => {
  server = spawn(process.execPath, [OAUTH_SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  const first = await new Promise<string>((resolve) =>
    createInterface({ input: server.stdout! }).once("line", resolve),
  );
  base = `http://127.0.0.1:${(JSON.parse(first) as { port: number }).port}`;
});
afterAll(async () => {
  await Promise.all(open.map((connection) => connection.close()));
  server?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const stats = async () =>
  (await (await fetch(`${base}/control/stats`)).json()) as { authorizations: number; refreshGrants: number };

/** The person's browser: follows the sign-in page to the redirect URI and hands back where it landed. */
const browser = (opened: URL[]) => async (url: URL) => {
  opened.push(url);
  const response = await fetch(url, { redirect: "manual" });
  return response.headers.get("location") ?? "";
};

async function connect(options: McpConnectOptions, config: Partial<McpServerConfig> = {}): Promise<McpConnection> {
  const connection = await connectMcpServers(
    { mcpServers: { secured: { url: `${base}/mcp`, ...config } as McpServerConfig } },
    { roots: false, connectTimeoutMs: 10_000, ...options },
  );
  open.push(connection);
  return connection;
}

const whoami = (connection: McpConnection) => connection.tools()[0]!.execute({}, toolContext());

describe("OAuth sign-in to an HTTP server", { timeout: 30_000 }, () => {
  it("signs in through onAuthorizationUrl with PKCE; the file store keeps the tokens, so the next connect needs no browser", async () => {
    const storePath = join(dir, "oauth.json");
    const opened: URL[] = [];
    const first = await connect({
      onAuthorizationUrl: browser(opened),
      oauthStore: new FileMcpOAuthStore({ path: storePath }),
    });
    expect(first.servers()[0]).toMatchObject({ status: "connected" });
    expect(await whoami(first)).toMatch(/^token at-\d+$/);
    expect(opened).toHaveLength(1);
    expect(opened[0]!.searchParams.get("code_challenge_method")).toBe("S256");
    expect(opened[0]!.searchParams.get("redirect_uri")).toBe("http://localhost:33418/callback");
    // Tokens are secrets: only the owner may read the file.
    expect(statSync(storePath).mode & 0o777).toBe(0o600);

    const again = await connect({
      onAuthorizationUrl: browser(opened),
      oauthStore: new FileMcpOAuthStore({ path: storePath }),
    });
    expect(again.servers()[0]).toMatchObject({ status: "connected" });
    expect(opened).toHaveLength(1);
    expect((await stats()).authorizations).toBe(1);
  });

  it("refreshes an access token the server no longer takes, without the browser", async () => {
    const store: McpOAuthStore = new MemoryMcpOAuthStore();
    const opened: URL[] = [];
    const first = await connect({ onAuthorizationUrl: browser(opened), oauthStore: store });
    const before = await whoami(first);
    const refreshes = (await stats()).refreshGrants;
    await fetch(`${base}/control/revoke-access`, { method: "POST" });
    const second = await connect({ onAuthorizationUrl: browser(opened), oauthStore: store });
    expect(second.servers()[0]).toMatchObject({ status: "connected" });
    expect(await whoami(second)).not.toBe(before);
    expect(opened).toHaveLength(1);
    expect((await stats()).refreshGrants).toBe(refreshes + 1);
  });

  it("refuses a callback whose state does not match the request", async () => {
    const forged = async (url: URL) => {
      const landed = new URL((await fetch(url, { redirect: "manual" })).headers.get("location") ?? "");
      landed.searchParams.set("state", "forged");
      return landed.href;
    };
    const connection = await connect({ onAuthorizationUrl: forged });
    expect(connection.servers()[0]).toMatchObject({ status: "failed", error: expect.stringContaining("state") });
  });

  it("without onAuthorizationUrl, a server that needs sign-in fails and says so", async () => {
    const connection = await connect({}, { oauth: {} });
    expect(connection.servers()[0]).toMatchObject({
      status: "failed",
      error: expect.stringContaining("needs you to sign in"),
    });
  });
});

describe("HTTP transport errors", { timeout: 30_000 }, () => {
  it("when streamable HTTP and the SSE fallback both fail, the error names both", async () => {
    // A port nobody listens on: taken, then freed.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const connection = await connectMcpServers(
      { mcpServers: { gone: { url: `http://127.0.0.1:${port}/mcp` } } },
      { roots: false, connectTimeoutMs: 5_000 },
    );
    open.push(connection);
    const { error } = connection.servers()[0]!;
    expect(error).toMatch(/streamable HTTP failed \(.*ECONNREFUSED.*\), and so did the HTTP\+SSE fallback \(.+\)/);
  });
});
