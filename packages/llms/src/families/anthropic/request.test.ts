import type { AgentMessage, AgentModelRequest, ModelCallOptions, ModelInfo } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { AnthropicRequestError, toAnthropicBody } from "./request.js";

const user = (text: string): AgentMessage => ({
  id: "u",
  role: "user",
  content: [{ type: "text", text }],
  createdAt: 0,
});
const tool = {
  name: "read",
  description: "Read a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
};

function body(options: ModelCallOptions = {}, extra: Partial<AgentModelRequest> = {}, info?: ModelInfo) {
  return toAnthropicBody({ messages: [user("hi")], tools: [], options, ...extra }, "claude-x", info);
}

const info: ModelInfo = {
  provider: "anthropic",
  id: "claude-x",
  contextWindow: 200_000,
  maxOutputTokens: 64_000,
  supports: { tools: true, reasoning: true, images: true },
};

describe("toAnthropicBody: options", () => {
  it("max_tokens is always sent: the option, else the catalog's max output capped at 32,000, else 8192", () => {
    expect(body({ maxTokens: 100 }).max_tokens).toBe(100);
    expect(body({ maxTokens: 100_000 }, {}, info).max_tokens).toBe(100_000);
    expect(body({}, {}, info).max_tokens).toBe(32_000);
    expect(body({}, {}, { ...info, maxOutputTokens: 16_000 }).max_tokens).toBe(16_000);
    expect(body().max_tokens).toBe(8192);
  });

  it("maps temperature, stop sequences and every tool choice", () => {
    const withTools = (toolChoice: ModelCallOptions["toolChoice"]) =>
      body({ toolChoice }, { tools: [tool] }).tool_choice;
    expect(body({ temperature: 0.2, stopSequences: ["```"] })).toMatchObject({
      temperature: 0.2,
      stop_sequences: ["```"],
    });
    expect(withTools("auto")).toEqual({ type: "auto" });
    expect(withTools("required")).toEqual({ type: "any" });
    expect(withTools("none")).toEqual({ type: "none" });
    expect(withTools({ type: "tool", toolName: "read" })).toEqual({ type: "tool", name: "read" });
    expect(withTools(undefined)).toBeUndefined();
  });

  it("reasoning: a budget or an effort turns thinking on and drops temperature; off sends none", () => {
    expect(body({ reasoning: { budgetTokens: 4000 }, temperature: 0.5, maxTokens: 16000 })).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 4000 },
      max_tokens: 16000,
    });
    expect(body({ reasoning: { budgetTokens: 4000 }, temperature: 0.5 }).temperature).toBeUndefined();
    const budget = (effort: "minimal" | "low" | "medium" | "high") =>
      (body({ reasoning: { effort } }, {}, info).thinking as { budget_tokens: number }).budget_tokens;
    expect([budget("minimal"), budget("low"), budget("medium"), budget("high")]).toEqual([1024, 2048, 8192, 24576]);
    expect(body({ reasoning: "off", temperature: 0.3 })).toMatchObject({ temperature: 0.3 });
    expect(body({ reasoning: "off" }).thinking).toBeUndefined();
  });

  it("reasoning: the budget stays below max_tokens, which grows when it is a default", () => {
    const grown = body({ reasoning: { effort: "high" } });
    expect(grown.max_tokens).toBe(24576 + 8192);
    expect(grown.thinking).toEqual({ type: "enabled", budget_tokens: 24576 });
    expect(body({ reasoning: { effort: "high" }, maxTokens: 10_000 }).thinking).toEqual({
      type: "enabled",
      budget_tokens: 9999,
    });
    expect(() => body({ reasoning: { budgetTokens: 2000 }, maxTokens: 1000 })).toThrow(AnthropicRequestError);
    expect(() => body({ reasoning: { budgetTokens: 2000 }, maxTokens: 1000 })).toThrow(/maxTokens is 1000/);
  });

  it("providerOptions.anthropic is merged into the body last; other families' options are ignored", () => {
    const merged = body({
      providerOptions: { anthropic: { top_k: 5, metadata: { user_id: "u1" } }, openai: { store: false } },
    });
    expect(merged).toMatchObject({ top_k: 5, metadata: { user_id: "u1" } });
    expect(merged).not.toHaveProperty("store");
  });
});

describe("toAnthropicBody: prompt caching", () => {
  const request = { systemPrompt: "Be brief.", tools: [tool, { ...tool, name: "write" }] };

  it("short (the default) marks the system prompt, the last tool and the last user block", () => {
    const result = body({}, request) as any;
    expect(result.system).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
    expect(result.tools[0].cache_control).toBeUndefined();
    expect(result.tools[1].cache_control).toEqual({ type: "ephemeral" });
    expect(result.messages[0].content[0].cache_control).toEqual({ type: "ephemeral" });
  });

  it("long adds a one-hour ttl; none sets no breakpoint anywhere", () => {
    const long = body({ cacheRetention: "long" }, request) as any;
    expect(long.system[0].cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
    const none = JSON.stringify(body({ cacheRetention: "none" }, request));
    expect(none).not.toContain("cache_control");
  });

  it("the breakpoint lands on the last user turn, also when it holds tool results", () => {
    const result = body(
      {},
      {
        messages: [
          user("first"),
          {
            id: "a",
            role: "assistant",
            content: [{ type: "tool-call", toolCallId: "t1", toolName: "read", input: {} }],
            createdAt: 1,
          },
          {
            id: "t",
            role: "tool",
            content: [{ type: "tool-result", toolCallId: "t1", toolName: "read", output: "ok" }],
            createdAt: 2,
          },
        ],
      },
    ) as any;
    expect(result.messages[0].content[0].cache_control).toBeUndefined();
    expect(result.messages[2].content[0]).toMatchObject({ type: "tool_result", cache_control: { type: "ephemeral" } });
  });
});

describe("toAnthropicBody: messages", () => {
  const png = { type: "image" as const, mediaType: "image/png", data: "iVBORw0KGgo=" };

  it("system prompt, tools as JSON Schema, images in user turns", () => {
    const result = body(
      { cacheRetention: "none" },
      {
        systemPrompt: "You help.",
        tools: [tool],
        messages: [{ id: "u", role: "user", content: [{ type: "text", text: "What is this?" }, png], createdAt: 0 }],
      },
    );
    expect(result).toMatchObject({
      system: [{ type: "text", text: "You help." }],
      tools: [{ name: "read", description: "Read a file", input_schema: tool.inputSchema }],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
          ],
        },
      ],
    });
  });

  it("a schema without a type is sent as an object schema (the API requires one)", () => {
    const result = body({}, { tools: [{ name: "ping", description: "Ping", inputSchema: {} }] }) as any;
    expect(result.tools[0].input_schema).toEqual({ type: "object" });
  });

  it("tool results: text, images, errors; a tool message and a following user message merge into one turn", () => {
    const result = body(
      { cacheRetention: "none" },
      {
        messages: [
          user("go"),
          {
            id: "a",
            role: "assistant",
            content: [
              { type: "text", text: "" },
              { type: "tool-call", toolCallId: "t1", toolName: "shot", input: { x: 1 } },
              { type: "tool-call", toolCallId: "t2", toolName: "read", input: "not json" },
            ],
            createdAt: 1,
          },
          {
            id: "t",
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "t1",
                toolName: "shot",
                output: [{ type: "text", text: "here" }, png],
              },
              { type: "tool-result", toolCallId: "t2", toolName: "read", output: "no such file", isError: true },
            ],
            createdAt: 2,
          },
          user("and now?"),
        ],
      },
    ) as any;
    expect(result.messages).toHaveLength(3);
    expect(result.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "tool_use", id: "t1", name: "shot", input: { x: 1 } },
        { type: "tool_use", id: "t2", name: "read", input: {} },
      ],
    });
    expect(result.messages[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "t1",
          content: [
            { type: "text", text: "here" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
          ],
        },
        { type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: "no such file" }], is_error: true },
        { type: "text", text: "and now?" },
      ],
    });
  });

  it("reasoning: signed thinking and redacted data go back verbatim; unsigned reasoning is dropped", () => {
    const result = body(
      { cacheRetention: "none" },
      {
        messages: [
          user("q"),
          {
            id: "a",
            role: "assistant",
            content: [
              {
                type: "reasoning",
                text: "hmm",
                signature: "sig-1",
                providerMetadata: { anthropic: { signature: "sig-1" } },
              },
              {
                type: "reasoning",
                text: "",
                redacted: true,
                providerMetadata: { anthropic: { redactedData: "EqkE" } },
              },
              {
                type: "reasoning",
                text: "from metadata only",
                providerMetadata: { anthropic: { signature: "sig-2" } },
              },
              { type: "reasoning", text: "foreign or cut before its signature" },
              { type: "text", text: "answer" },
            ],
            createdAt: 1,
          },
        ],
      },
    ) as any;
    expect(result.messages[1].content).toEqual([
      { type: "thinking", thinking: "hmm", signature: "sig-1" },
      { type: "redacted_thinking", data: "EqkE" },
      { type: "thinking", thinking: "from metadata only", signature: "sig-2" },
      { type: "text", text: "answer" },
    ]);
  });

  it("an assistant message left empty after conversion is not sent", () => {
    const result = body(
      { cacheRetention: "none" },
      {
        messages: [
          user("a"),
          { id: "x", role: "assistant", content: [{ type: "text", text: "" }], createdAt: 1 },
          user("b"),
        ],
      },
    ) as any;
    expect(result.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
    ]);
  });
});
