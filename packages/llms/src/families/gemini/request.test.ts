import type { AgentMessage, AgentModelRequest } from "@heddle/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockProviderServer, startMockProviderServer } from "../../testing/mock-server.js";
import { FOREIGN_CALL_SIGNATURE, toGeminiContents, toGeminiRequest } from "./request.js";
import { collect, userText } from "./test-helpers.js";

const assistant = (content: AgentMessage["content"]): AgentMessage => ({
  id: "a",
  role: "assistant",
  content,
  createdAt: 0,
});
const tool = (content: AgentMessage["content"]): AgentMessage => ({ id: "t", role: "tool", content, createdAt: 0 });
const base: AgentModelRequest = { messages: [userText("hi")], tools: [] };

describe("gemini request conversion", () => {
  it("user text and images become user parts; the system prompt becomes systemInstruction", () => {
    const { contents, config } = toGeminiRequest(
      {
        systemPrompt: "Be brief.",
        messages: [
          {
            id: "u",
            role: "user",
            createdAt: 0,
            content: [
              { type: "text", text: "What is this?" },
              { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" },
            ],
          },
        ],
        tools: [],
      },
      "gemini-2.5-flash",
    );
    expect(config.systemInstruction).toBe("Be brief.");
    expect(contents).toEqual([
      {
        role: "user",
        parts: [{ text: "What is this?" }, { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }],
      },
    ]);
  });

  it("tools become functionDeclarations with raw JSON Schema (without $schema)", () => {
    const { config } = toGeminiRequest(
      {
        ...base,
        tools: [
          {
            name: "read",
            description: "Read a file",
            inputSchema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: {} },
          },
        ],
      },
      "gemini-2.5-flash",
    );
    expect(config.tools).toEqual([
      {
        functionDeclarations: [
          { name: "read", description: "Read a file", parametersJsonSchema: { type: "object", properties: {} } },
        ],
      },
    ]);
  });

  it("tool results become functionResponse parts in one user turn; errors use `error`; images follow", () => {
    const contents = toGeminiContents([
      userText("go"),
      assistant([
        { type: "tool-call", toolCallId: "c1", toolName: "shot", input: {}, providerMetadata: { gemini: {} } },
        {
          type: "tool-call",
          toolCallId: "c2",
          toolName: "read",
          input: { path: "x" },
          providerMetadata: { gemini: {} },
        },
      ]),
      tool([
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "shot",
          output: [
            { type: "text", text: "screen" },
            { type: "image", mediaType: "image/jpeg", data: "/9j/" },
          ],
        },
        { type: "tool-result", toolCallId: "c2", toolName: "read", output: "ENOENT", isError: true },
      ]),
      userText("[notice] keep going"),
    ]);
    expect(contents[2]).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            id: "c1",
            name: "shot",
            response: { output: "screen\n[1 image(s) from this tool result follow as separate parts]" },
          },
        },
        { functionResponse: { id: "c2", name: "read", response: { error: "ENOENT" } } },
        { inlineData: { mimeType: "image/jpeg", data: "/9j/" } },
        { text: "[notice] keep going" },
      ],
    });
    expect(contents).toHaveLength(3);
  });

  it("a reasoning part without Gemini data or signature is dropped; a signed thought goes back as a thought", () => {
    const contents = toGeminiContents([
      userText("q"),
      assistant([
        { type: "reasoning", text: "foreign thinking" },
        { type: "reasoning", text: "my thought", signature: "SIG", providerMetadata: { gemini: { thought: true } } },
        { type: "text", text: "answer" },
      ]),
    ]);
    expect(contents[1]).toEqual({
      role: "model",
      parts: [{ text: "my thought", thought: true, thoughtSignature: "SIG" }, { text: "answer" }],
    });
  });

  it("calls from another source get the documented dummy signature on the first call only", () => {
    const contents = toGeminiContents([
      userText("q"),
      assistant([
        { type: "tool-call", toolCallId: "toolu_1", toolName: "a", input: { x: 1 } },
        { type: "tool-call", toolCallId: "toolu_2", toolName: "b", input: { y: 2 } },
      ]),
    ]);
    expect(contents[1]!.parts).toEqual([
      { functionCall: { id: "toolu_1", name: "a", args: { x: 1 } }, thoughtSignature: FOREIGN_CALL_SIGNATURE },
      { functionCall: { id: "toolu_2", name: "b", args: { y: 2 } } },
    ]);
    expect(FOREIGN_CALL_SIGNATURE).toBe("skip_thought_signature_validator");
  });

  it("Gemini's own unsigned parallel call gets no invented signature", () => {
    const contents = toGeminiContents([
      userText("q"),
      assistant([
        {
          type: "tool-call",
          toolCallId: "1",
          toolName: "a",
          input: {},
          providerMetadata: { gemini: { thoughtSignature: "S" } },
        },
        { type: "tool-call", toolCallId: "2", toolName: "b", input: {}, providerMetadata: { gemini: {} } },
      ]),
    ]);
    expect(contents[1]!.parts!.map((part) => part.thoughtSignature)).toEqual(["S", undefined]);
  });

  it("options: max tokens, temperature, stop sequences, tool choice", () => {
    const config = (options: AgentModelRequest["options"]) =>
      toGeminiRequest({ ...base, options }, "gemini-2.5-flash").config;
    expect(config({ maxTokens: 100, temperature: 0.2, stopSequences: ["END"] })).toEqual({
      maxOutputTokens: 100,
      temperature: 0.2,
      stopSequences: ["END"],
    });
    expect(config({ toolChoice: "required" }).toolConfig).toEqual({ functionCallingConfig: { mode: "ANY" } });
    expect(config({ toolChoice: "none" }).toolConfig).toEqual({ functionCallingConfig: { mode: "NONE" } });
    expect(config({ toolChoice: { type: "tool", toolName: "read" } }).toolConfig).toEqual({
      functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["read"] },
    });
    // Gemini caches implicitly: cacheRetention adds nothing to the request.
    expect(config({ cacheRetention: "long" })).toEqual({});
  });

  it("reasoning: a budget, an effort (budget on 2.5, level on 3), off", () => {
    const thinking = (reasoning: any, model: string) =>
      toGeminiRequest({ ...base, options: { reasoning } }, model).config.thinkingConfig;
    expect(thinking({ budgetTokens: 2000 }, "gemini-2.5-pro")).toEqual({ thinkingBudget: 2000, includeThoughts: true });
    expect(thinking({ effort: "high" }, "gemini-2.5-flash")).toEqual({ thinkingBudget: 24576, includeThoughts: true });
    expect(thinking({ effort: "medium" }, "gemini-3-pro-preview")).toEqual({
      thinkingLevel: "MEDIUM",
      includeThoughts: true,
    });
    expect(thinking("off", "gemini-2.5-flash")).toEqual({ thinkingBudget: 0 });
    expect(thinking("off", "gemini-3-flash-preview")).toEqual({ thinkingLevel: "LOW" });
    expect(() => thinking({ effort: "max" }, "gemini-2.5-flash")).toThrow(/Unknown reasoning effort "max"/);
  });

  it("a request without any content is refused with a clear message", () => {
    expect(() => toGeminiRequest({ messages: [], tools: [] }, "gemini-2.5-flash")).toThrow(/at least one message/);
  });
});

describe("gemini request on the wire (real client)", () => {
  let server: MockProviderServer;
  beforeAll(async () => {
    server = await startMockProviderServer();
  });
  afterAll(() => server.close());

  it("sends options, headers and providerOptions.gemini merged into the body", async () => {
    server.enqueue("gemini", {
      events: [{ candidates: [{ content: { parts: [{ text: "ok" }] }, finishReason: "STOP" }] }],
    });
    const events = await collect(server, {
      ...base,
      options: {
        maxTokens: 64,
        reasoning: { effort: "low" },
        headers: { "x-trace": "t1" },
        providerOptions: { gemini: { generationConfig: { topK: 3 }, safetySettings: [] } },
      },
    });
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop" });
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
    expect(sent.headers["x-trace"]).toBe("t1");
    expect(sent.headers["x-goog-api-key"]).toBe("test-key");
    expect(sent.body.generationConfig).toEqual({
      maxOutputTokens: 64,
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
      topK: 3,
    });
    expect(sent.body.safetySettings).toEqual([]);
  });

  it("an invalid request is reported as invalid_request without a network call", async () => {
    const before = server.requests.length;
    const events = await collect(server, { messages: [], tools: [] });
    expect(events).toEqual([
      {
        type: "finish",
        reason: "error",
        error: expect.objectContaining({ kind: "invalid_request", retryable: false }),
      },
    ]);
    expect(server.requests.length).toBe(before);
  });
});
