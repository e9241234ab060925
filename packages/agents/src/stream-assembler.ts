import {
  type AgentModelEvent,
  type ContentPart,
  createId,
  type ProviderMetadata,
  type ReasoningDeltaEvent,
  type ToolCallDeltaEvent,
  type ToolCallPart,
} from "@heddle/shared";
import { parseToolInput, type ToolInputParse } from "./tool-input.js";

interface TextSlot {
  kind: "text";
  chunks: string[];
}
interface ReasoningSlot {
  kind: "reasoning";
  chunks: string[];
  signature?: string;
  redacted?: boolean;
  metadata?: ProviderMetadata;
}
interface ToolSlot {
  kind: "tool";
  id?: string;
  name: string;
  chunks: string[];
  input?: unknown;
  hasInput: boolean;
  metadata?: ProviderMetadata;
  /**
   * JSON nesting depth and string state of `chunks[0..scanned)`, so a restart is seen without re-parsing. The scan
   * is lazy: it runs only when a fragment could be a restart, and each chunk is scanned at most once.
   */
  scanned: number;
  depth: number;
  inString: boolean;
  escaped: boolean;
  complete: boolean;
}
type Slot = TextSlot | ReasoningSlot | ToolSlot;

/** A finished tool call, with how its arguments parsed. */
export interface AssembledToolCall {
  part: ToolCallPart;
  parse: ToolInputParse;
}

/** The assembled response: parts in arrival order, the tool calls among them, and the text. */
export interface AssembledMessage {
  content: ContentPart[];
  toolCalls: AssembledToolCall[];
  text: string;
}

function mergeMetadata(target: ProviderMetadata | undefined, extra: ProviderMetadata): ProviderMetadata {
  if (!target) return { ...extra };
  for (const family of Object.keys(extra)) target[family] = { ...target[family], ...extra[family] };
  return target;
}

/** True when `text` starts, after any whitespace, with `{` or `[`. */
function opensValue(text: string): boolean {
  const first = text.charCodeAt(0);
  if (first === 123 /* { */ || first === 91 /* [ */) return true;
  if (first > 32 && first < 127) return false;
  return /^\s*[{[]/.test(text);
}

/** Advances the slot's JSON state over the chunks not scanned yet. */
function scanArguments(slot: ToolSlot): void {
  for (; slot.scanned < slot.chunks.length; slot.scanned++) {
    const text = slot.chunks[slot.scanned] as string;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (slot.inString) {
        if (slot.escaped) slot.escaped = false;
        else if (ch === 92 /* \ */) slot.escaped = true;
        else if (ch === 34 /* " */) slot.inString = false;
      } else if (ch === 34) slot.inString = true;
      else if (ch === 123 /* { */ || ch === 91 /* [ */) slot.depth++;
      else if (ch === 125 /* } */ || ch === 93 /* ] */) {
        slot.depth--;
        if (slot.depth === 0) slot.complete = true;
      }
    }
  }
}

/**
 * Builds one assistant message from a model's stream. Every delta is appended to an array (joined once at the
 * end) and tool-call arguments are parsed once, so the cost per delta is constant whatever the stream's length.
 */
export class StreamAssembler {
  private readonly slots: Slot[] = [];
  private readonly toolsById = new Map<string, ToolSlot>();
  private readonly toolsByIndex = new Map<number, ToolSlot>();
  private lastTool: ToolSlot | undefined;

  /** Feeds one model event; ignores events that carry no content. */
  push(event: AgentModelEvent): void {
    if (event.type === "text-delta") this.pushText(event.text);
    else if (event.type === "reasoning-delta") this.pushReasoning(event);
    else if (event.type === "tool-call-delta") this.pushToolCall(event);
  }

  /** True once any text, reasoning or tool call arrived. */
  get hasOutput(): boolean {
    return this.slots.length > 0;
  }

  private pushText(text: string): void {
    if (text === "") return;
    const last = this.slots[this.slots.length - 1];
    if (last?.kind === "text") last.chunks.push(text);
    else this.slots.push({ kind: "text", chunks: [text] });
  }

  private pushReasoning(event: ReasoningDeltaEvent): void {
    const last = this.slots[this.slots.length - 1];
    const open = last?.kind === "reasoning" ? last : undefined;
    // A block is closed once signed or redacted: vendors send several blocks in a row (Anthropic's back-to-back
    // redacted_thinking), and each must go back as its own part with its own data.
    const closed = open !== undefined && (open.signature !== undefined || open.redacted === true);
    const metadataOnly =
      event.text === "" && event.signature === undefined && !event.redacted && event.metadata !== undefined;
    let slot = open && (metadataOnly || (!closed && !event.redacted)) ? open : undefined;
    if (!slot) {
      if (event.text === "" && event.signature === undefined && !event.redacted && event.metadata === undefined) return;
      slot = { kind: "reasoning", chunks: [] };
      this.slots.push(slot);
    }
    if (event.text !== "") slot.chunks.push(event.text);
    if (event.signature !== undefined) slot.signature = (slot.signature ?? "") + event.signature;
    if (event.redacted) slot.redacted = true;
    if (event.metadata) slot.metadata = mergeMetadata(slot.metadata, event.metadata);
  }

  private pushToolCall(event: ToolCallDeltaEvent): void {
    const slot = this.findToolSlot(event);
    if (event.toolName) slot.name = event.toolName;
    if (event.metadata) slot.metadata = mergeMetadata(slot.metadata, event.metadata);
    if (event.input !== undefined) {
      slot.input = event.input;
      slot.hasInput = true;
    }
    if (event.inputText) this.appendArguments(slot, event.inputText);
  }

  private findToolSlot(event: ToolCallDeltaEvent): ToolSlot {
    let slot: ToolSlot | undefined;
    if (event.toolCallId !== undefined) {
      slot = this.toolsById.get(event.toolCallId);
      if (!slot && event.index !== undefined) {
        // A call first seen by index only gets its id now; a known index with another id is a new call.
        const byIndex = this.toolsByIndex.get(event.index);
        if (byIndex && byIndex.id === undefined) slot = byIndex;
      }
      if (!slot) slot = this.newToolSlot();
      if (slot.id === undefined) {
        slot.id = event.toolCallId;
        this.toolsById.set(event.toolCallId, slot);
      }
    } else if (event.index !== undefined) {
      // The common fragment (index only, a known call): one lookup, no map writes.
      slot = this.toolsByIndex.get(event.index);
      if (slot) {
        this.lastTool = slot;
        return slot;
      }
      slot = this.newToolSlot();
    } else {
      slot = this.lastTool ?? this.newToolSlot();
    }
    if (event.index !== undefined) this.toolsByIndex.set(event.index, slot);
    this.lastTool = slot;
    return slot;
  }

  private newToolSlot(): ToolSlot {
    const slot: ToolSlot = {
      kind: "tool",
      name: "",
      chunks: [],
      hasInput: false,
      scanned: 0,
      depth: 0,
      inString: false,
      escaped: false,
      complete: false,
    };
    this.slots.push(slot);
    return slot;
  }

  private appendArguments(slot: ToolSlot, text: string): void {
    // Some servers resend the whole arguments object after a complete one: that fragment replaces the text. Only a
    // fragment that opens an object or array can be one, so the JSON state is brought up to date only then.
    if (slot.chunks.length > 0 && opensValue(text)) {
      scanArguments(slot);
      if (slot.complete) {
        slot.chunks.length = 0;
        slot.scanned = 0;
        slot.depth = 0;
        slot.inString = false;
        slot.escaped = false;
        slot.complete = false;
      }
    }
    slot.chunks.push(text);
  }

  /** The message content in arrival order; tool-call arguments are parsed here, once. */
  finish(): AssembledMessage {
    const content: ContentPart[] = [];
    const toolCalls: AssembledToolCall[] = [];
    let text = "";
    for (const slot of this.slots) {
      if (slot.kind === "text") {
        const joined = slot.chunks.join("");
        text += joined;
        content.push({ type: "text", text: joined });
      } else if (slot.kind === "reasoning") {
        content.push({
          type: "reasoning",
          text: slot.chunks.join(""),
          ...(slot.signature !== undefined && { signature: slot.signature }),
          ...(slot.redacted && { redacted: true }),
          ...(slot.metadata && { providerMetadata: slot.metadata }),
        });
      } else {
        const parse: ToolInputParse = slot.hasInput
          ? { ok: true, value: slot.input, repaired: false }
          : parseToolInput(slot.chunks.join(""));
        const part: ToolCallPart = {
          type: "tool-call",
          toolCallId: slot.id ?? createId("call"),
          toolName: slot.name,
          // The transcript must stay valid for every vendor, so an unreadable call records an empty object.
          input: parse.ok ? parse.value : {},
          ...(slot.metadata && { providerMetadata: slot.metadata }),
        };
        content.push(part);
        toolCalls.push({ part, parse });
      }
    }
    return { content, toolCalls, text };
  }

  /** Only the text received so far (what is kept of a response cut by an abort). */
  partialText(): string {
    let text = "";
    for (const slot of this.slots) if (slot.kind === "text") text += slot.chunks.join("");
    return text;
  }
}
