import { type AgentTool, type AgentUsage, ConfigError, emptyUsage, type Logger, silentLogger } from "@heddle/shared";
import type { LoggingLevel, Root, Tool } from "@modelcontextprotocol/sdk/types.js";
import { type ClientFeatures, type McpRoot, normalizeRoots } from "./client-features.js";
import type { McpConfig } from "./config.js";
import type { McpElicitationHandler } from "./elicitation.js";
import { assignMcpToolNames } from "./names.js";
import {
  DEFAULT_OAUTH_REDIRECT_URL,
  type McpAuthorizationUrlHandler,
  type McpOAuthStore,
  MemoryMcpOAuthStore,
} from "./oauth.js";
import { getPrompt, listPrompts, type McpPrompt, type McpPromptResult } from "./prompts.js";
import {
  listResources,
  listResourceTemplates,
  type McpResource,
  type McpResourceContents,
  type McpResourceTemplate,
  type McpResourceUpdate,
  ResourceSubscriptions,
  readResource,
} from "./resources.js";
import { DEFAULT_MCP_MAX_OUTPUT_BYTES, type McpResultLimits } from "./results.js";
import { type McpSamplingOptions, SamplingService } from "./sampling.js";
import { McpServerHandle, type McpServerStatus } from "./server.js";
import { DEFAULT_MCP_TOOL_LIMITS, type McpToolIssue, type McpToolLimits } from "./tool-limits.js";

export type { McpServerStatus } from "./server.js";

/** Options of `connectMcpServers`. */
export interface McpConnectOptions extends McpResultLimits, McpToolLimits {
  /** How this client introduces itself in the initialize handshake (default `{name: "heddle", version: "0.1.0"}`). */
  clientInfo?: { name: string; version: string };
  /** Start + initialize + the first tools/list, per server (default 30 000 ms). Slower servers are `failed`. */
  connectTimeoutMs?: number;
  /** Each tool call's timeout (default 120 000 ms): set as the tool's `timeoutMs`, so the loop enforces it. */
  callTimeoutMs?: number;
  /**
   * Mark tools whose server annotates them `readOnlyHint: true` as `readOnly` (they may run in parallel and be
   * auto-approved by read-only policies). Default false: annotations are the server's claim, not a guarantee.
   */
  trustReadOnlyHints?: boolean;
  /** Server stderr goes to `debug`, failures to `warn` (default: silent). */
  logger?: Logger;
  /** Also called for the results of the first connect (each server `connected` or `failed`). */
  onStatusChange?: (change: McpStatusChange) => void;
  /**
   * The roots servers are told about (`roots/list`): folder paths or `{uri, name}`, usually the host's workspace.
   * Absent (or `false`): no roots capability is declared, because a root replaces what a server was configured
   * with (the filesystem server works in the client's roots instead of its command-line folders). `setRoots`
   * changes them later.
   */
  roots?: ReadonlyArray<string | McpRoot> | false;
  /**
   * Serve servers' `sampling/createMessage` with this model, under `approve` and `maxBudgetUsd`. Absent: no sampling
   * capability is declared.
   */
  sampling?: McpSamplingOptions;
  /**
   * Answers a server's form request (`elicitation/create`), usually by asking the person. Absent: no elicitation
   * capability is declared, and a server that asks anyway gets a plain decline.
   */
  onElicitation?: McpElicitationHandler;
  /**
   * Opens (or shows) the sign-in page of an HTTP server that answered 401 and resolves with the URL the browser came
   * back to. Absent: servers that need sign-in fail to connect, unless their config has `oauth` for
   * `client_credentials`.
   */
  onAuthorizationUrl?: McpAuthorizationUrlHandler;
  /** The redirect URI registered for sign-in; the host listens there (default `http://localhost:33418/callback`). */
  oauthRedirectUrl?: string;
  /** Where tokens and registered clients are kept (default: in memory, for this connection). */
  oauthStore?: McpOAuthStore;
  /** How long one sign-in may take, from the page being opened to the callback (default 300 000 ms). */
  authorizationTimeoutMs?: number;
  /**
   * The least severe server log message to receive (`logging/setLevel`, for servers that offer logging). Messages
   * go to `logger`: debug at `debug`, info and notice at `info`, warning at `warn`, error and worse at `error`.
   */
  serverLogLevel?: LoggingLevel;
}

/** A server's status changed: it connected, failed (did not start, timed out, died) or was closed. */
export interface McpStatusChange {
  server: string;
  status: McpServerStatus;
  error?: string;
  /** One line for a person, fit for a host's `status-notice`. */
  message: string;
}

/** One configured server as `servers()` reports it. */
export interface McpServerInfo {
  name: string;
  status: McpServerStatus;
  error?: string;
  toolCount: number;
  /**
   * What the tool limits left out of or cut from this server's last tool list (a schema too deep or too long, too
   * many tools, a description too long), each with a `McpToolLimitError` saying which and why. Empty when nothing was.
   */
  toolIssues: McpToolIssue[];
  /** The server's own tool names and the names the model sees. */
  tools: Array<{ name: string; mcpName: string; description?: string }>;
}

/** An MCP tool as an `AgentTool`: `mcp` says where it comes from. */
export interface McpAgentTool extends AgentTool {
  readonly mcp: { server: string; tool: string };
}

/** The live set of MCP servers a host uses. */
export interface McpConnection {
  /** The tools of every connected server, named `mcp__<server>__<tool>`; a failed server's tools are gone. */
  /** The tools of every connected server: the same array until the list changes (treat it as read-only). */
  tools(): McpAgentTool[];
  servers(): McpServerInfo[];
  /** Called with the new tool list after `notifications/tools/list_changed`, a failure or a close. */
  onToolsChanged(listener: (tools: McpAgentTool[]) => void): () => void;
  /** Called when a server fails or is closed after the first connect. */
  onStatusChange(listener: (change: McpStatusChange) => void): () => void;
  /** Ends every server: child processes and what they started, HTTP sessions. Idempotent. */
  close(): Promise<void>;
  /** The resources of every connected server that offers them, or of `server`; all pages. */
  listResources(server?: string): Promise<McpResource[]>;
  /** The resource templates (`uriTemplate`) of every connected server, or of `server`; all pages. */
  listResourceTemplates(server?: string): Promise<McpResourceTemplate[]>;
  /** Reads one resource of `server`: its contents, text or base64 `blob`. */
  readResource(
    server: string,
    uri: string,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<McpResourceContents>;
  /**
   * Subscribes to changes of one resource (servers that offer subscriptions): `listener` is called with each
   * `notifications/resources/updated`. Resolves with an unsubscribe function.
   */
  subscribeResource(
    server: string,
    uri: string,
    listener: (update: McpResourceUpdate) => void,
  ): Promise<() => Promise<void>>;
  /** The prompts of every connected server that offers them, or of `server`; all pages. */
  listPrompts(server?: string): Promise<McpPrompt[]>;
  /** Fills in one prompt of `server` with `args`; `promptMessagesToAgentMessages` turns it into messages. */
  getPrompt(server: string, name: string, args?: { [name: string]: string }): Promise<McpPromptResult>;
  /** Replaces the roots and tells every connected server (`notifications/roots/list_changed`). */
  setRoots(roots: ReadonlyArray<string | McpRoot>): Promise<void>;
  /** What sampling requests used so far, priced (all zero without `sampling`). */
  samplingUsage(): AgentUsage;
}

/** True for a tool made by `connectMcpServers`. */
export function isMcpTool(tool: AgentTool): tool is McpAgentTool {
  return typeof (tool as Partial<McpAgentTool>).mcp === "object";
}

/**
 * Starts (stdio) or reaches (HTTP) every server of `config` in parallel and lists their tools. Resolves once each
 * is `connected` or `failed`; it never rejects because a server failed: `servers()` says which and why, and the
 * other servers' tools work. See docs/mcp.md.
 */
export async function connectMcpServers(config: McpConfig, options: McpConnectOptions = {}): Promise<McpConnection> {
  const logger = options.logger ?? silentLogger;
  const limits: McpResultLimits = {
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MCP_MAX_OUTPUT_BYTES,
    ...(options.maxImageBytes !== undefined && { maxImageBytes: options.maxImageBytes }),
  };
  const callTimeoutMs = options.callTimeoutMs ?? 120_000;
  const toolLimits = resolveToolLimits(options);
  const toolsListeners = new Set<(tools: McpAgentTool[]) => void>();
  const statusListeners = new Set<(change: McpStatusChange) => void>();
  if (options.onStatusChange) statusListeners.add(options.onStatusChange);
  let tools: McpAgentTool[] = [];
  // What tools() hands out: one array until the list changes, so a caller can tell "unchanged" by identity.
  let view: McpAgentTool[] | undefined;
  let names = new Map<McpServerHandle, Map<Tool, string>>();
  let closed = false;

  const safely = <T>(listener: (value: T) => void, value: T) => {
    try {
      listener(value);
    } catch (error) {
      logger.warn(`MCP listener failed: ${(error as Error).message}`);
    }
  };
  const rebuild = () => {
    const entries = handles.flatMap((handle) =>
      handle.status === "connected" ? handle.tools.map((tool) => ({ handle, tool })) : [],
    );
    const assigned = assignMcpToolNames(entries.map((e) => ({ server: e.handle.name, tool: e.tool.name })));
    const previous = new Map(tools.map((tool) => [tool.name, tool]));
    names = new Map();
    tools = entries.map(({ handle, tool }, i) => {
      const name = assigned[i]!;
      if (!names.has(handle)) names.set(handle, new Map());
      names.get(handle)!.set(tool, name);
      // Keep the same object for an unchanged tool: the loop caches its schema validator per schema object.
      const kept = previous.get(name);
      const fresh = toAgentTool(handle, tool, name);
      if (kept && kept.mcp.server === handle.name && sameTool(kept, fresh)) return kept;
      return fresh;
    });
    view = undefined;
    for (const listener of toolsListeners) safely(listener, [...tools]);
  };
  const toAgentTool = (handle: McpServerHandle, tool: Tool, name: string): McpAgentTool => ({
    name,
    description: tool.description ?? tool.title ?? `Tool ${tool.name} of the MCP server ${handle.name}.`,
    inputSchema: tool.inputSchema as AgentTool["inputSchema"],
    timeoutMs: callTimeoutMs,
    ...(options.trustReadOnlyHints && tool.annotations?.readOnlyHint === true && { readOnly: true }),
    mcp: { server: handle.name, tool: tool.name },
    execute: (input, ctx) => handle.call(tool.name, input, ctx, limits),
  });
  const announce = (handle: McpServerHandle) => {
    if (handle.status === "connecting") return;
    const change: McpStatusChange = {
      server: handle.name,
      status: handle.status,
      ...(handle.error !== undefined && { error: handle.error }),
      message: statusMessage(handle),
    };
    for (const listener of statusListeners) safely(listener, change);
  };

  let roots: Root[] | undefined = options.roots ? normalizeRoots(options.roots) : undefined;
  const sampling = options.sampling && new SamplingService(options.sampling);
  const features: ClientFeatures = {
    roots: () => roots,
    logger,
    ...(sampling && { sampling }),
    ...(options.onElicitation && { onElicitation: options.onElicitation }),
  };
  const subscriptions = new ResourceSubscriptions((error) =>
    logger.warn(`MCP resource listener failed: ${(error as Error)?.message ?? error}`),
  );
  const oauth = {
    store: options.oauthStore ?? new MemoryMcpOAuthStore(),
    redirectUrl: options.oauthRedirectUrl ?? DEFAULT_OAUTH_REDIRECT_URL,
    timeoutMs: options.authorizationTimeoutMs ?? 300_000,
    ...(options.onAuthorizationUrl && { onAuthorizationUrl: options.onAuthorizationUrl }),
  };

  const handles = Object.entries(config.mcpServers).map(
    ([name, serverConfig]) =>
      new McpServerHandle(name, serverConfig, {
        clientInfo: options.clientInfo ?? { name: "heddle", version: "0.1.0" },
        connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
        callTimeoutMs,
        toolLimits,
        logger,
        features,
        oauth,
        onResourceUpdated: (handle, uri) => subscriptions.dispatch(handle.name, uri),
        ...limits,
        onStatus: (handle) => {
          if (closed && handle.status !== "closed") return;
          rebuild();
          announce(handle);
        },
        onTools: () => {
          if (!closed) rebuild();
        },
      }),
  );
  await Promise.all(handles.map((handle) => handle.connect()));
  rebuild();
  for (const handle of handles) announce(handle);
  if (options.serverLogLevel) {
    const level = options.serverLogLevel;
    await Promise.all(
      handles
        .filter((handle) => handle.status === "connected" && handle.capabilities?.logging)
        .map((handle) =>
          handle
            .request((client) => client.setLoggingLevel(level))
            .catch((error: unknown) =>
              logger.warn(`MCP server "${handle.name}": logging/setLevel failed: ${(error as Error)?.message}`),
            ),
        ),
    );
  }

  return {
    tools: () => (view ??= [...tools]),
    servers: () =>
      handles.map((handle) => ({
        name: handle.name,
        status: handle.status === "connecting" ? "failed" : handle.status,
        ...(handle.error !== undefined && { error: handle.error }),
        toolCount: handle.tools.length,
        toolIssues: [...handle.toolIssues],
        tools: handle.tools.map((tool) => ({
          name: tool.name,
          mcpName: names.get(handle)?.get(tool) ?? "",
          ...(tool.description !== undefined && { description: tool.description }),
        })),
      })),
    onToolsChanged(listener) {
      toolsListeners.add(listener);
      return () => toolsListeners.delete(listener);
    },
    onStatusChange(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      // Every server is ended even if ending one fails.
      const results = await Promise.allSettled(handles.map((handle) => handle.close()));
      for (const result of results) {
        if (result.status === "rejected")
          logger.warn(`MCP close: ${(result.reason as Error)?.message ?? result.reason}`);
      }
      toolsListeners.clear();
      statusListeners.clear();
      subscriptions.clear();
    },
    listResources: (server) => listResources(handles, server),
    listResourceTemplates: (server) => listResourceTemplates(handles, server),
    readResource: (server, uri, readOptions) => readResource(handles, server, uri, readOptions),
    subscribeResource: (server, uri, listener) => subscriptions.subscribe(handles, server, uri, listener),
    listPrompts: (server) => listPrompts(handles, server),
    getPrompt: (server, name, args) => getPrompt(handles, server, name, args),
    async setRoots(next) {
      if (roots === undefined)
        throw new ConfigError("setRoots: this connection declared no roots (connect with roots)");
      roots = normalizeRoots(next);
      await Promise.all(
        handles
          .filter((handle) => handle.status === "connected")
          .map((handle) => handle.request((client) => client.sendRootsListChanged()).catch(() => {})),
      );
    },
    samplingUsage: () => sampling?.usage ?? emptyUsage(),
  };
}

/**
 * The tools of a session turn: `builtIns` then the MCP tools connected at that moment. Pass the result as
 * `createSession({tools})`: the session calls it at the start of each turn, so servers that fail or change their
 * tools between turns are followed, and MCP tools go through the same policies, approvals and hooks.
 */
export function withMcpTools(
  builtIns: readonly AgentTool[] | (() => readonly AgentTool[]),
  connection: Pick<McpConnection, "tools">,
): () => AgentTool[] {
  // The same array while neither list changed, so the loop (which reads tools before every model call) rebuilds
  // its tool set only when a server's list really changed.
  let last: { own: readonly AgentTool[]; mcp: readonly AgentTool[]; all: AgentTool[] } | undefined;
  return () => {
    const own = typeof builtIns === "function" ? builtIns() : builtIns;
    const mcp = connection.tools();
    if (last && last.own === own && last.mcp === mcp) return last.all;
    last = { own, mcp, all: [...own, ...mcp] };
    return last.all;
  };
}

function sameTool(kept: McpAgentTool, fresh: McpAgentTool): boolean {
  return (
    kept.mcp.tool === fresh.mcp.tool &&
    kept.description === fresh.description &&
    kept.readOnly === fresh.readOnly &&
    JSON.stringify(kept.inputSchema) === JSON.stringify(fresh.inputSchema)
  );
}

function statusMessage(handle: McpServerHandle): string {
  switch (handle.status) {
    case "connected": {
      const omitted = handle.toolIssues.filter((issue) => issue.action === "omitted").length;
      const note = omitted > 0 ? `; some tools were left out by the tool limits: see servers()` : "";
      return `MCP server "${handle.name}" connected (${handle.tools.length} tools${note}).`;
    }
    case "failed":
      return `MCP server "${handle.name}" failed: ${handle.error ?? "unknown error"}. Its tools are unavailable.`;
    default:
      return `MCP server "${handle.name}" closed.`;
  }
}

/** The tool limits with their defaults; each must be a positive integer (Infinity: no limit). */
function resolveToolLimits(options: McpToolLimits): Required<McpToolLimits> {
  const limits = { ...DEFAULT_MCP_TOOL_LIMITS };
  for (const key of Object.keys(limits) as Array<keyof McpToolLimits>) {
    const value = options[key];
    if (value === undefined) continue;
    if (!(value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value > 0))) {
      throw new ConfigError(`connectMcpServers: ${key} must be a positive integer or Infinity, not ${value}`);
    }
    limits[key] = value;
  }
  return limits;
}
