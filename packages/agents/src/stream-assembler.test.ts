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
      { type: "tool-call-start", id: "c1", name: "echo" },
      { type: "tool-call-delta", id: "c1", text: '{"text":' },
      { type: "tool-call-delta", id: "c1", text: '"hi"}' },
      { type: "tool-call-end", id: "c1", input: { text: "hi" } },
    ]);
    expect(out.content).toEqual([
      { type: "reasoning", text: "think hard", signature: "sig-1" },
      { type: "text", text: "Hello world" },
      { type: "tool-call", toolCallId: "c1", toolName: "echo", input: { text: "hi" } },
    ]);
    expect(out.text).toBe("Hello world");
  });

  it("takes each call's input from its end event, not from the deltas, and keeps interleaved calls apart", () => {
    const out = assemble([
      { type: "tool-call-start", id: "a", name: "one", metadata: { openai: { itemId: "fc_a" } } },
      { type: "tool-call-start", id: "b", name: "two" },
      { type: "tool-call-delta", id: "b", text: "ignored by the assembler" },
      { type: "tool-call-end", id: "b", input: { n: 2 } },
      { type: "tool-call-end", id: "a", input: { m: 1 } },
    ]);
    expect(out.toolCalls).toEqual([
      {
        part: {
          type: "tool-call",
          toolCallId: "a",
          toolName: "one",
          input: { m: 1 },
          providerMetadata: { openai: { itemId: "fc_a" } },
        },
        parse: { ok: true, value: { m: 1 } },
      },
      {
        part: { type: "tool-call", toolCallId: "b", toolName: "two", input: { n: 2 } },
        parse: { ok: true, value: { n: 2 } },
      },
    ]);
  });

  it("turns an end with an error into a failed parse carrying the raw text, recorded as {}", () => {
    const out = assemble([
      { type: "tool-call-start", id: "a", name: "weather" },
      { type: "tool-call-end", id: "a", rawText: '{"city": "Par', error: "the arguments are cut off" },
    ]);
    expect(out.toolCalls).toEqual([
      {
        part: { type: "tool-call", toolCallId: "a", toolName: "weather", input: {} },
        parse: { ok: false, error: "the arguments are cut off", text: '{"city": "Par' },
      },
    ]);
  });

  it("treats a call that never ended as incomplete, never as a call with empty input", () => {
    const out = assemble([
      { type: "tool-call-start", id: "a", name: "write" },
      { type: "tool-call-delta", id: "a", text: '{"path":"x"}' },
    ]);
    expect(out.toolCalls[0]!.parse.ok).toBe(false);
    expect(out.toolCalls[0]!.part.input).toEqual({});
  });

  it("ignores an end for a call that never started", () => {
    const out = assemble([
      { type: "tool-call-end", id: "ghost", input: {} },
      { type: "text-delta", text: "ok" },
    ]);
    expect(out.toolCalls).toEqual([]);
    expect(out.content).toEqual([{ type: "text", text: "ok" }]);
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

  it("keeps only the text of a cut response, and drops empty deltas that carry nothing", () => {
    const assembler = new StreamAssembler();
    const events: AgentModelEvent[] = [
      { type: "text-delta", text: "" },
      { type: "reasoning-delta", text: "" },
      { type: "text-delta", text: "Hel" },
      { type: "reasoning-delta", text: "hmm" },
      { type: "tool-call-start", id: "a", name: "t" },
      { type: "text-delta", text: "lo" },
    ];
    for (const event of events) assembler.push(event);
    expect(assembler.partialText()).toBe("Hello");
    const out = assembler.finish();
    expect(out.text).toBe("Hello");
    expect(out.content.map((part) => part.type)).toEqual(["text", "reasoning", "tool-call", "text"]);
    // An empty text delta between reasoning deltas neither adds a part nor splits the block.
    expect(
      assemble([
        { type: "reasoning-delta", text: "a" },
        { type: "text-delta", text: "" },
        { type: "reasoning-delta", text: "b" },
      ]).content,
    ).toEqual([{ type: "reasoning", text: "ab" }]);
  });

  it("merges a reasoning block's metadata family by family, key by key", () => {
    const out = assemble([
      { type: "reasoning-delta", text: "a", metadata: { gemini: { x: 1 } } },
      { type: "reasoning-delta", text: "b", metadata: { gemini: { y: 2 }, openai: { z: 3 } } },
      { type: "reasoning-delta", text: "", signature: "sig", metadata: { gemini: { x: 4 } } },
    ]);
    expect(out.content).toEqual([
      {
        type: "reasoning",
        text: "ab",
        signature: "sig",
        providerMetadata: { gemini: { x: 4, y: 2 }, openai: { z: 3 } },
      },
    ]);
  });
});
