import type { AgentMessage } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { prepareMessagesForTarget } from "./handoff.js";

const longId = `toolu_${"x".repeat(50)}`;

function transcript(): AgentMessage[] {
  return [
    { id: "u", role: "user", content: [{ type: "text", text: "weather?" }], createdAt: 0 },
    {
      id: "a",
      role: "assistant",
      model: { provider: "anthropic", id: "claude-sonnet-4-5" },
      createdAt: 1,
      content: [
        {
          type: "reasoning",
          text: "Need the weather tool.",
          signature: "sig-abc",
          providerMetadata: { anthropic: { signature: "sig-abc" } },
        },
        { type: "reasoning", text: "", redacted: true, providerMetadata: { anthropic: { data: "opaque" } } },
        { type: "text", text: "Checking." },
        {
          type: "tool-call",
          toolCallId: longId,
          toolName: "weather",
          input: { city: "Paris" },
          providerMetadata: { anthropic: { caller: "direct" } },
        },
        { type: "tool-call", toolCallId: "call.with:odd/chars", toolName: "time", input: {} },
      ],
    },
    {
      id: "t",
      role: "tool",
      createdAt: 2,
      content: [
        { type: "tool-result", toolCallId: longId, toolName: "weather", output: "sunny" },
        { type: "tool-result", toolCallId: "call.with:odd/chars", toolName: "time", output: "noon" },
      ],
    },
  ];
}

describe("prepareMessagesForTarget", () => {
  it("keeps reasoning, signatures and metadata for the family that produced them", () => {
    const input = transcript();
    const out = prepareMessagesForTarget(input, { family: "anthropic" });
    expect(out[1]!.content[0]).toBe(input[1]!.content[0]);
    expect(out[1]!.content[1]).toEqual(input[1]!.content[1]);
    // "call.with:odd/chars" breaks Anthropic's id pattern: rewritten, the same way in the call and the result.
    const call = out[1]!.content[4] as { toolCallId: string };
    const result = out[2]!.content[1] as { toolCallId: string };
    expect(call.toolCallId).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(result.toolCallId).toBe(call.toolCallId);
  });

  it("turns foreign reasoning into <thinking> text, drops redacted reasoning and strips foreign metadata", () => {
    const out = prepareMessagesForTarget(transcript(), { family: "openai-chat" });
    const content = out[1]!.content;
    expect(content[0]).toEqual({ type: "text", text: "<thinking>\nNeed the weather tool.\n</thinking>" });
    expect(content.some((part) => part.type === "reasoning")).toBe(false);
    expect(JSON.stringify(out)).not.toContain("sig-abc");
    expect(JSON.stringify(out)).not.toContain("opaque");
    expect(content.find((part) => part.type === "tool-call")).not.toHaveProperty("providerMetadata");
  });

  it("rewrites ids over 40 characters for the OpenAI families, consistently and deterministically", () => {
    const first = prepareMessagesForTarget(transcript(), { family: "openai" });
    const second = prepareMessagesForTarget(transcript(), { family: "openai" });
    const call = first[1]!.content.find((part) => part.type === "tool-call") as { toolCallId: string };
    expect(call.toolCallId.length).toBeLessThanOrEqual(40);
    expect(call.toolCallId).not.toBe(longId);
    expect((first[2]!.content[0] as { toolCallId: string }).toolCallId).toBe(call.toolCallId);
    expect(second).toEqual(first);
    // Ids within the limit are left alone.
    expect((first[2]!.content[1] as { toolCallId: string }).toolCallId).toBe("call.with:odd/chars");
  });

  it("gives Mistral 9 alphanumeric ids, distinct per call", () => {
    const out = prepareMessagesForTarget(transcript(), { family: "openai-chat", providerId: "mistral" });
    const ids = out[1]!.content.filter((part) => part.type === "tool-call").map((part) => (part as any).toolCallId);
    for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(new Set(ids).size).toBe(2);
    expect(out[2]!.content.map((part) => (part as any).toolCallId)).toEqual(ids);
  });

  it("leaves gemini ids as they are", () => {
    const out = prepareMessagesForTarget(transcript(), { family: "gemini" });
    expect((out[2]!.content[0] as { toolCallId: string }).toolCallId).toBe(longId);
  });

  it("places reasoning without metadata by the message's provider", () => {
    const messages: AgentMessage[] = [
      {
        id: "a",
        role: "assistant",
        model: { provider: "gemini", id: "gemini-2.5-pro" },
        createdAt: 0,
        content: [{ type: "reasoning", text: "thought", signature: "g-sig" }],
      },
    ];
    expect(prepareMessagesForTarget(messages, { family: "gemini" })[0]).toBe(messages[0]);
    expect(prepareMessagesForTarget(messages, { family: "anthropic" })[0]!.content).toEqual([
      { type: "text", text: "<thinking>\nthought\n</thinking>" },
    ]);
  });

  it("returns the input array itself when nothing needs a change", () => {
    const messages: AgentMessage[] = [
      { id: "u", role: "user", createdAt: 0, content: [{ type: "text", text: "hi" }] },
      {
        id: "a",
        role: "assistant",
        createdAt: 0,
        content: [{ type: "tool-call", toolCallId: "call_1", toolName: "note", input: {} }],
      },
      {
        id: "t",
        role: "tool",
        createdAt: 0,
        content: [{ type: "tool-result", toolCallId: "call_1", toolName: "note", output: "ok" }],
      },
    ];
    expect(prepareMessagesForTarget(messages, { family: "openai-chat" })).toBe(messages);
    const forMistral = prepareMessagesForTarget(messages, { family: "openai-chat", providerId: "mistral" });
    expect(forMistral).not.toBe(messages);
    expect(forMistral[0]).toBe(messages[0]);
    expect(forMistral[2]!.content[0]).toMatchObject({ toolCallId: expect.stringMatching(/^[a-zA-Z0-9]{9}$/) });
  });

  it("applies a provider's own id rule given as data on its spec (a registered Mistral-like provider)", () => {
    const out = prepareMessagesForTarget(transcript(), {
      family: "openai-chat",
      providerId: "my-proxy",
      toolCallIds: "nine-alphanumeric",
    });
    const ids = out.flatMap((m) =>
      m.content.flatMap((p) => (p.type === "tool-call" || p.type === "tool-result" ? [p.toolCallId] : [])),
    );
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
  });

  it("never mutates its input", () => {
    const input = transcript();
    const snapshot = structuredClone(input);
    prepareMessagesForTarget(input, { family: "openai-chat", providerId: "mistral" });
    prepareMessagesForTarget(input, { family: "gemini" });
    expect(input).toEqual(snapshot);
  });
});
