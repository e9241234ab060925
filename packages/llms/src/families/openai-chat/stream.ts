import type { AgentModelEvent, AgentUsage, FinishReason } from "@heddle/shared";
import { createId } from "@heddle/shared";

/** One fragment of a streamed tool call. */
export interface ChatToolCallFragment {
  index?: number;
  id?: string | null;
  type?: string;
  function?: { name?: string | null; arguments?: string | null };
}

/** The parts of a `chat.completion.chunk` we read; everything else is ignored, so new fields never break us. */
export interface ChatChunk {
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
  const cacheRead = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const cacheWrite = usage.prompt_tokens_details?.cache_write_tokens ?? 0;
  return {
    inputTokens: Math.max(0, (usage.prompt_tokens ?? 0) - cacheRead - cacheWrite),
    outputTokens: usage.completion_tokens ?? 0,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

/**
 * Folds chunks into neutral events. `finish` is decided at the end: the usage chunk comes after the chunk that
 * carries `finish_reason`, and the protocol puts usage before finish.
 */
export class ChatStreamMapper {
  usage: Partial<AgentUsage> | undefined;
  finishReason: string | undefined;
  /** True once any text, reasoning or tool call was produced. */
  produced = false;
  private refused = false;
  private readonly calls = new Map<number, { id: string; name: string }>();

  handle(chunk: ChatChunk, out: AgentModelEvent[]): void {
    if (chunk.usage) this.usage = chatUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta;
    if (delta) {
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (typeof reasoning === "string" && reasoning) {
        this.produced = true;
        out.push({ type: "reasoning-delta", text: reasoning });
      }
      if (typeof delta.content === "string" && delta.content) {
        this.produced = true;
        out.push({ type: "text-delta", text: delta.content });
      }
      if (typeof delta.refusal === "string" && delta.refusal) {
        // A refusal ends with finish_reason "stop": only its text tells it apart.
        this.refused = true;
        this.produced = true;
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
    const args = fragment.function?.arguments ?? "";
    const known = this.calls.get(index);
    if (!known) {
      const id = fragment.id || createId("call");
      const name = fragment.function?.name ?? "";
      this.calls.set(index, { id, name });
      this.produced = true;
      out.push({ type: "tool-call-delta", index, toolCallId: id, toolName: name, ...(args && { inputText: args }) });
      return;
    }
    if (args) out.push({ type: "tool-call-delta", index, inputText: args });
  }

  // Some compatible servers leave out `index`: a new id (or a new position in one chunk) starts a call, a
  // fragment with neither continues the last one.
  private indexWithout(fragment: ChatToolCallFragment, position: number): number {
    if (fragment.id) {
      for (const [index, call] of this.calls) if (call.id === fragment.id) return index;
      return this.calls.size;
    }
    if (position > 0 || this.calls.size === 0) return this.calls.size;
    return this.calls.size - 1;
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
        return this.calls.size > 0 ? "tool-calls" : "stop";
    }
  }
}
