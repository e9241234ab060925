import type { AgentModelEvent, AgentModelRequest, FinishReason, ModelError } from "@heddle/shared";
import { modelError } from "../../errors.js";
import type { SseEvent } from "../../sse.js";
import { ToolCallAccumulator } from "../../tool-call-accumulator.js";
import { type FamilyMapper, failureFinish } from "../driver.js";
import { withResponse } from "../response-info.js";
import { AnthropicStreamError } from "./errors.js";

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
  message?: { id?: string; model?: string; usage?: RawUsage | null };
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
 * One server-sent event of a Messages stream as the mapper reads it, by `@anthropic-ai/sdk`'s own rules: pings and
 * events without a name are skipped, so is an event without data; an `error` event ends the call with its error;
 * any other event's data is JSON (a malformed one ends the call, as it does in the SDK).
 */
export function decodeAnthropicEvent(event: SseEvent): unknown {
  if (event.event === undefined || event.event === "ping") return undefined;
  if (event.event === "error") throw new AnthropicStreamError(parseOrText(event.data));
  if (!event.data) return undefined;
  return JSON.parse(event.data);
}

function parseOrText(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/**
 * Turns the raw Messages stream events into neutral events, one event at a time. Holds the per-block state
 * (tool-call JSON by block index) and the usage, which arrives as a start value plus cumulative updates.
 */
export class AnthropicStreamMapper implements FamilyMapper<unknown> {
  private readonly blocks = new Map<number, BlockState>();
  private readonly calls: ToolCallAccumulator;
  private readonly usage: RawUsage = {};
  private sawMessageStart = false;
  private readonly response: { id?: string; model?: string } = {};
  private readonly wantResponse: boolean | undefined;
  private stopReason: string | null = null;
  /** True once `message_stop` arrived: the response is complete. */
  private completed = false;

  /** `request.toolCallDeltas: false` leaves the argument previews out. */
  constructor(request: Pick<AgentModelRequest, "toolCallDeltas" | "responseInfo"> = {}) {
    this.calls = new ToolCallAccumulator({ deltas: request.toolCallDeltas });
    this.wantResponse = request.responseInfo;
  }

  push(raw: unknown, out: AgentModelEvent[]): void {
    const event = (raw ?? {}) as RawEvent;
    switch (event.type) {
      case "content_block_delta":
        this.delta(event, out);
        return;
      case "content_block_start":
        this.startBlock(event, out);
        return;
      case "content_block_stop":
        this.stopBlock(event.index, out);
        return;
      case "message_start":
        this.sawMessageStart = true;
        if (typeof event.message?.id === "string") this.response.id = event.message.id;
        if (typeof event.message?.model === "string") this.response.model = event.message.model;
        this.mergeUsage(event.message?.usage);
        return;
      case "message_delta":
        if (event.delta?.stop_reason) this.stopReason = event.delta.stop_reason;
        this.mergeUsage(event.usage);
        return;
      case "message_stop":
        this.completed = true;
        return;
      default:
      // ping and event types newer than this code carry nothing we map.
    }
  }

  /** A stream may close without `message_stop`: that is a cut connection, never a stop. */
  end(out: AgentModelEvent[]): void {
    if (this.completed) this.endOpenCalls(out);
    this.pushUsage(out);
    if (!this.completed) {
      const error = modelError("network", "The Anthropic stream ended before message_stop: the connection was cut.");
      out.push({ type: "finish", reason: "error", error });
      return;
    }
    out.push(withResponse({ type: "finish", reason: this.finishReason() }, this.response, this.wantResponse));
  }

  fail(error: ModelError, out: AgentModelEvent[]): void {
    this.pushUsage(out);
    out.push(failureFinish(error));
  }

  /** The one `usage` event of this response; nothing when no `message_start` arrived. */
  private pushUsage(out: AgentModelEvent[]): void {
    if (!this.sawMessageStart) return;
    const usage = this.usage;
    out.push({
      type: "usage",
      usage: {
        inputTokens: usage.input_tokens ?? 0,
        outputTokens: usage.output_tokens ?? 0,
        cacheReadTokens: usage.cache_read_input_tokens ?? 0,
        cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
        reasoningTokens: usage.output_tokens_details?.thinking_tokens ?? 0,
      },
    });
  }

  /** The finish reason of a completed response. A cut tool call never turns into `tool-calls`. */
  private finishReason(): FinishReason {
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

  private startBlock(event: RawEvent, out: AgentModelEvent[]): void {
    const index = event.index ?? this.blocks.size;
    const block = event.content_block ?? {};
    switch (block.type) {
      case "text":
        this.blocks.set(index, { kind: "text" });
        if (block.text) out.push({ type: "text-delta", text: block.text });
        return;
      case "thinking":
        this.blocks.set(index, { kind: "thinking" });
        if (block.thinking) out.push({ type: "reasoning-delta", text: block.thinking });
        return;
      case "redacted_thinking":
        this.blocks.set(index, { kind: "ignored" });
        out.push({
          type: "reasoning-delta",
          text: "",
          redacted: true,
          metadata: { [ANTHROPIC]: { redactedData: block.data ?? "" } },
        });
        return;
      case "tool_use":
        this.blocks.set(index, { kind: "tool", sawText: false, startInput: block.input, closed: false });
        this.calls.start(index, block.id, block.name ?? "", out);
        return;
      default:
        // server_tool_use, web_search_tool_result and newer block types run on Anthropic's side: not ours to map.
        this.blocks.set(index, { kind: "ignored" });
    }
  }

  private delta(event: RawEvent, out: AgentModelEvent[]): void {
    const index = event.index ?? -1;
    const block = this.blocks.get(index);
    const delta = event.delta;
    if (!block || !delta || block.kind === "ignored") return;
    switch (delta.type) {
      case "input_json_delta": {
        const json = delta.partial_json;
        if (block.kind !== "tool" || !json) return;
        if (!block.sawText && json.trim() !== "") block.sawText = true;
        this.calls.append(index, json, out);
        return;
      }
      case "text_delta":
        if (block.kind === "text" && delta.text) out.push({ type: "text-delta", text: delta.text });
        return;
      case "thinking_delta":
        if (block.kind === "thinking" && delta.thinking) out.push({ type: "reasoning-delta", text: delta.thinking });
        return;
      case "signature_delta":
        if (block.kind !== "thinking" || !delta.signature) return;
        out.push({
          type: "reasoning-delta",
          text: "",
          signature: delta.signature,
          metadata: { [ANTHROPIC]: { signature: delta.signature } },
        });
        return;
      default:
      // citations_delta and newer delta types.
    }
  }

  private stopBlock(index: number | undefined, out: AgentModelEvent[]): void {
    const block = index === undefined ? undefined : this.blocks.get(index);
    if (block?.kind !== "tool") return;
    block.closed = true;
    // A tool without arguments streams one empty fragment: its input is the start block's `{}`.
    if (!block.sawText) this.calls.setInput(index as number, isPlainObject(block.startInput) ? block.startInput : {});
    this.calls.end(index as number, out);
  }

  /** Ends the calls a cut response left open: their arguments are incomplete, so they end as errors. */
  private endOpenCalls(out: AgentModelEvent[]): void {
    for (const [index, block] of this.blocks)
      if (block.kind === "tool" && !block.closed)
        this.calls.fail(index, "the response ended before the call's arguments were complete", out);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
