import { createParser, type EventSourceMessage } from "eventsource-parser";

/** One server-sent event, as `eventsource-parser` gives it: `event` is undefined when the server sent no name. */
export type SseEvent = Pick<EventSourceMessage, "event" | "data">;

/**
 * What a family makes of one event: the chunk its mapper reads, or undefined to skip the event (a ping, a `[DONE]`
 * marker). A throw ends the call with that error (an `error` event the vendor sent, malformed JSON).
 */
export type SseDecode<Chunk> = (event: SseEvent) => Chunk | undefined;

/** A response body as the vendor clients hand it over: a `ReadableStream` or the guarded body (both iterate bytes). */
export type ByteBody = AsyncIterable<Uint8Array>;

/**
 * The server-sent events of a response body, decoded to chunks, in batches: one batch for each piece of the body
 * that completes at least one event, so a network chunk carrying fifty small events costs one `await`, not fifty.
 *
 * Why Heddle reads the stream itself rather than through the vendor client's own `Stream` (the client still builds,
 * signs and sends the request and turns an HTTP error status into its typed error): the clients' readers are three
 * async generators deep per event (bytes to lines, lines to events, events to JSON), about nine promises per event.
 * On a tool turn that streams 200 small argument deltas that machinery was most of what Heddle spent above a raw
 * client loop (docs/benchmarks.md). Here the parsing is `eventsource-parser`'s (synchronous, spec-conformant,
 * linear in the body's size) and each family's `decode` keeps its client's rules (which events are skipped, which
 * are errors), each tested in the family's own tests.
 *
 * The body should be cut at line breaks (`guardedFetch` does): the parser then holds no partial line between pieces.
 * An event left unterminated when the body ends is dropped, as the SSE specification and the vendor clients do.
 */
export function sseChunks<Chunk>(
  body: ByteBody | null | undefined,
  decode: SseDecode<Chunk>,
  options: SseOptions = {},
): AsyncIterator<Chunk[]> {
  if (!body) return { next: async () => ({ done: true, value: undefined }) };
  const tail = options.unterminatedEnd ? new TailWatch() : undefined;
  const source = body[Symbol.asyncIterator]();
  const text = new TextDecoder();
  let batch: Chunk[] = [];
  // A decode that threw (an error event, bad JSON): the events before it are handed out first, then this ends the
  // call; nothing after it is decoded.
  let failure: { error: unknown } | undefined;
  const parser = createParser({
    onEvent(event) {
      if (failure) return;
      try {
        const chunk = decode(event);
        if (chunk !== undefined) batch.push(chunk);
      } catch (error) {
        failure = { error };
      }
    },
  });
  let finished = false;

  const cancel = async (): Promise<void> => {
    if (finished) return;
    finished = true;
    await source.return?.();
  };

  return {
    async next(): Promise<IteratorResult<Chunk[]>> {
      while (!failure && !finished) {
        const read = await source.next();
        if (read.done) {
          finished = true;
          const rest = text.decode();
          parser.feed(rest);
          tail?.feed(rest);
          if (tail?.open && !failure) failure = { error: options.unterminatedEnd!() };
        } else {
          const piece = text.decode(read.value, { stream: true });
          parser.feed(piece);
          tail?.feed(piece);
        }
        if (batch.length > 0) break;
      }
      if (batch.length > 0) {
        const value = batch;
        batch = [];
        return { done: false, value };
      }
      if (failure) {
        // The rest of the body is not read.
        await cancel().catch(() => {});
        throw failure.error;
      }
      return { done: true, value: undefined };
    },
    async return(): Promise<IteratorResult<Chunk[]>> {
      await cancel();
      return { done: true, value: undefined };
    },
  };
}

/** How `sseChunks` treats the body's end. */
export interface SseOptions {
  /**
   * The error for a body that ended inside an event (text after the last blank line), where the vendor client
   * treats that as a cut connection (`@google/genai` does). Without it, such an event is dropped, as the SSE
   * specification says.
   */
  unterminatedEnd?: () => unknown;
}

/**
 * Whether the text fed so far has anything but whitespace after its last event boundary (a blank line: `\n\n`,
 * `\r\r` or `\r\n\r\n`). Linear in the text: it looks at each piece once, keeping only the last three
 * characters of the one before, for a boundary split between two pieces.
 */
class TailWatch {
  open = false;
  #carry = "";

  feed(piece: string): void {
    if (piece === "") return;
    const text = this.#carry + piece;
    const end = lastBoundaryEnd(text);
    if (end >= 0) this.open = /\S/.test(text.slice(end));
    else if (!this.open) this.open = /\S/.test(piece);
    this.#carry = text.slice(-3);
  }
}

function lastBoundaryEnd(text: string): number {
  let end = -1;
  for (const boundary of ["\n\n", "\r\r", "\r\n\r\n"]) {
    const at = text.lastIndexOf(boundary);
    if (at >= 0) end = Math.max(end, at + boundary.length);
  }
  return end;
}

/**
 * The events of a streaming request a vendor client sent (`messages.create`, `chat.completions.create`,
 * `responses.create` with `stream: true`): its `asResponse()` resolves once the client has the response and has
 * turned an error status into its typed error; the body is then read here, not by the client.
 */
export async function readSseResponse<Chunk>(
  request: { asResponse(): Promise<{ body: unknown }> },
  decode: SseDecode<Chunk>,
): Promise<AsyncIterator<Chunk[]>> {
  const response = await request.asResponse();
  return sseChunks(response.body as ByteBody | null, decode);
}
