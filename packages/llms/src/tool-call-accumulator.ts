import type { AgentModelEvent, ProviderMetadata } from "@heddle/shared";
import { createId } from "@heddle/shared";
import { MAX_ARGUMENT_DEPTH, nestsTooDeep, parseToolArguments } from "./tool-input-parse.js";

interface OpenCall {
  id: string;
  chunks: string[];
  /** Arguments the vendor sent whole (Gemini, an Anthropic call without arguments). */
  input?: unknown;
  hasInput: boolean;
}

/**
 * Turns each vendor's tool-call pieces into the seam's block events, the same way for every family:
 * `tool-call-start {id, name}`, `tool-call-delta {id, text}` per argument fragment, and one `tool-call-end` with
 * the parsed (or repaired) input, or with the raw text and an error. Calls are keyed by whatever the vendor uses
 * (a block index, an item id, an output index); ids are unique within the response, invented where the vendor
 * gives none. Fragments are kept in an array and joined once, so a call costs linear time in its size.
 * With `deltas: false` (the request's `toolCallDeltas: false`) no `tool-call-delta` is pushed: a chunk that only
 * carries an argument fragment then maps to no event at all, which is most of a tool turn's chunks.
 */
export class ToolCallAccumulator {
  private readonly open = new Map<string | number, OpenCall>();
  private readonly ids = new Set<string>();
  private readonly deltas: boolean;

  constructor(options: { deltas?: boolean } = {}) {
    this.deltas = options.deltas !== false;
  }

  /** Calls started in this response. */
  get count(): number {
    return this.ids.size;
  }

  /** True when a call with this key is open (started, not ended). */
  has(key: string | number): boolean {
    return this.open.has(key);
  }

  /** True while any call is open. */
  get hasOpen(): boolean {
    return this.open.size > 0;
  }

  /** Starts a call; a missing or repeated vendor id is replaced by a fresh one. Returns the id used. */
  start(
    key: string | number,
    vendorId: string | null | undefined,
    name: string,
    out: AgentModelEvent[],
    metadata?: ProviderMetadata,
  ): string {
    this.end(key, out);
    const id = vendorId && !this.ids.has(vendorId) ? vendorId : createId("call");
    this.ids.add(id);
    this.open.set(key, { id, chunks: [], hasInput: false });
    out.push(metadata ? { type: "tool-call-start", id, name, metadata } : { type: "tool-call-start", id, name });
    return id;
  }

  /** Appends a fragment of argument text to an open call (ignored for an unknown key or empty text). */
  append(key: string | number, text: string, out: AgentModelEvent[]): void {
    const call = this.open.get(key);
    if (!call || text === "") return;
    call.chunks.push(text);
    if (this.deltas) out.push({ type: "tool-call-delta", id: call.id, text });
  }

  /** Sets the complete arguments of an open call, as the vendor sent them parsed; they win over text. */
  setInput(key: string | number, input: unknown): void {
    const call = this.open.get(key);
    if (!call) return;
    call.input = input;
    call.hasInput = true;
  }

  /** Ends an open call: its input, or its raw text and why it could not be read. */
  end(key: string | number, out: AgentModelEvent[]): void {
    const call = this.open.get(key);
    if (!call) return;
    this.open.delete(key);
    if (call.hasInput) {
      if (nestsTooDeep(call.input)) {
        const error = `the arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels`;
        out.push({ type: "tool-call-end", id: call.id, rawText: "", error });
      } else out.push({ type: "tool-call-end", id: call.id, input: call.input ?? {} });
      return;
    }
    const text = call.chunks.length === 1 ? (call.chunks[0] as string) : call.chunks.join("");
    const parse = parseToolArguments(text);
    out.push(
      parse.ok
        ? { type: "tool-call-end", id: call.id, input: parse.value }
        : { type: "tool-call-end", id: call.id, rawText: text, error: parse.error },
    );
  }

  /** Ends an open call as unreadable without parsing it (its arguments were cut by the vendor). */
  fail(key: string | number, error: string, out: AgentModelEvent[]): void {
    const call = this.open.get(key);
    if (!call) return;
    this.open.delete(key);
    out.push({ type: "tool-call-end", id: call.id, rawText: call.chunks.join(""), error });
  }

  /** Ends every open call, in start order. */
  endAll(out: AgentModelEvent[]): void {
    for (const key of [...this.open.keys()]) this.end(key, out);
  }
}
