import type { AgentModelEvent } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { type ChatChunk, ChatStreamMapper, chatUsage } from "./stream.js";

function map(chunks: ChatChunk[]) {
  const mapper = new ChatStreamMapper();
  const out: AgentModelEvent[] = [];
  for (const chunk of chunks) mapper.handle(chunk, out);
  return { mapper, out };
}
const delta = (d: object, finish_reason: string | null = null): ChatChunk => ({
  choices: [{ index: 0, delta: d, finish_reason }],
});

describe("openai-chat stream mapping", () => {
  it("subtracts cached and cache-write tokens from prompt_tokens and reports reasoning tokens", () => {
    expect(
      chatUsage({
        prompt_tokens: 1000,
        completion_tokens: 300,
        prompt_tokens_details: { cached_tokens: 600, cache_write_tokens: 100 },
        completion_tokens_details: { reasoning_tokens: 200 },
      }),
    ).toEqual({
      inputTokens: 300,
      outputTokens: 300,
      cacheReadTokens: 600,
      cacheWriteTokens: 100,
      reasoningTokens: 200,
    });
  });

  it("maps reasoning_content / reasoning (DeepSeek, OpenRouter, Ollama) to reasoning deltas", () => {
    const { out } = map([
      delta({ reasoning_content: "think" }),
      delta({ reasoning: "more" }),
      delta({ content: "answer" }),
    ]);
    expect(out).toEqual([
      { type: "reasoning-delta", text: "think" },
      { type: "reasoning-delta", text: "more" },
      { type: "text-delta", text: "answer" },
    ]);
  });

  it("ends a response cut by max tokens with max-tokens, even mid tool call", () => {
    const { mapper } = map([
      delta({ tool_calls: [{ index: 0, id: "call_1", function: { name: "t", arguments: '{"a":' } }] }),
      delta({}, "length"),
    ]);
    expect(mapper.reason()).toBe("max-tokens");
  });

  it("treats stop with tool calls as tool-calls (servers that say stop) and content_filter as content-filter", () => {
    expect(
      map([
        delta({ tool_calls: [{ index: 0, id: "c", function: { name: "t", arguments: "{}" } }] }),
        delta({}, "stop"),
      ]).mapper.reason(),
    ).toBe("tool-calls");
    expect(map([delta({ content: "x" }), delta({}, "content_filter")]).mapper.reason()).toBe("content-filter");
    expect(map([delta({ content: "x" })]).mapper.reason()).toBeUndefined();
  });

  it("invents an id when a server sends none and keys fragments without index by id", () => {
    const { out } = map([
      delta({ tool_calls: [{ function: { name: "a", arguments: "{}" } }] }),
      delta({ tool_calls: [{ id: "second", function: { name: "b", arguments: "{" } }] }),
      delta({ tool_calls: [{ function: { arguments: "}" } }] }),
    ]);
    expect(out[0]).toMatchObject({ type: "tool-call-delta", index: 0, toolName: "a", inputText: "{}" });
    expect((out[0] as { toolCallId: string }).toolCallId).toMatch(/^call_[a-z0-9]+$/);
    expect(out[1]).toMatchObject({ index: 1, toolCallId: "second", toolName: "b", inputText: "{" });
    expect(out[2]).toEqual({ type: "tool-call-delta", index: 1, inputText: "}" });
  });

  it("ignores unknown fields and empty choices", () => {
    const { out, mapper } = map([
      { choices: [], usage: null, obfuscation: "x" } as ChatChunk,
      delta({ content: "", audio: {} }),
    ]);
    expect(out).toEqual([]);
    expect(mapper.produced).toBe(false);
  });
});
