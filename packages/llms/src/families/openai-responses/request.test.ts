import type { AgentMessage, AgentModelRequest, ContentPart, ModelInfo } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { buildResponsesBody, effortForBudget } from "./request.js";

const message = (role: AgentMessage["role"], content: ContentPart[]): AgentMessage => ({
  id: `${role}-1`,
  role,
  content,
  createdAt: 0,
});
const user = (text: string) => message("user", [{ type: "text", text }]);
const body = (request: Partial<AgentModelRequest>, info?: ModelInfo) =>
  buildResponsesBody("gpt-5", { messages: [user("hi")], tools: [], ...request }, info);

const reasoningModel: ModelInfo = {
  provider: "openai",
  id: "gpt-5",
  contextWindow: 400_000,
  maxOutputTokens: 128_000,
  supports: { tools: true, reasoning: true, images: true },
};

describe("openai responses request: basics", () => {
  it("sends the system prompt as instructions, streams, and keeps no server state", () => {
    expect(body({ systemPrompt: "Be brief." })).toEqual({
      model: "gpt-5",
      instructions: "Be brief.",
      input: [{ role: "user", content: [{ type: "input_text", text: "hi" }] }],
      store: false,
      stream: true,
    });
    expect(body({})).not.toHaveProperty("instructions");
  });

  it("sends tools as non-strict functions with their JSON Schema", () => {
    const schema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
    expect(body({ tools: [{ name: "read", description: "Read a file", inputSchema: schema }] }).tools).toEqual([
      { type: "function", name: "read", description: "Read a file", parameters: schema, strict: false },
    ]);
  });

  it("sends user images as data URLs, in order with the text", () => {
    const input = body({
      messages: [
        message("user", [
          { type: "text", text: "What is this?" },
          { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" },
        ]),
      ],
    }).input;
    expect(input).toEqual([
      {
        role: "user",
        content: [
          { type: "input_text", text: "What is this?" },
          { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail: "auto" },
        ],
      },
    ]);
  });

  it("sends tool results as function_call_output, images included, in call order", () => {
    const input = body({
      messages: [
        message("tool", [
          { type: "tool-result", toolCallId: "call_1", toolName: "a", output: "plain" },
          {
            type: "tool-result",
            toolCallId: "call_2",
            toolName: "b",
            output: [
              { type: "text", text: "line 1" },
              { type: "text", text: "line 2" },
            ],
          },
          {
            type: "tool-result",
            toolCallId: "call_3",
            toolName: "shot",
            output: [
              { type: "text", text: "screen:" },
              { type: "image", mediaType: "image/jpeg", data: "/9j/" },
            ],
          },
          { type: "tool-result", toolCallId: "call_4", toolName: "c", output: "boom", isError: true },
        ]),
      ],
    }).input;
    expect(input).toEqual([
      { type: "function_call_output", call_id: "call_1", output: "plain" },
      { type: "function_call_output", call_id: "call_2", output: "line 1\nline 2" },
      {
        type: "function_call_output",
        call_id: "call_3",
        output: [
          { type: "input_text", text: "screen:" },
          { type: "input_image", image_url: "data:image/jpeg;base64,/9j/", detail: "auto" },
        ],
      },
      { type: "function_call_output", call_id: "call_4", output: "boom" },
    ]);
  });

  it("sends assistant text and calls in order; arguments that never parsed go back as written", () => {
    const input = body({
      messages: [
        message("assistant", [
          { type: "text", text: "Let me " },
          { type: "text", text: "check." },
          { type: "tool-call", toolCallId: "call_1", toolName: "read", input: { path: "a.ts" } },
          { type: "tool-call", toolCallId: "call_2", toolName: "read", input: '{"path": "b.ts"' },
        ]),
      ],
    }).input;
    expect(input).toEqual([
      { role: "assistant", content: [{ type: "output_text", text: "Let me check." }] },
      { type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a.ts"}' },
      { type: "function_call", call_id: "call_2", name: "read", arguments: '{"path": "b.ts"' },
    ]);
  });
});

describe("openai responses request: options", () => {
  it("maps max tokens, temperature and every tool choice; stop sequences have no Responses parameter", () => {
    const mapped = body({
      options: { maxTokens: 512, temperature: 0.2, stopSequences: ["END"], toolChoice: "required" },
    });
    expect(mapped).toMatchObject({ max_output_tokens: 512, temperature: 0.2, tool_choice: "required" });
    expect(JSON.stringify(mapped)).not.toContain("END");
    expect(body({ options: { toolChoice: "none" } }).tool_choice).toBe("none");
    expect(body({ options: { toolChoice: { type: "tool", toolName: "read" } } }).tool_choice).toEqual({
      type: "function",
      name: "read",
    });
  });

  it("long cache retention asks for the 24 h prompt cache; other settings leave OpenAI's automatic cache", () => {
    expect(body({ options: { cacheRetention: "long" } }).prompt_cache_retention).toBe("24h");
    expect(body({ options: { cacheRetention: "short" } })).not.toHaveProperty("prompt_cache_retention");
    expect(body({ options: { cacheRetention: "none" } })).not.toHaveProperty("prompt_cache_retention");
  });

  it("merges providerOptions.openai into the body, but never over the model or streaming", () => {
    const mapped = body({
      options: {
        providerOptions: { openai: { parallel_tool_calls: false, model: "x", stream: false }, other: { a: 1 } },
      },
    });
    expect(mapped).toMatchObject({ parallel_tool_calls: false, model: "gpt-5", stream: true });
    expect(mapped).not.toHaveProperty("a");
  });
});

describe("openai responses request: the reasoning knob", () => {
  it("an effort asks for it with summaries and for encrypted reasoning to replay", () => {
    expect(body({ options: { reasoning: { effort: "low" } } })).toMatchObject({
      reasoning: { effort: "low", summary: "auto" },
      include: ["reasoning.encrypted_content"],
      store: false,
    });
  });

  it("a token budget becomes the nearest effort; an explicit effort wins", () => {
    expect([512, 1024, 4096, 16384, 64000].map(effortForBudget)).toEqual(["minimal", "low", "medium", "high", "high"]);
    expect(body({ options: { reasoning: { budgetTokens: 8000 } } }).reasoning).toEqual({
      effort: "medium",
      summary: "auto",
    });
    expect(body({ options: { reasoning: { budgetTokens: 8000, effort: "high" } } }).reasoning).toEqual({
      effort: "high",
      summary: "auto",
    });
  });

  it("off sends no reasoning parameters, even for a reasoning model", () => {
    const mapped = body({ options: { reasoning: "off" } }, reasoningModel);
    expect(mapped).not.toHaveProperty("reasoning");
    expect(mapped).not.toHaveProperty("include");
  });

  it("a model known to reason gets encrypted reasoning without an explicit effort; others get neither", () => {
    const mapped = body({}, reasoningModel);
    expect(mapped.include).toEqual(["reasoning.encrypted_content"]);
    expect(mapped).not.toHaveProperty("reasoning");
    expect(body({})).not.toHaveProperty("include");
  });
});

describe("openai responses request: reasoning sent back", () => {
  const rs = (itemId: string, encryptedContent?: string): ContentPart => ({
    type: "reasoning",
    text: "thinking",
    providerMetadata: {
      openai: {
        itemId,
        summary: [{ type: "summary_text", text: "thinking" }],
        ...(encryptedContent ? { encryptedContent } : {}),
      },
    },
  });
  const call = (id: string, itemId: string): ContentPart => ({
    type: "tool-call",
    toolCallId: id,
    toolName: "read",
    input: {},
    providerMetadata: { openai: { itemId } },
  });

  it("sends each reasoning item verbatim before the call it preceded, and the calls with their fc_ ids", () => {
    const input = body({
      messages: [
        message("assistant", [rs("rs_1", "enc1"), call("call_1", "fc_1"), rs("rs_2", "enc2"), call("call_2", "fc_2")]),
      ],
    }).input;
    expect(input).toEqual([
      {
        type: "reasoning",
        id: "rs_1",
        summary: [{ type: "summary_text", text: "thinking" }],
        encrypted_content: "enc1",
      },
      { type: "function_call", call_id: "call_1", name: "read", arguments: "{}", id: "fc_1" },
      {
        type: "reasoning",
        id: "rs_2",
        summary: [{ type: "summary_text", text: "thinking" }],
        encrypted_content: "enc2",
      },
      { type: "function_call", call_id: "call_2", name: "read", arguments: "{}", id: "fc_2" },
    ]);
  });

  it("sends consecutive reasoning parts as one item each, in order, with text between them and the call in place", () => {
    const input = body({
      messages: [
        message("assistant", [
          rs("rs_1", "enc1"),
          rs("rs_2", "enc2"),
          { type: "text", text: "Reading it." },
          call("call_1", "fc_1"),
        ]),
      ],
    }).input;
    const item = (id: string, enc: string) => ({
      type: "reasoning",
      id,
      summary: [{ type: "summary_text", text: "thinking" }],
      encrypted_content: enc,
    });
    expect(input).toEqual([
      item("rs_1", "enc1"),
      item("rs_2", "enc2"),
      { role: "assistant", content: [{ type: "output_text", text: "Reading it." }] },
      { type: "function_call", call_id: "call_1", name: "read", arguments: "{}", id: "fc_1" },
    ]);
  });

  it("drops reasoning that cannot be replayed statelessly, and then the fc_ ids that would need it", () => {
    const input = body({ messages: [message("assistant", [rs("rs_1"), call("call_1", "fc_1")])] }).input;
    expect(input).toEqual([{ type: "function_call", call_id: "call_1", name: "read", arguments: "{}" }]);
  });

  it("with store: true (providerOptions) an id alone replays the reasoning item", () => {
    const mapped = body({
      messages: [message("assistant", [rs("rs_1"), call("call_1", "fc_1")])],
      options: { providerOptions: { openai: { store: true } } },
    });
    expect(mapped.store).toBe(true);
    expect(mapped.input).toEqual([
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "thinking" }] },
      { type: "function_call", call_id: "call_1", name: "read", arguments: "{}", id: "fc_1" },
    ]);
  });

  it("drops reasoning with nothing after it to pair with, and reasoning without this family's metadata", () => {
    const input = body({
      messages: [
        message("assistant", [
          { type: "reasoning", text: "foreign thoughts", signature: "sig" },
          { type: "text", text: "Done." },
          rs("rs_9", "enc9"),
        ]),
      ],
    }).input;
    expect(input).toEqual([{ role: "assistant", content: [{ type: "output_text", text: "Done." }] }]);
  });
});
