import type { AgentModelEvent, AgentModelRequest, AgentUsage, FinishReason, ModelError } from "@heddle/shared";
import { modelError } from "../../errors.js";
import { ToolCallAccumulator } from "../../tool-call-accumulator.js";
import { type FamilyMapper, failureFinish } from "../driver.js";
import { classifyOpenAIErrorBody, type OpenAIErrorBody, openAIUsage } from "../openai-shared/errors.js";
import { withResponse } from "../response-info.js";
import { OPENAI_METADATA_KEY, type OpenAIReasoningMetadata, type OpenAIToolCallMetadata } from "./request.js";

/** The fields of a Responses stream event this converter reads; everything else is ignored. */
export interface ResponsesEvent {
  type: string;
  item?: ResponsesItem;
  item_id?: string;
  output_index?: number;
  content_index?: number;
  summary_index?: number;
  delta?: string;
  text?: string;
  refusal?: string;
  arguments?: string;
  response?: ResponsesSnapshot;
  code?: string | null;
  message?: string;
  error?: OpenAIErrorBody;
}

interface ResponsesItem {
  type: string;
  id?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  encrypted_content?: string | null;
  summary?: Array<{ type: "summary_text"; text: string }>;
  content?: Array<{ type: string; text?: string; refusal?: string }>;
}

interface ResponsesSnapshot {
  id?: string;
  model?: string;
  status?: string;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
    output_tokens_details?: { reasoning_tokens?: number } | null;
  } | null;
  incomplete_details?: { reason?: string } | null;
  error?: OpenAIErrorBody | null;
}

interface CallState {
  /** The accumulator's key for this call. */
  key: number;
  /** Characters of arguments already emitted, so a `.done` carrying the whole text only adds what is missing. */
  emitted: number;
}

/** Neutral usage from the terminal response: OpenAI's `input_tokens` includes cached tokens, Heddle's does not. */
export function usageFromResponse(usage: NonNullable<ResponsesSnapshot["usage"]>): Partial<AgentUsage> {
  return openAIUsage({
    prompt: usage.input_tokens,
    completion: usage.output_tokens,
    cached: usage.input_tokens_details?.cached_tokens,
    cacheWrite: usage.input_tokens_details?.cache_write_tokens,
    reasoning: usage.output_tokens_details?.reasoning_tokens,
  });
}

/**
 * Turns Responses stream events into neutral events, one vendor event at a time. Deltas are passed on as they
 * come (never re-parsed or re-joined); `.done` events only add text a server did not stream. Unknown event and
 * item types are skipped.
 */
export class ResponsesStreamMapper implements FamilyMapper<ResponsesEvent> {
  /** Set once a terminal event (completed, incomplete, failed, error) was seen: reading stops there. */
  private finished = false;
  private readonly calls = new Map<string, CallState>();
  private readonly callsByOutput = new Map<number, CallState>();
  private readonly emittedText = new Map<string, number>();
  private readonly reasoningSeen = new Map<string, number>();
  private callCount = 0;
  private refused = false;
  private readonly accumulator: ToolCallAccumulator;

  /** `request.toolCallDeltas: false` leaves the argument previews out. */
  constructor(request: Pick<AgentModelRequest, "toolCallDeltas" | "responseInfo"> = {}) {
    this.accumulator = new ToolCallAccumulator({ deltas: request.toolCallDeltas });
    this.wantResponse = request.responseInfo;
  }
  private readonly wantResponse: boolean | undefined;

  /** Maps one vendor event; true once it was the terminal one. */
  push(event: ResponsesEvent, out: AgentModelEvent[]): boolean {
    switch (event.type) {
      case "response.function_call_arguments.delta":
        this.argumentsDelta(this.callFor(event), event.delta, out);
        break;
      case "response.output_text.delta":
        this.text(event, event.delta, out);
        break;
      case "response.output_item.added":
        this.itemAdded(event, out);
        break;
      case "response.output_text.done":
        this.textSuffix(this.textKey(event), event.text, out);
        break;
      case "response.refusal.delta":
        this.refused = true;
        this.text(event, event.delta, out);
        break;
      case "response.refusal.done":
        this.refused = true;
        this.textSuffix(this.textKey(event), event.refusal, out);
        break;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        this.reasoning(event, out);
        break;
      case "response.function_call_arguments.done":
        this.argumentsDone(this.callFor(event), event.arguments, out);
        break;
      case "response.output_item.done":
        this.itemDone(event, out);
        break;
      case "response.completed":
      case "response.incomplete":
      case "response.failed":
        this.terminal(event, out);
        break;
      case "error":
        this.finished = true;
        // The SDK types the flat form ({code, message}); servers send the nested one ({error: {...}}).
        out.push(this.errorFinish(event.error ?? { code: event.code ?? null, message: event.message ?? null }));
        break;
      default:
    }
    return this.finished;
  }

  /** The body ended without a terminal event: the connection was closed early. */
  end(out: AgentModelEvent[]): void {
    const error = modelError("network", "The Responses stream ended before the response completed.");
    out.push({ type: "finish", reason: "error", error });
  }

  /** Usage arrives only with the terminal event, so a failure has none to report. */
  fail(error: ModelError, out: AgentModelEvent[]): void {
    out.push(failureFinish(error));
  }

  private itemAdded(event: ResponsesEvent, out: AgentModelEvent[]): void {
    const item = event.item;
    if (item?.type !== "function_call") return;
    const state: CallState = { key: this.callCount++, emitted: 0 };
    if (item.id) this.calls.set(item.id, state);
    if (event.output_index !== undefined) this.callsByOutput.set(event.output_index, state);
    const metadata: OpenAIToolCallMetadata | undefined = item.id ? { itemId: item.id } : undefined;
    this.accumulator.start(
      state.key,
      item.call_id,
      item.name ?? "",
      out,
      metadata && { [OPENAI_METADATA_KEY]: { ...metadata } },
    );
    if (item.arguments) {
      this.accumulator.append(state.key, item.arguments, out);
      state.emitted = item.arguments.length;
    }
  }

  private callFor(event: ResponsesEvent): CallState | undefined {
    return (
      (event.item_id !== undefined ? this.calls.get(event.item_id) : undefined) ??
      (event.output_index !== undefined ? this.callsByOutput.get(event.output_index) : undefined)
    );
  }

  private argumentsDelta(call: CallState | undefined, delta: string | undefined, out: AgentModelEvent[]): void {
    if (!call || !delta) return;
    call.emitted += delta.length;
    this.accumulator.append(call.key, delta, out);
  }

  private argumentsDone(call: CallState | undefined, full: string | undefined, out: AgentModelEvent[]): void {
    if (!call || full === undefined || full.length <= call.emitted) return;
    this.argumentsDelta(call, full.slice(call.emitted), out);
  }

  private textKey(event: ResponsesEvent): string {
    return `${event.item_id ?? event.output_index}:${event.content_index ?? 0}`;
  }

  private text(event: ResponsesEvent, delta: string | undefined, out: AgentModelEvent[]): void {
    if (!delta) return;
    const key = this.textKey(event);
    this.emittedText.set(key, (this.emittedText.get(key) ?? 0) + delta.length);
    out.push({ type: "text-delta", text: delta });
  }

  private textSuffix(key: string, full: string | undefined, out: AgentModelEvent[]): void {
    const emitted = this.emittedText.get(key) ?? 0;
    if (full === undefined || full.length <= emitted) return;
    this.emittedText.set(key, full.length);
    out.push({ type: "text-delta", text: full.slice(emitted) });
  }

  private reasoning(event: ResponsesEvent, out: AgentModelEvent[]): void {
    if (!event.delta) return;
    const itemId = event.item_id ?? "";
    // Summary parts of one item are separate paragraphs; keep them apart in the one reasoning part.
    const part = event.summary_index ?? event.content_index ?? 0;
    const previous = this.reasoningSeen.get(itemId);
    this.reasoningSeen.set(itemId, part);
    const text = previous !== undefined && previous !== part ? `\n\n${event.delta}` : event.delta;
    out.push({ type: "reasoning-delta", text });
  }

  private itemDone(event: ResponsesEvent, out: AgentModelEvent[]): void {
    const item = event.item;
    if (!item) return;
    if (item.type === "function_call") {
      const call = (item.id ? this.calls.get(item.id) : undefined) ?? this.callFor(event);
      this.argumentsDone(call, item.arguments, out);
      // A call without arguments streams nothing: the accumulator reads empty text as `{}`.
      if (call) this.accumulator.end(call.key, out);
      return;
    }
    if (item.type === "reasoning") this.reasoningDone(item, out);
    else if (item.type === "message") {
      item.content?.forEach((part, index) => {
        if (part.type === "refusal") this.refused = true;
        const key = `${item.id ?? event.output_index}:${index}`;
        this.textSuffix(key, part.type === "refusal" ? part.refusal : part.text, out);
      });
    }
  }

  /**
   * The reasoning item's replay data arrives whole here (the copy on `.added` may be incomplete). It rides on one
   * delta whose `signature` is the item id: the loop closes a reasoning part once it is signed, so each item
   * becomes exactly one part, in output order, even when items follow each other or have no text.
   */
  private reasoningDone(item: ResponsesItem, out: AgentModelEvent[]): void {
    if (!item.id) return;
    // A server that streamed no summary deltas still gives the summary here.
    const text =
      !this.reasoningSeen.has(item.id) && item.summary?.length ? item.summary.map((p) => p.text).join("\n\n") : "";
    const metadata: OpenAIReasoningMetadata = { itemId: item.id, summary: item.summary ?? [] };
    if (item.encrypted_content) metadata.encryptedContent = item.encrypted_content;
    out.push({
      type: "reasoning-delta",
      text,
      signature: item.id,
      metadata: { [OPENAI_METADATA_KEY]: { ...metadata } },
    });
  }

  private terminal(event: ResponsesEvent, out: AgentModelEvent[]): void {
    this.finished = true;
    const response = event.response ?? {};
    const status = response.status ?? event.type.slice("response.".length);
    // A call the server never marked done ends here; one cut by `incomplete` ends as unreadable if it is.
    if (status !== "failed") this.accumulator.endAll(out);
    if (response.usage) out.push({ type: "usage", usage: usageFromResponse(response.usage) });
    if (status === "failed") {
      out.push(this.errorFinish(response.error ?? undefined));
      return;
    }
    const info = {
      ...(typeof response.id === "string" && { id: response.id }),
      ...(typeof response.model === "string" && { model: response.model }),
    };
    out.push(withResponse({ type: "finish", reason: this.finishReason(status, response) }, info, this.wantResponse));
  }

  private finishReason(status: string, response: ResponsesSnapshot): FinishReason {
    if (status === "incomplete") {
      return response.incomplete_details?.reason === "content_filter" ? "content-filter" : "max-tokens";
    }
    if (this.refused) return "content-filter";
    return this.callCount > 0 ? "tool-calls" : "stop";
  }

  private errorFinish(body: OpenAIErrorBody | undefined): AgentModelEvent {
    return { type: "finish", reason: "error", error: classifyOpenAIErrorBody(body) };
  }
}
