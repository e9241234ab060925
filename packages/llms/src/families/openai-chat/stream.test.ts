import type { AgentModelEvent } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { type ChatChunk, ChatStreamMapper, chatUsage } from "./stream.js";

function map(chunks: ChatChunk[]) {
  const mapper = new ChatStreamMapper();
  const out: AgentModelEvent[] = [];
  for (const chunk of chunks) mapper.push(chunk, out);
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
    const { out, mapper } = map([
      delta({ tool_calls: [{ function: { name: "a", arguments: "{}" } }] }),
      delta({ tool_calls: [{ id: "second", function: { name: "b", arguments: '{"x":' } }] }),
      delta({ tool_calls: [{ function: { arguments: "1}" } }] }),
    ]);
    mapper.endCalls(out);
    const first = (out[0] as { id: string }).id;
    expect(first).toMatch(/^call_[a-z0-9]+$/);
    expect(out).toEqual([
      { type: "tool-call-start", id: first, name: "a" },
      { type: "tool-call-delta", id: first, text: "{}" },
      { type: "tool-call-start", id: "second", name: "b" },
      { type: "tool-call-delta", id: "second", text: '{"x":' },
      { type: "tool-call-delta", id: "second", text: "1}" },
      { type: "tool-call-end", id: first, input: {} },
      { type: "tool-call-end", id: "second", input: { x: 1 } },
    ]);
  });

  it("starts a new call when a known index comes with another id (servers that number every call 0)", () => {
    const { out, mapper } = map([
      delta({ tool_calls: [{ index: 0, id: "one", function: { name: "a", arguments: '{"n":1}' } }] }),
      delta({ tool_calls: [{ index: 0, id: "two", function: { name: "a", arguments: '{"n":2}' } }] }),
    ]);
    mapper.endCalls(out);
    expect(out.filter((event) => event.type === "tool-call-end")).toEqual([
      { type: "tool-call-end", id: "one", input: { n: 1 } },
      { type: "tool-call-end", id: "two", input: { n: 2 } },
    ]);
  });

  it("ignores unknown fields and empty choices", () => {
    const { out, mapper } = map([
      { choices: [], usage: null, obfuscation: "x" } as ChatChunk,
      delta({ content: "", audio: {} }),
    ]);
    expect(out).toEqual([]);
    expect(mapper.reason()).toBeUndefined();
  });
});
