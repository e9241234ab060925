import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  connectMcpServers,
  FileMcpOAuthStore,
  loadMcpConfig,
  type McpConfig,
  type McpConnection,
  type McpConnectOptions,
  type McpStatusChange,
} from "@heddle/core";
import { fileKind } from "@heddle/core/tools";
import type { AgentModel } from "@heddle/shared";
import { type AskLine, askElicitation, askSampling, oauthStorePath, signInWithBrowser } from "./mcp-person.js";
import { checkFolderTrust } from "./trust.js";

/** Which MCP config files the host reads, and why one was skipped. */
export interface McpConfigSources {
  /** The files read, in order; a later file's server replaces an earlier one of the same name. */
  files: string[];
  /** Set when the workspace has `.heddle/mcp.json` that was not read because the folder is not trusted. */
  untrustedWorkspaceConfig?: string;
  /** Set (to why) when the workspace's `.heddle/mcp.json` is not a regular file (a FIFO): never read. */
  refusedWorkspaceConfig?: string;
}

/**
 * The workspace's `.heddle/mcp.json` starts programs the repository chose: it is read only when the user trusts
 * the folder (`--trust`). A file named with `--mcp-config` is the user's own choice and is always read.
 */
export function mcpConfigSources(
  options: { mcpConfig?: string; trust: boolean; claude?: boolean },
  workspaceRoot: string,
  trustedBefore: (folder: string) => boolean = (folder) =>
    checkFolderTrust(folder, undefined, { ...(options.claude !== undefined && { claude: options.claude }) }).trusted,
): McpConfigSources {
  const sources: McpConfigSources = { files: [] };
  const workspaceConfig = join(workspaceRoot, ".heddle", "mcp.json");
  const kind = existsSync(workspaceConfig) ? fileKind(statSync(workspaceConfig)) : undefined;
  if (kind !== undefined && kind !== "a regular file") {
    // Opening a FIFO would block the start for good; not even --trust reads it.
    sources.refusedWorkspaceConfig = `${workspaceConfig} is ${kind}, not a regular file: not read`;
  } else if (kind !== undefined) {
    // --trust, or a yes remembered for this folder with these very files (trust.ts hashes mcp.json too).
    if (options.trust || trustedBefore(workspaceRoot)) sources.files.push(workspaceConfig);
    else sources.untrustedWorkspaceConfig = workspaceConfig;
  }
  if (options.mcpConfig) sources.files.push(resolve(options.mcpConfig));
  return sources;
}

/** Reads and merges the config files (`${VAR}`s expanded; an unset one is an error naming it). */
export async function loadMcpConfigs(files: readonly string[]): Promise<McpConfig> {
  const merged: McpConfig = { mcpServers: {} };
  for (const file of files) Object.assign(merged.mcpServers, (await loadMcpConfig(file)).mcpServers);
  return merged;
}

/** The person at the terminal, as MCP servers reach them; `ask` is set once the interactive prompt exists. */
export interface McpPersonLink {
  ask?: AskLine;
}

/** What heddle-code offers MCP servers besides tools. */
export interface HostMcpOptions {
  workspaceRoot: string;
  /** The session's model: it answers servers' sampling requests. */
  model: AgentModel;
  /** A person can answer (the interactive session): forms are asked, sampling is asked about. */
  interactive: boolean;
  /** `--yes`: sampling requests are sent without asking. */
  yes: boolean;
  maxBudgetUsd?: number;
  person: McpPersonLink;
  /** One line for the person (the renderer's notice, or stderr in --json mode). */
  say: (line: string) => void;
}

/**
 * The options heddle-code connects with: the workspace as the one root; sampling by the session's model, asked about
 * (or `--yes`) and under `--max-budget-usd`; forms asked at the prompt; sign-in in the browser, with tokens kept in
 * the user's config folder. Without a person, forms are not offered and sampling only with `--yes`.
 */
export function hostMcpOptions(options: HostMcpOptions): McpConnectOptions {
  const { person, say } = options;
  return {
    clientInfo: { name: "heddle-code", version: "0.0.0" },
    roots: [options.workspaceRoot],
    ...((options.interactive || options.yes) && {
      sampling: {
        model: options.model,
        ...(options.maxBudgetUsd !== undefined && { maxBudgetUsd: options.maxBudgetUsd }),
        ...(!options.yes && {
          approve: (request) => (person.ask ? askSampling(request, person.ask, say) : false),
        }),
      },
    }),
    ...(options.interactive && {
      onElicitation: async (request) =>
        person.ask ? askElicitation(request, person.ask, say) : { action: "decline" as const },
    }),
    onAuthorizationUrl: (url, context) => signInWithBrowser(url, context, say),
    oauthStore: new FileMcpOAuthStore({ path: oauthStorePath() }),
  };
}

/** Connects the servers of `sources`; `undefined` when there are none. Status changes go to `notice`. */
export async function connectHostMcp(
  sources: McpConfigSources,
  notice: (change: McpStatusChange) => void,
  options?: HostMcpOptions,
): Promise<McpConnection | undefined> {
  const config = await loadMcpConfigs(sources.files);
  if (Object.keys(config.mcpServers).length === 0) return undefined;
  return connectMcpServers(config, {
    clientInfo: { name: "heddle-code", version: "0.0.0" },
    ...(options && hostMcpOptions(options)),
    onStatusChange: notice,
  });
}

/** What `/mcp` prints: each server, its status (with the error of a failed one) and its tools. */
export function describeMcpServers(mcp: McpConnection | undefined, sources?: McpConfigSources): string[] {
  const lines: string[] = [];
  if (sources?.untrustedWorkspaceConfig)
    lines.push(`${sources.untrustedWorkspaceConfig} not loaded: the folder is not trusted (run with --trust)`);
  if (sources?.refusedWorkspaceConfig) lines.push(sources.refusedWorkspaceConfig);
  if (!mcp || mcp.servers().length === 0) {
    lines.push("no MCP servers (add them in .heddle/mcp.json with --trust, or name a file with --mcp-config)");
    return lines;
  }
  for (const server of mcp.servers()) {
    lines.push(`${server.name}  ${server.status}  ${server.toolCount} tool${server.toolCount === 1 ? "" : "s"}`);
    if (server.error) lines.push(`    error: ${server.error.split("\n")[0]}`);
    for (const tool of server.tools) lines.push(`    ${tool.mcpName}`);
    // What the tool limits left out or cut: a person should see why a tool they expected is missing.
    for (const issue of server.toolIssues) lines.push(`    ${issue.action}: ${issue.error.message}`);
  }
  return lines;
}
