// Shared by the MCP tests: where the real servers are, a tool context for direct calls, process checks.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolContext } from "@heddle/shared";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** The entry of an npm MCP server package installed as a devDependency of @heddle/core. */
function serverEntry(pkg: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), "dist", "index.js");
}

export const EVERYTHING_SERVER = serverEntry("@modelcontextprotocol/server-everything");
export const FILESYSTEM_SERVER = serverEntry("@modelcontextprotocol/server-filesystem");
/** `node wrapper.mjs <command> ...`: an npx-like launcher (see the file). */
export const WRAPPER = join(here, "wrapper.mjs");
/** `node test-server.mjs stdio|http`: a small server on the SDK's server classes. */
export const TEST_SERVER = join(here, "test-server.mjs");
/** `node oauth-server.mjs`: an MCP server behind OAuth 2.1, with its own authorization server. */
export const OAUTH_SERVER = join(here, "oauth-server.mjs");

/** A tool context for calling an AgentTool's `execute` directly, outside a run. */
export function toolContext(signal: AbortSignal = new AbortController().signal, updates: unknown[] = []): ToolContext {
  return {
    toolCallId: "call_1",
    signal,
    metadata: {},
    emitUpdate: (update) => updates.push(update),
    runId: "run_1",
    agentId: "agent_1",
    reportUsage: () => {},
  };
}

/** Whether the pid is a live process (zombies count as dead). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Polls `check` every 20 ms until it returns true or `timeoutMs` passes; returns its last answer. */
export async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}
