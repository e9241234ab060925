import type { AgentModelEvent, AgentModelRequest, AgentUsage, FinishReason, ModelError } from "@heddle/shared";
import { modelError } from "../../errors.js";
import { ToolCallAccumulator } from "../../tool-call-accumulator.js";
import { type FamilyMapper, failureFinish } from "../driver.js";
import { openAIUsage } from "../openai-shared/errors.js";
import { withResponse } from "../response-info.js";

/** One fragment of a streamed tool call. */
export interface ChatToolCallFragment {
  index?: number;
  id?: string | null;
  type?: string;
  function?: { name?: string | null; arguments?: string | null };
}

/** The parts of a `chat.completion.chunk` we read; everything else is ignored, so new fields never break us. */
export interface ChatChunk {
  id?: string | null;
  model?: string | null;
  choices?: Array<{
    index?: number;
    delta?: {
      content?: string | null;
      refusal?: string | null;
      /** Not OpenAI: DeepSeek, vLLM and others stream reasoning here, OpenRouter and Ollama in `reasoning`. */
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: ChatToolCallFragment[] | null;
    } | null;
    finish_reason?: string | null;
  }> | null;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
    completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  } | null;
}

/** Usage as Heddle counts it: `prompt_tokens` includes cached tokens, which are billed apart. */
export function chatUsage(usage: NonNullable<ChatChunk["usage"]>): Partial<AgentUsage> {
  return openAIUsage({
    prompt: usage.prompt_tokens,
    completion: usage.completion_tokens,
    cached: usage.prompt_tokens_details?.cached_tokens,
    cacheWrite: usage.prompt_tokens_details?.cache_write_tokens,
    reasoning: usage.completion_tokens_details?.reasoning_tokens,
  });
}

/**
 * Folds chunks into neutral events. `finish` is decided at the end: the usage chunk comes after the chunk that
 * carries `finish_reason`, and the protocol puts usage before finish.
 */
export class ChatStreamMapper implements FamilyMapper<ChatChunk> {
  usage: Partial<AgentUsage> | undefined;
  finishReason: string | undefined;
  private refused = false;
  private readonly calls: ToolCallAccumulator;
  /** The open call at each vendor index (its accumulator key and vendor id). */
  private readonly byIndex = new Map<number, { key: number; id: string | undefined }>();
  private started = 0;
  private lastIndex = 0;
  private readonly response: { id?: string; model?: string } = {};
  private readonly wantResponse: boolean | undefined;

  /** `request.toolCallDeltas: false` leaves the argument previews out. */
  constructor(request: Pick<AgentModelRequest, "toolCallDeltas" | "responseInfo"> = {}) {
    this.calls = new ToolCallAccumulator({ deltas: request.toolCallDeltas });
    this.wantResponse = request.responseInfo;
  }

  push(chunk: ChatChunk, out: AgentModelEvent[]): void {
    if (chunk.usage) this.usage = chatUsage(chunk.usage);
    if (this.response.id === undefined && typeof chunk.id === "string" && chunk.id) this.response.id = chunk.id;
    if (this.response.model === undefined && typeof chunk.model === "string" && chunk.model)
      this.response.model = chunk.model;
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta;
    if (delta) {
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (typeof reasoning === "string" && reasoning) {
        out.push({ type: "reasoning-delta", text: reasoning });
      }
      if (typeof delta.content === "string" && delta.content) {
        out.push({ type: "text-delta", text: delta.content });
      }
      if (typeof delta.refusal === "string" && delta.refusal) {
        // A refusal ends with finish_reason "stop": only its text tells it apart.
        this.refused = true;
        out.push({ type: "text-delta", text: delta.refusal });
      }
      if (delta.tool_calls) {
        for (let position = 0; position < delta.tool_calls.length; position++)
          this.toolCall(delta.tool_calls[position]!, position, out);
      }
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  private toolCall(fragment: ChatToolCallFragment, position: number, out: AgentModelEvent[]): void {
    const index = typeof fragment.index === "number" ? fragment.index : this.indexWithout(fragment, position);
    this.lastIndex = index;
    let call = this.byIndex.get(index);
    // A known index with another id is a new call (servers that number every call 0).
    if (!call || (fragment.id && call.id && fragment.id !== call.id)) {
      call = { key: this.started++, id: fragment.id || undefined };
      this.byIndex.set(index, call);
      this.calls.start(call.key, fragment.id, fragment.function?.name ?? "", out);
    }
    const args = fragment.function?.arguments;
    if (args) this.calls.append(call.key, args, out);
  }

  // Some compatible servers leave out `index`: a new id (or a new position in one chunk) starts a call, a
  // fragment with neither continues the last one.
  private indexWithout(fragment: ChatToolCallFragment, position: number): number {
    if (fragment.id) {
      for (const [index, call] of this.byIndex) if (call.id === fragment.id) return index;
      return this.started;
    }
    if (position > 0 || this.started === 0) return this.started;
    return this.lastIndex;
  }

  end(out: AgentModelEvent[]): void {
    this.endCalls(out);
    out.push({ type: "usage", usage: this.usage ?? {} });
    const reason = this.reason();
    if (reason === undefined) {
      const error = modelError("network", "The stream ended before the model finished its response.");
      out.push({ type: "finish", reason: "error", error });
      return;
    }
    out.push(withResponse({ type: "finish", reason }, this.response, this.wantResponse));
  }

  fail(error: ModelError, out: AgentModelEvent[]): void {
    if (this.usage) out.push({ type: "usage", usage: this.usage });
    out.push(failureFinish(error));
  }

  /** Ends the calls still open: the response is over. */
  endCalls(out: AgentModelEvent[]): void {
    this.calls.endAll(out);
  }

  /** The finish reason, or undefined when the stream ended without one (a cut the client did not notice). */
  reason(): FinishReason | undefined {
    switch (this.finishReason) {
      case undefined:
        return undefined;
      case "length":
        return "max-tokens";
      case "content_filter":
        return "content-filter";
      case "tool_calls":
      case "function_call":
        return "tool-calls";
      default:
        if (this.refused) return "content-filter";
        // Some compatible servers (older Ollama, llama.cpp) end tool calls with "stop".
        return this.started > 0 ? "tool-calls" : "stop";
    }
  }
}
