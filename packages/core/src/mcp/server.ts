import { clampTimeoutMs, type Logger, type ToolContext } from "@heddle/shared";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type Tool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { endProcesses, type ProcessRef, snapshotDescendants } from "../process/index.js";
import { type ClientFeatures, clientCapabilities, installClientFeatures } from "./client-features.js";
import { isHttpServerConfig, type McpServerConfig } from "./config.js";
import { McpAuthError, McpServerUnavailableError } from "./errors.js";
import { type McpAuthorizationUrlHandler, McpOAuthProvider, type McpOAuthStore } from "./oauth.js";
import { type McpResultLimits, mapMcpToolResult } from "./results.js";
import {
  type AdmittedTools,
  admitMcpTools,
  boundedSchemaValidator,
  type McpToolIssue,
  type McpToolLimits,
} from "./tool-limits.js";
import { connectTransport, type OpenedTransport, StderrTail } from "./transport.js";

/** Where a server stands. `failed`: it did not start, timed out, or died; `closed`: the host closed it. */
export type McpServerStatus = "connected" | "failed" | "closed";

export interface McpServerHandleOptions extends McpResultLimits {
  clientInfo: { name: string; version: string };
  connectTimeoutMs: number;
  callTimeoutMs: number;
  toolLimits: Readonly<Required<McpToolLimits>>;
  logger: Logger;
  /** Roots, sampling and elicitation, shared by every server of the connection. */
  features: ClientFeatures;
  /** Sign-in for HTTP servers: where tokens live, where the browser returns, who opens the page. */
  oauth: {
    store: McpOAuthStore;
    redirectUrl: string;
    onAuthorizationUrl?: McpAuthorizationUrlHandler;
    timeoutMs: number;
  };
  /** Called with each `notifications/resources/updated` of this server. */
  onResourceUpdated(handle: McpServerHandle, uri: string): void;
  /** Called when the status changes after the first connect, and when the tool list changes. */
  onStatus(handle: McpServerHandle): void;
  onTools(handle: McpServerHandle): void;
}

/** How long a liveness ping may take before the server counts as gone. */
const PING_TIMEOUT_MS = 3000;
/** After the SDK closed a stdio server, what it started gets this long to end on SIGTERM. */
const DESCENDANT_GRACE_MS = 500;
/** How long `close()` waits for an HTTP server to acknowledge the end of its session. */
const TERMINATE_TIMEOUT_MS = 1000;

/** One configured server: its client, its tools and its status. Internal to `connectMcpServers`. */
export class McpServerHandle {
  readonly name: string;
  readonly config: McpServerConfig;
  status: McpServerStatus | "connecting" = "connecting";
  error: string | undefined;
  tools: Tool[] = [];
  /** What the limits left out of, or cut from, the last tool list. */
  toolIssues: McpToolIssue[] = [];
  readonly #options: McpServerHandleOptions;
  readonly #stderr = new StderrTail();
  #opened: OpenedTransport | undefined;
  #processes: ProcessRef[] = [];
  #refreshing: Promise<void> | undefined;
  #dirty = false;
  #checking: Promise<void> | undefined;
  readonly #auth: McpOAuthProvider | undefined;
  /** When the connect's listing must be done; moved on after the person signed in. */
  #deadline = 0;

  constructor(name: string, config: McpServerConfig, options: McpServerHandleOptions) {
    this.name = name;
    this.config = config;
    this.#options = options;
    // An HTTP server may ask for sign-in: with OAuth settings or a host that can open the page, the client can.
    if (isHttpServerConfig(config) && (config.oauth || options.oauth.onAuthorizationUrl)) {
      this.#auth = new McpOAuthProvider({
        server: name,
        url: config.url,
        config: config.oauth ?? {},
        store: options.oauth.store,
        redirectUrl: options.oauth.redirectUrl,
        clientName: options.clientInfo.name,
        ...(options.oauth.onAuthorizationUrl && { onAuthorizationUrl: options.oauth.onAuthorizationUrl }),
      });
    }
  }

  /** The server's declared capabilities (after connect). */
  get capabilities() {
    return this.#opened?.client.getServerCapabilities();
  }

  /**
   * Runs a request on the connected client: a server that is not connected is `McpServerUnavailableError`; a
   * request that needs the person to sign in (or step up to more scopes) waits for that, then runs again.
   */
  async request<T>(send: (client: Client) => Promise<T>): Promise<T> {
    for (let authorizations = 0; ; authorizations++) {
      const opened = this.#opened;
      if (this.status !== "connected" && this.status !== "connecting") throw this.#unavailable();
      if (!opened) throw this.#unavailable();
      try {
        return await send(opened.client);
      } catch (error) {
        const signIn = error instanceof UnauthorizedError && this.#auth?.awaitingAuthorization && authorizations < 2;
        if (!signIn || opened.kind === "stdio") throw error;
        await this.#completeAuthorization(opened.transport as StreamableHTTPClientTransport);
      }
    }
  }

  /** Waits (bounded) for the host's callback URL, then trades its code for tokens on `transport`. */
  async #completeAuthorization(transport: StreamableHTTPClientTransport | SSEClientTransport): Promise<void> {
    const auth = this.#auth;
    if (!auth) throw new McpAuthError(this.name, "no sign-in is configured");
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = this.#options.oauth.timeoutMs;
    const expired = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new McpAuthError(this.name, `no sign-in within ${Math.round(timeoutMs / 1000)} s`)),
        clampTimeoutMs(timeoutMs),
      );
      timer.unref();
    });
    try {
      const code = await Promise.race([auth.authorizationCode(), expired]);
      await transport.finishAuth(code);
    } finally {
      clearTimeout(timer);
    }
    // The person's time does not count against the connect timeout.
    this.#deadline = Date.now() + this.#options.connectTimeoutMs;
  }

  get pid(): number | undefined {
    return this.#opened?.pid;
  }

  /** Starts the server, runs the initialize handshake and lists its tools, all within `connectTimeoutMs`. */
  async connect(): Promise<void> {
    this.#deadline = Date.now() + this.#options.connectTimeoutMs;
    try {
      this.#opened = await connectTransport(() => this.#newClient(), this.config, {
        // The SDK sets a plain timer: past 2^31-1 ms (or Infinity) it fired at once and no server could start.
        timeout: clampTimeoutMs(this.#options.connectTimeoutMs),
        onStderr: (chunk) => {
          this.#stderr.push(chunk);
          this.#options.logger.debug(`mcp ${this.name} stderr: ${chunk.toString().trimEnd()}`);
        },
        ...(this.#auth && {
          authProvider: this.#auth,
          completeAuthorization: (transport) => this.#completeAuthorization(transport),
        }),
      });
      do {
        this.#dirty = false;
        this.#setTools(await this.request(() => this.#listAll()));
      } while (this.#dirty);
      this.status = "connected";
      // `npx` and shell wrappers start the real server as a child only once they run: look again now.
      if (this.#opened.pid !== undefined) this.#rememberProcesses(this.#opened.pid);
    } catch (error) {
      this.status = "failed";
      this.error = this.#explain(`could not start: ${errorText(error)}`);
      this.tools = [];
      this.toolIssues = [];
      await this.#closeTransport();
    }
  }

  /** Calls one of the server's tools with the run's signal and the per-call timeout; maps its result. */
  async call(tool: string, input: unknown, ctx: Pick<ToolContext, "signal" | "emitUpdate">, limits: McpResultLimits) {
    if (this.status !== "connected" || !this.#opened) throw this.#unavailable();
    let result: CallToolResult;
    try {
      result = (await this.request((client) =>
        client.callTool({ name: tool, arguments: (input ?? {}) as { [key: string]: unknown } }, undefined, {
          signal: ctx.signal,
          // The loop's own timeout (the tool's `timeoutMs`) fires first; this one bounds direct calls.
          timeout: clampTimeoutMs(this.#options.callTimeoutMs + 1000),
          onprogress: (progress) => ctx.emitUpdate({ kind: "mcp-progress", ...progress }),
        }),
      )) as CallToolResult;
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) throw error;
      // A sign-in that did not complete is an answer too: a ping would only start another sign-in.
      if (error instanceof UnauthorizedError) throw error;
      // Not an answer from the server: the transport broke. Find out whether the server is still there.
      await this.checkHealth(error);
      if (this.status !== "connected") throw this.#unavailable(error);
      throw error;
    }
    return mapMcpToolResult(result, { server: this.name, tool }, limits);
  }

  /** Pings the server; one that does not answer is marked failed. Concurrent checks share one ping. */
  checkHealth(cause?: unknown): Promise<void> {
    const client = this.#opened?.client;
    if (this.status !== "connected" || !client) return Promise.resolve();
    this.#checking ??= client
      .ping({ timeout: PING_TIMEOUT_MS })
      .then(
        () => {},
        (error: unknown) => this.fail(`stopped answering: ${errorText(cause ?? error)}`),
      )
      .finally(() => {
        this.#checking = undefined;
      });
    return this.#checking;
  }

  /** Re-lists the tools after `notifications/tools/list_changed`; changes that arrive meanwhile list again. */
  refreshTools(): Promise<void> {
    if (this.#refreshing) {
      this.#dirty = true;
      return this.#refreshing;
    }
    this.#refreshing = (async () => {
      do {
        this.#dirty = false;
        this.#deadline = Date.now() + this.#options.connectTimeoutMs;
        const listed = await this.request(() => this.#listAll());
        if (this.status !== "connected") return;
        this.#setTools(listed);
        this.#options.onTools(this);
      } while (this.#dirty);
    })()
      .catch((error: unknown) => {
        this.#options.logger.warn(`MCP server "${this.name}": listing its tools failed: ${errorText(error)}`);
        return this.checkHealth(error);
      })
      .finally(() => {
        this.#refreshing = undefined;
      });
    return this.#refreshing;
  }

  /** Marks the server failed, drops its tools and ends what is left of it. */
  async fail(reason: string): Promise<void> {
    if (this.status === "failed" || this.status === "closed") return;
    this.status = "failed";
    this.error = this.#explain(reason);
    this.tools = [];
    this.toolIssues = [];
    this.#options.logger.warn(`MCP server "${this.name}" failed: ${this.error}`);
    this.#options.onStatus(this);
    await this.#closeTransport();
  }

  /** Ends the server and every process it started. */
  async close(): Promise<void> {
    const wasConnected = this.status === "connected";
    this.status = "closed";
    this.tools = [];
    this.toolIssues = [];
    if (wasConnected) this.#options.onStatus(this);
    const opened = this.#opened;
    if (wasConnected && opened?.transport instanceof StreamableHTTPClientTransport) {
      // Tell the server its session is over (HTTP DELETE), briefly: a server that does not answer is not waited for.
      await Promise.race([opened.transport.terminateSession().catch(() => {}), delay(TERMINATE_TIMEOUT_MS)]);
    }
    await this.#closeTransport();
  }

  #newClient(): Client {
    const { features } = this.#options;
    const client = new Client(this.#options.clientInfo, {
      capabilities: clientCapabilities(features),
      jsonSchemaValidator: boundedSchemaValidator(this.#options.toolLimits),
    });
    installClientFeatures(client, this.name, features, (uri) => this.#options.onResourceUpdated(this, uri));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.status === "connecting") this.#dirty = true;
      else if (this.status === "connected") void this.refreshTools();
    });
    client.onclose = () => {
      if (this.status !== "connected") return;
      this.fail("the server closed the connection (it exited or was killed)").catch((error: unknown) => {
        this.#options.logger.error(`MCP server "${this.name}": cleaning up after it failed: ${errorText(error)}`);
      });
    };
    client.onerror = (error) => {
      this.#options.logger.debug(`mcp ${this.name} transport error: ${errorText(error)}`);
      // An event stream that could not be re-opened, a broken pipe...: ask whether the server is still there.
      if (this.status === "connected") void this.checkHealth(error);
    };
    return client;
  }

  /**
   * Lists every page of tools by `deadline` (one deadline for all pages: a server that pages forever times out),
   * stopping once it holds more than `maxToolsPerServer`, then applies the tool limits.
   */
  async #listAll(): Promise<AdmittedTools> {
    const client = this.#opened?.client;
    if (!client) return { tools: [], issues: [] };
    const deadline = this.#deadline;
    const limit = this.#options.toolLimits.maxToolsPerServer;
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const timeout = clampTimeoutMs(Math.max(1, deadline - Date.now()));
      const page = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor && tools.length <= limit);
    return admitMcpTools(this.name, tools, this.#options.toolLimits, cursor !== undefined);
  }

  #setTools(listed: AdmittedTools): void {
    this.tools = listed.tools;
    this.toolIssues = listed.issues;
    const { issues } = listed;
    if (issues.length === 0) return;
    const shown = issues.slice(0, 3).map((issue) => issue.error.message);
    const rest = issues.length > shown.length ? ` (and ${issues.length - shown.length} more: see servers())` : "";
    this.#options.logger.warn(`${shown.join(" ")}${rest}`);
  }

  #rememberProcesses(pid: number): void {
    const known = new Set(this.#processes.map((p) => p.pid));
    for (const ref of snapshotDescendants(pid)) if (!known.has(ref.pid)) this.#processes.push(ref);
  }

  async #closeTransport(): Promise<void> {
    const opened = this.#opened;
    this.#opened = undefined;
    if (!opened) return;
    if (opened.pid !== undefined) this.#rememberProcesses(opened.pid);
    // The SDK ends stdin, then sends SIGTERM and SIGKILL to the server's own process if it lingers.
    await opened.client.close().catch(() => {});
    // What the server started (npx's child, a wrapper's server) may outlive it: end those too.
    await endProcesses(this.#processes, DESCENDANT_GRACE_MS);
    this.#processes = [];
  }

  #explain(reason: string): string {
    const stderr = this.#stderr.text;
    return stderr ? `${reason}\nstderr: ${stderr.split("\n").slice(-5).join("\n")}` : reason;
  }

  #unavailable(cause?: unknown): McpServerUnavailableError {
    const why = this.error ? `: ${this.error}` : "";
    return new McpServerUnavailableError(
      this.name,
      `MCP server "${this.name}" is not available (${this.status}${why}). Its tools cannot be used right now.`,
      cause === undefined ? undefined : { cause },
    );
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
