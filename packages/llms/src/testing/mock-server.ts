/// <reference types="node" />
/**
 * A loopback HTTP server that speaks each vendor's real streaming wire format, so tests drive the real vendor
 * clients (`@anthropic-ai/sdk`, `openai`, `@google/genai`) end to end. Responses come from a script (JSON payloads
 * framed per family), from raw SSE text (a recorded stream), or are faults: a status with headers and body, a
 * connection cut after N bytes, a stall. Every request is recorded.
 *
 * Node only: `node:http` is imported when the server starts, so importing this subpath stays browser-safe.
 */

/** The wire families the server speaks, named as in `@heddle/llms`. */
export type MockFamily = "anthropic" | "openai" | "openai-chat" | "gemini";

/** One scripted HTTP response. Give one body source: `events`, `sse`, `json` or `body`. */
export interface MockResponse {
  /** JSON payloads, framed as the family's SSE (event names, `[DONE]`, `\r\n\r\n`, ...). */
  events?: unknown[];
  /** Raw SSE text sent as is (a recorded stream). */
  sse?: string;
  /** A JSON body (errors, non-streaming answers). */
  json?: unknown;
  /** A raw body. */
  body?: string;
  /** HTTP status; 200 by default. */
  status?: number;
  headers?: Record<string, string>;
  /** Split the body into chunks of these byte sizes (cycled). Default: one write per SSE event. */
  chunkSizes?: number | number[];
  /**
   * Yield to the event loop after each chunk, so each leaves as its own TCP write instead of being coalesced with
   * the next (the client then really reads the split). Slower; meant for re-chunking property tests.
   */
  flushChunks?: boolean;
  /** Wait this long between chunks. */
  chunkDelayMs?: number;
  /** Destroy the connection after this many body bytes (a cut connection). */
  cutAfterBytes?: number;
  /** Stop sending after this many body bytes and hold the connection open for `stallMs` (default: forever). */
  stallAfterBytes?: number;
  stallMs?: number;
}

/** A request the server received. */
export interface RecordedRequest {
  family: MockFamily | "unknown";
  method: string;
  /** Path without the query string. */
  path: string;
  /** Path with the query string. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The JSON body, parsed; undefined when it was not JSON. */
  body: any;
  rawBody: string;
}

/** Decides a response from the request; return undefined to fall back to the queue. */
export type MockResponder = (request: RecordedRequest) => MockResponse | undefined;

export interface MockProviderServerOptions {
  /** Consulted before the queues for every request. */
  respond?: MockResponder;
  port?: number;
}

/** A running mock server. */
export interface MockProviderServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The base URL to hand the family's client: `/v1` appended for the OpenAI families, the host root otherwise. */
  baseUrl(family: MockFamily): string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Queue responses for one family (or `"any"`), served in order. */
  enqueue(family: MockFamily | "any", ...responses: MockResponse[]): void;
  /** Responses still queued. */
  pending(family?: MockFamily | "any"): number;
  /** Forget queued responses and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

/** Which family a request path belongs to. */
export function familyForPath(path: string): MockFamily | "unknown" {
  if (/\/messages$/.test(path)) return "anthropic";
  if (/\/chat\/completions$/.test(path)) return "openai-chat";
  if (/\/responses$/.test(path)) return "openai";
  if (/:(stream)?[gG]enerateContent$/.test(path)) return "gemini";
  return "unknown";
}

/** Frames one JSON payload as an SSE event of the family's wire format. */
export function frameSseEvent(family: MockFamily, payload: unknown): string {
  const data = typeof payload === "string" ? payload : JSON.stringify(payload);
  const type = (payload as { type?: unknown } | null)?.type;
  switch (family) {
    case "anthropic":
    case "openai":
      // Both clients dispatch on the `event:` line; Anthropic's drops events without one.
      return typeof type === "string" ? `event: ${type}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
    case "openai-chat":
      return `data: ${data}\n\n`;
    case "gemini":
      return `data: ${data}\r\n\r\n`;
  }
}

/** Frames JSON payloads as a whole SSE body, with the family's terminator (`data: [DONE]` for chat). */
export function frameSse(family: MockFamily, payloads: unknown[]): string[] {
  const events = payloads.map((payload) => frameSseEvent(family, payload));
  if (family === "openai-chat") events.push("data: [DONE]\n\n");
  return events;
}

/**
 * A response replaying a recorded `*.chunks.jsonl` file (one JSON data payload per line, event names not
 * recorded): each line is re-framed for the family of the route that serves it.
 */
export function chunksJsonlResponse(text: string, extra: Partial<MockResponse> = {}): MockResponse {
  const events = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
  return { ...extra, events };
}

/** Starts the server on 127.0.0.1 (a free port unless one is given). */
export async function startMockProviderServer(options: MockProviderServerOptions = {}): Promise<MockProviderServer> {
  const { createServer } = await import("node:http");
  const queues = new Map<string, MockResponse[]>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const nextResponse = (request: RecordedRequest): MockResponse | undefined => {
    const scripted = options.respond?.(request);
    if (scripted) return scripted;
    return queues.get(request.family)?.shift() ?? queues.get("any")?.shift();
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      const url = req.url ?? "/";
      const path = url.split("?")[0] ?? url;
      const family = familyForPath(path);
      const recorded: RecordedRequest = {
        family,
        method: req.method ?? "GET",
        path,
        url,
        headers: req.headers,
        body,
        rawBody,
      };
      requests.push(recorded);
      const response = nextResponse(recorded);
      if (!response) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: { type: "mock_error", message: `mock server: no scripted response for ${family} ${path}` },
          }),
        );
        return;
      }
      await send(res, family, response);
    });
  });

  async function send(res: import("node:http").ServerResponse, family: MockFamily | "unknown", response: MockResponse) {
    const status = response.status ?? 200;
    let pieces: string[];
    let contentType = "application/json";
    if (response.events) {
      pieces = frameSse(family === "unknown" ? "openai-chat" : family, response.events);
      contentType = "text/event-stream";
    } else if (response.sse !== undefined) {
      pieces = [response.sse];
      contentType = "text/event-stream";
    } else if (response.json !== undefined) {
      pieces = [JSON.stringify(response.json)];
    } else {
      pieces = [response.body ?? ""];
    }
    res.writeHead(status, { "content-type": contentType, ...response.headers });
    res.flushHeaders();

    let bytes = Buffer.from(pieces.join(""), "utf8");
    let writes: Buffer[] = pieces.map((piece) => Buffer.from(piece, "utf8"));
    if (response.chunkSizes !== undefined) {
      const sizes = Array.isArray(response.chunkSizes) ? response.chunkSizes : [response.chunkSizes];
      writes = [];
      for (let offset = 0, i = 0; offset < bytes.length; i++) {
        const size = Math.max(1, sizes[i % sizes.length] ?? 1);
        writes.push(bytes.subarray(offset, offset + size));
        offset += size;
      }
    }
    const limit = response.cutAfterBytes ?? response.stallAfterBytes;
    let sent = 0;
    for (let write of writes) {
      if (limit !== undefined && sent + write.length > limit) write = write.subarray(0, limit - sent);
      if (write.length > 0) {
        res.write(write);
        sent += write.length;
      }
      if (limit !== undefined && sent >= limit) break;
      if (response.chunkDelayMs) await wait(response.chunkDelayMs);
      else if (response.flushChunks) await new Promise<void>((resolve) => setImmediate(resolve));
      if (res.destroyed) return;
    }
    bytes = Buffer.alloc(0);
    if (response.cutAfterBytes !== undefined) {
      res.socket?.destroy();
      return;
    }
    if (response.stallAfterBytes !== undefined) {
      if (response.stallMs === undefined) return; // held open until the client gives up or the server closes
      await wait(response.stallMs);
    }
    if (!res.destroyed) res.end();
  }

  server.on("connection", (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: (family) => (family === "openai" || family === "openai-chat" ? `${url}/v1` : url),
    requests,
    enqueue(family, ...responses) {
      const queue = queues.get(family) ?? [];
      queue.push(...responses);
      queues.set(family, queue);
    },
    pending(family) {
      if (family) return queues.get(family)?.length ?? 0;
      let total = 0;
      for (const queue of queues.values()) total += queue.length;
      return total;
    },
    reset() {
      queues.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
