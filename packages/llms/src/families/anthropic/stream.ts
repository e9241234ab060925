import type { AgentModelEvent, AgentUsage, FinishReason } from "@heddle/shared";
import { ToolCallAccumulator } from "../../tool-call-accumulator.js";

/** The metadata key every Anthropic-bound value is stored under. */
export const ANTHROPIC = "anthropic";

/** What we keep of one open content block, by its `index`. */
type BlockState =
  | { kind: "text" }
  | { kind: "thinking" }
  | { kind: "tool"; sawText: boolean; startInput: unknown; closed: boolean }
  | { kind: "ignored" };

/** The raw stream event fields we read; everything else is ignored, so new vendor fields never break us. */
interface RawEvent {
  type?: string;
  index?: number;
  message?: { usage?: RawUsage | null };
  content_block?: {
    type?: string;
    text?: string;
    thinking?: string;
    data?: string;
    id?: string;
    name?: string;
    input?: unknown;
  };
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    partial_json?: string;
    stop_reason?: string | null;
  };
  usage?: RawUsage | null;
}

interface RawUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

const STOP_REASONS: Record<string, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  // "Send the response back as is to continue" (server tools): a normal end of this response.
  pause_turn: "stop",
  tool_use: "tool-calls",
  max_tokens: "max-tokens",
  model_context_window_exceeded: "max-tokens",
  refusal: "content-filter",
};

/**
 * Turns the raw Messages stream events into neutral events, one event at a time. Holds the per-block state
 * (tool-call JSON by block index) and the usage, which arrives as a start value plus cumulative updates.
 */
export class AnthropicStreamMapper {
  private readonly blocks = new Map<number, BlockState>();
  private readonly calls = new ToolCallAccumulator();
  private readonly usage: RawUsage = {};
  private sawMessageStart = false;
  private stopReason: string | null = null;
  /** True once `message_stop` arrived: the response is complete. */
  completed = false;

  handle(raw: unknown): AgentModelEvent[] {
    const event = (raw ?? {}) as RawEvent;
    switch (event.type) {
      case "message_start":
        this.sawMessageStart = true;
        this.mergeUsage(event.message?.usage);
        return [];
      case "content_block_start":
        return this.startBlock(event);
      case "content_block_delta":
        return this.delta(event);
      case "content_block_stop":
        return this.stopBlock(event.index);
      case "message_delta":
        if (event.delta?.stop_reason) this.stopReason = event.delta.stop_reason;
        this.mergeUsage(event.usage);
        return [];
      case "message_stop":
        this.completed = true;
        return [];
      default:
        // ping and event types newer than this code carry nothing we map.
        return [];
    }
  }

  /** The one `usage` event of this response, or nothing when no `message_start` arrived. */
  usageEvent(): AgentModelEvent[] {
    if (!this.sawMessageStart) return [];
    const usage: Partial<AgentUsage> = {
      inputTokens: this.usage.input_tokens ?? 0,
      outputTokens: this.usage.output_tokens ?? 0,
      cacheReadTokens: this.usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: this.usage.cache_creation_input_tokens ?? 0,
      reasoningTokens: this.usage.output_tokens_details?.thinking_tokens ?? 0,
    };
    return [{ type: "usage", usage }];
  }

  /** The finish reason of a completed response. A cut tool call never turns into `tool-calls`. */
  finishReason(): FinishReason {
    const mapped = this.stopReason ? STOP_REASONS[this.stopReason] : undefined;
    if (mapped === "tool-calls" && this.hasUnclosedToolCall()) return "max-tokens";
    return mapped ?? "stop";
  }

  private hasUnclosedToolCall(): boolean {
    for (const block of this.blocks.values()) if (block.kind === "tool" && !block.closed) return true;
    return false;
  }

  private mergeUsage(update: RawUsage | null | undefined): void {
    if (!update) return;
    // message_delta usage is cumulative: the last non-null value of each field wins, never a sum.
    for (const key of [
      "input_tokens",
      "output_tokens",
      "cache_creation_input_tokens",
      "cache_read_input_tokens",
    ] as const) {
      const value = update[key];
      if (typeof value === "number") this.usage[key] = value;
    }
    const thinking = update.output_tokens_details?.thinking_tokens;
    if (typeof thinking === "number") this.usage.output_tokens_details = { thinking_tokens: thinking };
  }

  private startBlock(event: RawEvent): AgentModelEvent[] {
    const index = event.index ?? this.blocks.size;
    const block = event.content_block ?? {};
    switch (block.type) {
      case "text":
        this.blocks.set(index, { kind: "text" });
        return block.text ? [{ type: "text-delta", text: block.text }] : [];
      case "thinking":
        this.blocks.set(index, { kind: "thinking" });
        return block.thinking ? [{ type: "reasoning-delta", text: block.thinking }] : [];
      case "redacted_thinking":
        this.blocks.set(index, { kind: "ignored" });
        return [
          {
            type: "reasoning-delta",
            text: "",
            redacted: true,
            metadata: { [ANTHROPIC]: { redactedData: block.data ?? "" } },
          },
        ];
      case "tool_use": {
        this.blocks.set(index, { kind: "tool", sawText: false, startInput: block.input, closed: false });
        const out: AgentModelEvent[] = [];
        this.calls.start(index, block.id, block.name ?? "", out);
        return out;
      }
      default:
        // server_tool_use, web_search_tool_result and newer block types run on Anthropic's side: not ours to map.
        this.blocks.set(index, { kind: "ignored" });
        return [];
    }
  }

  private delta(event: RawEvent): AgentModelEvent[] {
    const index = event.index ?? -1;
    const block = this.blocks.get(index);
    const delta = event.delta ?? {};
    if (!block || block.kind === "ignored") return [];
    switch (delta.type) {
      case "text_delta":
        return block.kind === "text" && delta.text ? [{ type: "text-delta", text: delta.text }] : [];
      case "thinking_delta":
        return block.kind === "thinking" && delta.thinking ? [{ type: "reasoning-delta", text: delta.thinking }] : [];
      case "signature_delta":
        if (block.kind !== "thinking" || !delta.signature) return [];
        return [
          {
            type: "reasoning-delta",
            text: "",
            signature: delta.signature,
            metadata: { [ANTHROPIC]: { signature: delta.signature } },
          },
        ];
      case "input_json_delta": {
        if (block.kind !== "tool" || !delta.partial_json) return [];
        if (delta.partial_json.trim() !== "") block.sawText = true;
        const out: AgentModelEvent[] = [];
        this.calls.append(index, delta.partial_json, out);
        return out;
      }
      default:
        // citations_delta and newer delta types.
        return [];
    }
  }

  private stopBlock(index: number | undefined): AgentModelEvent[] {
    const block = index === undefined ? undefined : this.blocks.get(index);
    if (block?.kind !== "tool") return [];
    block.closed = true;
    // A tool without arguments streams one empty fragment: its input is the start block's `{}`.
    if (!block.sawText) this.calls.setInput(index as number, isPlainObject(block.startInput) ? block.startInput : {});
    const out: AgentModelEvent[] = [];
    this.calls.end(index as number, out);
    return out;
  }

  /** Ends the calls a cut response left open: their arguments are incomplete, so they end as errors. */
  endOpenCalls(): AgentModelEvent[] {
    const out: AgentModelEvent[] = [];
    for (const [index, block] of this.blocks)
      if (block.kind === "tool" && !block.closed)
        this.calls.fail(index, "the response ended before the call's arguments were complete", out);
    return out;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
