import { CALL_LINK, type CallLink, StreamLimitError } from "./call-link.js";
import { modelError } from "./errors.js";

type FetchInit = RequestInit & { [CALL_LINK]?: CallLink };

/**
 * Counters a test reads to check that decoding stays linear: network chunks received, chunks handed to the client,
 * joins made and bytes they copied.
 */
export const rechunkStats = { received: 0, delivered: 0, joins: 0, bytesCopied: 0 };

function joinBytes(parts: Uint8Array[], total: number): Uint8Array {
  rechunkStats.joins++;
  rechunkStats.bytesCopied += total;
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

/** Index just past the last line break (`\n` or `\r`) in the chunk, or -1. Scans from the end. */
function endOfLastLine(chunk: Uint8Array): number {
  for (let i = chunk.byteLength - 1; i >= 0; i--) {
    const byte = chunk[i];
    if (byte === 10 || byte === 13) return i + 1;
  }
  return -1;
}

/**
 * The response body re-cut so that every chunk ends at a line break, with the call's limits applied.
 *
 * Why: the vendor clients' SSE decoders (`@google/genai`'s, which the `gemini` family still reads through; the
 * `openai` and `@anthropic-ai/sdk` ones before Heddle read those families' events itself, src/sse.ts) join their
 * buffer with each new chunk and search it from the start for an event boundary. A large event arriving in many
 * network chunks (one 16 MB tool-call delta is ~250 chunks of 64 KB) is then copied and scanned once per chunk:
 * quadratic (16 MB took 11 s, 50 MB over a minute). Holding bytes here until a line break arrives hands a decoder
 * each line whole: one join, one scan, linear. Heddle's own reader then holds no partial line between pieces.
 * Chunks that already end at a line (nearly all of them) pass through untouched.
 *
 * It is an async iterable with a minimal `getReader()`, not a ReadableStream: the clients only iterate the body or
 * read it, and one `.then` per chunk is the cheapest layer there is.
 */
interface GuardedBody extends AsyncIterable<Uint8Array> {
  getReader(): {
    read(): Promise<IteratorResult<Uint8Array>>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
    closed: Promise<unknown>;
  };
}

function guardedBody(body: ReadableStream<Uint8Array>, link: CallLink): GuardedBody {
  const reader = body.getReader();
  // An abort or a stream limit ends the read here, whatever the vendor client does with the signal: the Anthropic
  // client drops its own abort listener once the body object it saw is garbage (its "abandonment backstop"), and a
  // reader that holds only this body's iterator lets that happen mid-stream. Cancelling ends a pending read as done;
  // the driver then reports the abort or the limit.
  link.signal.addEventListener("abort", () => void reader.cancel(link.signal.reason).catch(() => {}), { once: true });
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let finished = false;

  const step = (
    result: ReadableStreamReadResult<Uint8Array>,
  ): IteratorResult<Uint8Array> | Promise<IteratorResult<Uint8Array>> => {
    if (result.done) {
      finished = true;
      if (heldBytes === 0) return { done: true, value: undefined };
      const rest = held.length === 1 ? (held[0] as Uint8Array) : joinBytes(held, heldBytes);
      held = [];
      heldBytes = 0;
      rechunkStats.delivered++;
      return { done: false, value: rest };
    }
    const chunk = result.value;
    rechunkStats.received++;
    link.touch();
    if (!link.count(chunk.byteLength)) {
      void reader.cancel().catch(() => {});
      throw new StreamLimitError(link.failure ?? modelError("server", "The response exceeded its size limit."));
    }
    const cut = endOfLastLine(chunk);
    if (cut < 0) {
      held.push(chunk);
      heldBytes += chunk.byteLength;
      return reader.read().then(step);
    }
    let out: Uint8Array;
    if (heldBytes === 0 && cut === chunk.byteLength) out = chunk;
    else {
      const head = chunk.subarray(0, cut);
      out = heldBytes === 0 ? head : joinBytes([...held, head], heldBytes + head.byteLength);
      held = [];
      heldBytes = 0;
      if (cut < chunk.byteLength) {
        const tail = chunk.subarray(cut);
        held.push(tail);
        heldBytes = tail.byteLength;
      }
    }
    rechunkStats.delivered++;
    return { done: false, value: out };
  };

  const next = (): Promise<IteratorResult<Uint8Array>> =>
    finished ? Promise.resolve({ done: true, value: undefined }) : reader.read().then(step);
  const cancel = async (reason?: unknown): Promise<void> => {
    finished = true;
    await reader.cancel(reason).catch(() => {});
  };
  const iterator: AsyncIterator<Uint8Array> = {
    next,
    return: async () => {
      await cancel();
      return { done: true, value: undefined };
    },
  };
  // `openai` and the Anthropic client iterate the body; `@google/genai` takes a reader: both are offered.
  return {
    [Symbol.asyncIterator]: () => iterator,
    getReader: () => ({ read: next, cancel, releaseLock() {}, closed: reader.closed }),
  };
}

/**
 * The `fetch` handed to the `openai`, `@anthropic-ai/sdk` and `@google/genai` clients. A request that carries a `CallLink` (in
 * `fetchOptions`, under `CALL_LINK`) gets its response body guarded: idle time and size counted per chunk, and
 * re-cut at line breaks (see `guardedBody`). Any other request is plain `fetch`.
 */
export async function guardedFetch(input: string | URL | Request, init?: FetchInit): Promise<Response> {
  const link = init?.[CALL_LINK];
  if (!link) return fetch(input, init);
  const { [CALL_LINK]: _link, ...plain } = init;
  const response = await fetch(input, plain);
  link.touch();
  if (!response.ok || !response.body) return response;
  const body = guardedBody(response.body, link);
  // The clients read `response.body` for streams; error bodies (`text()`, `json()`) still read the original.
  Object.defineProperty(response, "body", { value: body, configurable: true });
  return response;
}

/** A `fetch` bound to one call (for clients built per call, like `@google/genai`'s). */
export function fetchForCall(link: CallLink): typeof fetch {
  return (input, init) => guardedFetch(input as string | URL | Request, { ...init, [CALL_LINK]: link });
}

/** `fetchOptions` that carry the call's link to `guardedFetch`. */
export function linkedFetchOptions(link: CallLink): never {
  // Typed loosely: each client has its own `RequestInit` type, and the key is ours.
  return { [CALL_LINK]: link } as never;
}
