import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { endProcesses, snapshotTree } from "../process/index.js";
import { isHttpServerConfig, type McpServerConfig } from "./config.js";

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

/**
 * Connects a new client from `createClient` to the server `config` describes: a child process over stdio, or a URL over streamable HTTP,
 * falling back to HTTP+SSE when the server answers the streamable handshake with a 4xx status (an older server)
 * and `type` is not `"http"`. `connect` performs the MCP initialize handshake; `options.timeout` bounds it.
 */
export async function connectTransport(
  createClient: () => Client,
  config: McpServerConfig,
  options: RequestOptions & { onStderr?: (chunk: Buffer) => void },
): Promise<OpenedTransport> {
  const { onStderr, ...requestOptions } = options;
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
  if (config.type !== "sse") {
    // One reconnection try for the server's event stream; a server that is gone is noticed by the health check.
    const transport = new StreamableHTTPClientTransport(url, {
      ...(requestInit && { requestInit }),
      reconnectionOptions: {
        initialReconnectionDelay: 500,
        maxReconnectionDelay: 2000,
        reconnectionDelayGrowFactor: 2,
        maxRetries: 1,
      },
    });
    const client = createClient();
    try {
      await client.connect(transport, requestOptions);
      return { client, transport, kind: "streamable-http" };
    } catch (error) {
      await transport.close().catch(() => {});
      // What an older server answers a POST to its SSE endpoint with; anything else (auth, network) is real.
      const refused = error instanceof StreamableHTTPError && [400, 404, 405].includes(error.code ?? 0);
      if (config.type === "http" || !refused) throw error;
    }
  }
  const transport = new SSEClientTransport(url, {
    ...(requestInit && {
      requestInit,
      eventSourceInit: {
        fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...config.headers } }),
      },
    }),
  });
  const client = createClient();
  try {
    await client.connect(transport, requestOptions);
  } catch (error) {
    await transport.close().catch(() => {});
    throw error;
  }
  return { client, transport, kind: "sse" };
}
