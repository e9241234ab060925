import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { endProcesses, snapshotTree } from "../process/index.js";
import { isHttpServerConfig, type McpServerConfig } from "./config.js";
import type { McpOAuthProvider } from "./oauth.js";

/** Remembers the child's pid once started: the SDK forgets it when it begins closing. */
class TrackedStdioTransport extends StdioClientTransport {
  startedPid: number | undefined;
  override async start(): Promise<void> {
    await super.start();
    this.startedPid = this.pid ?? undefined;
  }
}

/** A connected transport, with what the host needs to clean up after it. */
export interface OpenedTransport {
  client: Client;
  transport: Transport;
  kind: "stdio" | "streamable-http" | "sse";
  /** The child's pid (stdio). */
  pid?: number;
}

/** Bytes of a stdio server's stderr kept to explain a failure. */
const STDERR_TAIL_BYTES = 2000;

/** Collects the last bytes a stdio server wrote to stderr. */
export class StderrTail {
  #text = "";
  push(chunk: Buffer | string): void {
    this.#text = (this.#text + chunk.toString()).slice(-STDERR_TAIL_BYTES);
  }
  get text(): string {
    return this.#text.trim();
  }
}

/** Options of `connectTransport`: the initialize request's options, plus stderr and sign-in for HTTP servers. */
export interface ConnectTransportOptions extends RequestOptions {
  onStderr?: (chunk: Buffer) => void;
  /** Signs in to an HTTP server that answers 401 (see oauth.ts). */
  authProvider?: McpOAuthProvider;
  /** Waits for the person's sign-in and hands the code to the transport; see `McpServerHandle`. */
  completeAuthorization?: (transport: StreamableHTTPClientTransport | SSEClientTransport) => Promise<void>;
}

/** How many times one connect may send the person to sign in (a first sign-in, then a step-up). */
const MAX_AUTHORIZATIONS = 2;

/**
 * Connects a new client from `createClient` to the server `config` describes: a child process over stdio, or a URL over streamable HTTP,
 * falling back to HTTP+SSE when the server answers the streamable handshake with a 4xx status (an older server)
 * and `type` is not `"http"`. `connect` performs the MCP initialize handshake; `options.timeout` bounds it. A
 * server that asks for sign-in (401) is signed in to through `authProvider`, then connected to again.
 */
export async function connectTransport(
  createClient: () => Client,
  config: McpServerConfig,
  options: ConnectTransportOptions,
): Promise<OpenedTransport> {
  const { onStderr, authProvider, completeAuthorization, ...requestOptions } = options;
  if (!isHttpServerConfig(config)) {
    const transport = new TrackedStdioTransport({
      command: config.command,
      ...(config.args && { args: config.args }),
      ...(config.env && { env: config.env }),
      ...(config.cwd && { cwd: config.cwd }),
      stderr: "pipe",
    });
    if (onStderr) transport.stderr?.on("data", onStderr);
    const client = createClient();
    try {
      await client.connect(transport, requestOptions);
    } catch (error) {
      // The SDK closes a client whose initialize failed, politely and in the background (stdin's end, then 2 s
      // before SIGTERM). A server that did not answer gets no such patience: end it and what it started now.
      const tree = transport.startedPid === undefined ? [] : snapshotTree(transport.startedPid);
      await transport.close().catch(() => {});
      await endProcesses(tree, 500);
      throw error;
    }
    return { client, transport, kind: "stdio", ...(transport.pid !== null && { pid: transport.pid }) };
  }
  const url = new URL(config.url);
  const requestInit = config.headers ? { headers: config.headers } : undefined;
  /** Connects over one transport kind, signing in (and connecting again) when the server asks. */
  const open = async (
    kind: "streamable-http" | "sse",
    make: () => StreamableHTTPClientTransport | SSEClientTransport,
  ): Promise<OpenedTransport> => {
    for (let authorizations = 0; ; authorizations++) {
      const transport = make();
      const client = createClient();
      try {
        await client.connect(transport, requestOptions);
        return { client, transport, kind };
      } catch (error) {
        const signIn =
          error instanceof UnauthorizedError &&
          authProvider?.awaitingAuthorization === true &&
          completeAuthorization !== undefined &&
          authorizations < MAX_AUTHORIZATIONS;
        if (signIn) await completeAuthorization(transport).finally(() => transport.close().catch(() => {}));
        else {
          await transport.close().catch(() => {});
          throw error;
        }
      }
    }
  };
  let streamableError: unknown;
  if (config.type !== "sse") {
    try {
      // A few reconnection tries for the server's event stream, at the delay the server asks for (SSE `retry:`); a
      // server that is gone is noticed by the health check.
      return await open(
        "streamable-http",
        () =>
          new StreamableHTTPClientTransport(url, {
            ...(requestInit && { requestInit }),
            ...(authProvider && { authProvider }),
            reconnectionOptions: {
              initialReconnectionDelay: 500,
              maxReconnectionDelay: 2000,
              reconnectionDelayGrowFactor: 2,
              maxRetries: 2,
            },
          }),
      );
    } catch (error) {
      // What an older server answers a POST to its SSE endpoint with, or no answer at all; auth errors are real.
      const refused =
        (error instanceof StreamableHTTPError && [400, 404, 405].includes(error.code ?? 0)) || isNetworkError(error);
      if (config.type === "http" || !refused) throw error;
      streamableError = error;
    }
  }
  try {
    return await open(
      "sse",
      () =>
        new SSEClientTransport(url, {
          ...(authProvider && { authProvider }),
          ...(requestInit && {
            requestInit,
            eventSourceInit: {
              fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...config.headers } }),
            },
          }),
        }),
    );
  } catch (error) {
    if (streamableError === undefined) throw error;
    // Both attempts failed: say what each one met, not only the last.
    throw new McpTransportFallbackError(streamableError, error);
  }
}

/** The streamable HTTP attempt and its HTTP+SSE fallback both failed; `errors` holds both, in that order. */
export class McpTransportFallbackError extends AggregateError {
  constructor(streamable: unknown, sse: unknown) {
    super(
      [streamable, sse],
      `streamable HTTP failed (${describe(streamable)}), and so did the HTTP+SSE fallback (${describe(sse)})`,
    );
    this.name = "McpTransportFallbackError";
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  return detail && !error.message.includes(detail) ? `${error.message}: ${detail}` : error.message || error.name;
}

/** `fetch` could not reach the server at all (refused, reset, unknown host). */
function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError && /fetch failed/i.test(error.message);
}
