import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpConfigSources } from "../src/mcp.js";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const testServer = fileURLToPath(new URL("../../../packages/core/test/mcp/test-server.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "heddle-code-mcp-"));
const session = `heddle-mcp-test-${process.pid}`;
const marker = `heddle-mcp-marker-${process.pid}`;

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
});
afterAll(() => {
  spawnSync("tmux", ["kill-session", "-t", session]);
  // Should the test fail midway, end the server it started (found by its unique marker argument).
  const left = spawnSync("pgrep", ["-f", marker], { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
  for (const pid of left) process.kill(Number(pid), "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe("which MCP configs heddle-code reads", () => {
  it("reads the workspace's .heddle/mcp.json only with --trust, and a --mcp-config file always", () => {
    const workspace = join(dir, "ws");
    mkdirSync(join(workspace, ".heddle"), { recursive: true });
    const own = join(workspace, ".heddle", "mcp.json");
    writeFileSync(own, JSON.stringify({ mcpServers: {} }));
    const never = () => false;
    expect(mcpConfigSources({ trust: false }, workspace, never)).toEqual({ files: [], untrustedWorkspaceConfig: own });
    expect(mcpConfigSources({ trust: true }, workspace, never)).toEqual({ files: [own] });
    // A folder the user trusted before (same files) loads its config without --trust.
    expect(mcpConfigSources({ trust: false }, workspace, (folder) => folder === workspace)).toEqual({ files: [own] });
    const named = join(dir, "mine.json");
    expect(mcpConfigSources({ trust: false, mcpConfig: named }, workspace, never)).toEqual({
      files: [named],
      untrustedWorkspaceConfig: own,
    });
  });
});

const tmux = (...args: string[]) => execFileSync("tmux", args, { encoding: "utf8" });
const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", session);
const type = (text: string) => {
  tmux("send-keys", "-t", session, "-l", text);
  tmux("send-keys", "-t", session, "Enter");
};
async function waitFor(check: (text: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const text = screen();
    if (check(text)) return text;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const running = () => spawnSync("pgrep", ["-f", marker]).status === 0;

it("/mcp lists the servers of --mcp-config with their status and tools; /tools shows MCP tools; exit ends them", async () => {
  const config = join(dir, "mcp.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        local: { command: process.execPath, args: [testServer, "stdio", marker] },
        broken: { command: join(dir, "no-such-server") },
      },
    }),
  );
  tmux(
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    "160",
    "-y",
    "50",
    `NO_COLOR=1 node ${cli} --demo -i --mcp-config ${config}`,
  );
  let text = await waitFor((s) => s.includes("› "), "the prompt");
  expect(text).toMatch(/MCP server "broken" failed/);
  expect(running()).toBe(true);

  type("/mcp");
  text = await waitFor((s) => s.includes("local  connected  3 tools"), "/mcp");
  expect(text).toContain("mcp__local__greet");
  expect(text).toContain("mcp__local__add-tool");
  expect(text).toMatch(/broken {2}failed {2}0 tools\n\s+error: could not start/);

  type("/tools");
  text = await waitFor((s) => s.includes("(MCP server local)"), "/tools");
  expect(text).toMatch(/mcp__local__greet\s+asks {2}\(MCP server local\)/);

  tmux("send-keys", "-t", session, "C-c");
  tmux("send-keys", "-t", session, "C-c");
  const start = Date.now();
  while (spawnSync("tmux", ["has-session", "-t", session]).status === 0 && Date.now() - start < 10_000)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect(spawnSync("tmux", ["has-session", "-t", session]).status).not.toBe(0);
  // Leaving heddle-code ended the MCP server it started.
  expect(running()).toBe(false);
}, 60_000);
