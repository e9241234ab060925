import type { AgentModelEvent } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { StreamAssembler } from "./stream-assembler.js";

function assemble(events: AgentModelEvent[]) {
  const assembler = new StreamAssembler();
  for (const event of events) assembler.push(event);
  return assembler.finish();
}

describe("StreamAssembler", () => {
  it("keeps back-to-back reasoning blocks apart once one is signed or redacted", () => {
    const out = assemble([
      { type: "reasoning-delta", text: "", redacted: true, metadata: { anthropic: { redactedData: "A" } } },
      { type: "reasoning-delta", text: "", redacted: true, metadata: { anthropic: { redactedData: "B" } } },
      { type: "reasoning-delta", text: "first", signature: "s1" },
      { type: "reasoning-delta", text: "second" },
      { type: "reasoning-delta", text: "", metadata: { gemini: { extra: 1 } } },
      { type: "text-delta", text: "answer" },
      // A signature that rode on the text (Gemini) stays after it, as its own part.
      { type: "reasoning-delta", text: "", signature: "s-text", metadata: { gemini: { thoughtSignature: "s-text" } } },
    ]);
    expect(out.content).toEqual([
      { type: "reasoning", text: "", redacted: true, providerMetadata: { anthropic: { redactedData: "A" } } },
      { type: "reasoning", text: "", redacted: true, providerMetadata: { anthropic: { redactedData: "B" } } },
      { type: "reasoning", text: "first", signature: "s1" },
      { type: "reasoning", text: "second", providerMetadata: { gemini: { extra: 1 } } },
      { type: "text", text: "answer" },
      {
        type: "reasoning",
        text: "",
        signature: "s-text",
        providerMetadata: { gemini: { thoughtSignature: "s-text" } },
      },
    ]);
  });

  it("keeps text, reasoning with its signature, and tool calls in arrival order", () => {
    const out = assemble([
      { type: "reasoning-delta", text: "think " },
      { type: "reasoning-delta", text: "hard" },
      { type: "reasoning-delta", text: "", signature: "sig-1" },
      { type: "text-delta", text: "Hello " },
      { type: "text-delta", text: "world" },
      { type: "tool-call-delta", index: 0, toolCallId: "c1", toolName: "echo" },
      { type: "tool-call-delta", index: 0, inputText: '{"text":' },
      { type: "tool-call-delta", index: 0, inputText: '"hi"}' },
    ]);
    expect(out.content).toEqual([
      { type: "reasoning", text: "think hard", signature: "sig-1" },
      { type: "text", text: "Hello world" },
      { type: "tool-call", toolCallId: "c1", toolName: "echo", input: { text: "hi" } },
    ]);
    expect(out.text).toBe("Hello world");
  });

  it("assembles interleaved calls keyed by index, and by id alone", () => {
    const out = assemble([
      { type: "tool-call-delta", index: 0, toolCallId: "a", toolName: "one" },
      { type: "tool-call-delta", index: 1, toolCallId: "b", toolName: "two" },
      { type: "tool-call-delta", index: 1, inputText: '{"n":' },
      { type: "tool-call-delta", index: 0, inputText: '{"m":1}' },
      { type: "tool-call-delta", index: 1, inputText: "2}" },
      { type: "tool-call-delta", toolCallId: "c", toolName: "three", inputText: '{"k":' },
      { type: "tool-call-delta", toolCallId: "c", inputText: "3}" },
    ]);
    expect(out.toolCalls.map((c) => [c.part.toolCallId, c.part.toolName, c.part.input])).toEqual([
      ["a", "one", { m: 1 }],
      ["b", "two", { n: 2 }],
      ["c", "three", { k: 3 }],
    ]);
  });

  it("treats a new id on a reused index as a new call (servers that send index 0 for every call)", () => {
    const out = assemble([
      { type: "tool-call-delta", index: 0, toolCallId: "a", toolName: "one", inputText: "{}" },
      { type: "tool-call-delta", index: 0, toolCallId: "b", toolName: "two", inputText: '{"x":1}' },
    ]);
    expect(out.toolCalls.map((c) => c.part.toolCallId)).toEqual(["a", "b"]);
    expect(out.toolCalls[1]!.part.input).toEqual({ x: 1 });
  });

  it("replaces the arguments when a fragment restarts a complete JSON value", () => {
    const out = assemble([
      { type: "tool-call-delta", index: 0, toolCallId: "a", toolName: "one", inputText: '{"path":"a.txt"}' },
      { type: "tool-call-delta", index: 0, inputText: '{"path":"a.txt","limit":5}' },
    ]);
    expect(out.toolCalls[0]!.part.input).toEqual({ path: "a.txt", limit: 5 });
  });

  it("sees a restart after a complete value that came in many fragments, even after whitespace", () => {
    const out = assemble([
      { type: "tool-call-delta", index: 0, toolCallId: "a", toolName: "one", inputText: '{"s":' },
      { type: "tool-call-delta", index: 0, inputText: '"\\"}' },
      { type: "tool-call-delta", index: 0, inputText: '"}' },
      { type: "tool-call-delta", index: 0, inputText: ' \n{"s":"again"}' },
    ]);
    expect(out.toolCalls[0]!.part.input).toEqual({ s: "again" });
  });

  it("does not mistake a nested object or a brace inside a string for a restart", () => {
    const out = assemble([
      { type: "tool-call-delta", index: 0, toolCallId: "a", toolName: "one", inputText: '{"s":"}{",' },
      { type: "tool-call-delta", index: 0, inputText: '"o":' },
      { type: "tool-call-delta", index: 0, inputText: '{"x":1}}' },
    ]);
    expect(out.toolCalls[0]!.part.input).toEqual({ s: "}{", o: { x: 1 } });
  });

  it("lets a complete input object win over argument text", () => {
    const out = assemble([
      { type: "tool-call-delta", index: 0, toolCallId: "a", toolName: "one", inputText: '{"broken' },
      { type: "tool-call-delta", index: 0, input: { ok: true } },
    ]);
    expect(out.toolCalls[0]!.parse.ok).toBe(true);
    expect(out.toolCalls[0]!.part.input).toEqual({ ok: true });
  });

  it("invents an id for a call that came without one, and records unreadable arguments as {}", () => {
    const out = assemble([{ type: "tool-call-delta", index: 0, toolName: "one", inputText: "not json at all" }]);
    const call = out.toolCalls[0]!;
    expect(call.part.toolCallId).toMatch(/^call_/);
    expect(call.part.input).toEqual({});
    expect(call.parse.ok).toBe(false);
  });

  it("keeps redacted reasoning and provider metadata", () => {
    const out = assemble([
      { type: "reasoning-delta", text: "", redacted: true, metadata: { anthropic: { data: "xyz" } } },
      { type: "text-delta", text: "ok" },
    ]);
    expect(out.content[0]).toEqual({
      type: "reasoning",
      text: "",
      redacted: true,
      providerMetadata: { anthropic: { data: "xyz" } },
    });
  });
});
