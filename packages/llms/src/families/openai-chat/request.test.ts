import { describe, expect, it } from "vitest";
import { reasoningEffort, toChatRequest } from "./request.js";

describe("openai-chat request", () => {
  it("sends images as data URLs and tool-result images as a following user message", () => {
    const body = toChatRequest("gpt-4o", {
      systemPrompt: "be brief",
      tools: [{ name: "shot", description: "screenshot", inputSchema: { type: "object" } }],
      messages: [
        {
          id: "u",
          role: "user",
          createdAt: 0,
          content: [
            { type: "text", text: "look" },
            { type: "image", mediaType: "image/png", data: "AAAA" },
          ],
        },
        {
          id: "a",
          role: "assistant",
          createdAt: 1,
          content: [
            { type: "reasoning", text: "hidden" },
            { type: "tool-call", toolCallId: "c1", toolName: "shot", input: { full: true } },
          ],
        },
        {
          id: "t",
          role: "tool",
          createdAt: 2,
          content: [
            {
              type: "tool-result",
              toolCallId: "c1",
              toolName: "shot",
              output: [
                { type: "text", text: "captured" },
                { type: "image", mediaType: "image/jpeg", data: "BBBB" },
              ],
            },
          ],
        },
      ],
    });
    expect(body.messages).toEqual([
      { role: "system", content: "be brief" },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "shot", arguments: '{"full":true}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "captured" },
      {
        role: "user",
        content: [
          { type: "text", text: "Images returned by tool call c1 (shot):" },
          { type: "image_url", image_url: { url: "data:image/jpeg;base64,BBBB" } },
        ],
      },
    ]);
    expect(body.tools).toEqual([
      { type: "function", function: { name: "shot", description: "screenshot", parameters: { type: "object" } } },
    ]);
  });

  it("maps options to Chat Completions parameters and merges raw provider options last", () => {
    const body = toChatRequest("o4-mini", {
      messages: [],
      tools: [{ name: "t", description: "", inputSchema: {} }],
      options: {
        maxTokens: 500,
        temperature: 0.2,
        stopSequences: ["###"],
        toolChoice: { type: "tool", toolName: "t" },
        reasoning: { effort: "high" },
        providerOptions: { "openai-chat": { seed: 7 }, anthropic: { ignored: true } },
      },
    });
    expect(body).toMatchObject({
      max_completion_tokens: 500,
      temperature: 0.2,
      stop: ["###"],
      tool_choice: { type: "function", function: { name: "t" } },
      reasoning_effort: "high",
      seed: 7,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(body).not.toHaveProperty("ignored");
  });

  it("marks failed tool results and maps a token budget to the nearest effort", () => {
    const body = toChatRequest("m", {
      tools: [],
      messages: [
        {
          id: "t",
          role: "tool",
          createdAt: 0,
          content: [{ type: "tool-result", toolCallId: "c", toolName: "x", output: "boom", isError: true }],
        },
      ],
    });
    expect(body.messages).toEqual([{ role: "tool", tool_call_id: "c", content: "Error: boom" }]);
    expect(reasoningEffort("off")).toBeUndefined();
    expect(reasoningEffort({ budgetTokens: 1024 })).toBe("low");
    expect(reasoningEffort({ budgetTokens: 8000 })).toBe("medium");
    expect(reasoningEffort({ budgetTokens: 32000 })).toBe("high");
  });
});
