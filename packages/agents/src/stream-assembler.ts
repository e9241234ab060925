import type {
  AgentModelEvent,
  ContentPart,
  ProviderMetadata,
  ReasoningDeltaEvent,
  ToolCallEndEvent,
  ToolCallPart,
  ToolCallStartEvent,
} from "@heddle/shared";
import type { ToolInputParse } from "./tool-input.js";

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
  id: string;
  name: string;
  metadata?: ProviderMetadata;
  /** Set by `tool-call-end`; a call without one was cut off and does not run. */
  parse?: ToolInputParse;
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

/**
 * Builds one assistant message from a model's stream. Every delta is appended to an array (joined once at the
 * end) and tool-call arguments are parsed once, so the cost per delta is constant whatever the stream's length.
 */
export class StreamAssembler {
  private readonly slots: Slot[] = [];
  private readonly tools = new Map<string, ToolSlot>();

  /**
   * Feeds one model event; ignores events that carry no content. Tool calls arrive as blocks completed by the
   * gateway (`tool-call-start` … `tool-call-end`): the deltas are for display and are not kept here.
   */
  push(event: AgentModelEvent): void {
    if (event.type === "text-delta") this.pushText(event.text);
    else if (event.type === "reasoning-delta") this.pushReasoning(event);
    else if (event.type === "tool-call-start") this.startToolCall(event);
    else if (event.type === "tool-call-end") this.endToolCall(event);
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

  private startToolCall(event: ToolCallStartEvent): void {
    const slot: ToolSlot = { kind: "tool", id: event.id, name: event.name };
    if (event.metadata) slot.metadata = mergeMetadata(undefined, event.metadata);
    this.slots.push(slot);
    this.tools.set(event.id, slot);
  }

  private endToolCall(event: ToolCallEndEvent): void {
    const slot = this.tools.get(event.id);
    if (!slot) return; // an end without a start names no tool: nothing to run
    slot.parse =
      event.error === undefined
        ? { ok: true, value: event.input }
        : { ok: false, error: event.error, text: event.rawText };
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
        const parse: ToolInputParse = slot.parse ?? {
          ok: false,
          error: "the response ended before the call's arguments were complete",
          text: "",
        };
        const part: ToolCallPart = {
          type: "tool-call",
          toolCallId: slot.id,
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
