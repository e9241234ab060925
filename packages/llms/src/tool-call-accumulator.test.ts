import type { AgentModelEvent } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { ToolCallAccumulator } from "./tool-call-accumulator.js";
import { MAX_ARGUMENT_DEPTH, parseToolArguments } from "./tool-input-parse.js";

/** One call streamed in the given fragments, and its end event. */
function endOf(...fragments: string[]): AgentModelEvent {
  const calls = new ToolCallAccumulator();
  const out: AgentModelEvent[] = [];
  calls.start(0, "c1", "tool", out);
  for (const fragment of fragments) calls.append(0, fragment, out);
  calls.end(0, out);
  return out.at(-1) as AgentModelEvent;
}

describe("ToolCallAccumulator", () => {
  it("emits start, a delta per fragment, and one end with the parsed input", () => {
    const calls = new ToolCallAccumulator();
    const out: AgentModelEvent[] = [];
    calls.start("k", "c1", "echo", out, { openai: { itemId: "fc_1" } });
    calls.append("k", '{"text":', out);
    calls.append("k", "", out);
    calls.append("k", '"hi"}', out);
    calls.end("k", out);
    calls.end("k", out);
    expect(out).toEqual([
      { type: "tool-call-start", id: "c1", name: "echo", metadata: { openai: { itemId: "fc_1" } } },
      { type: "tool-call-delta", id: "c1", text: '{"text":' },
      { type: "tool-call-delta", id: "c1", text: '"hi"}' },
      { type: "tool-call-end", id: "c1", input: { text: "hi" } },
    ]);
  });

  it("invents a unique id where the vendor gives none or repeats one", () => {
    const calls = new ToolCallAccumulator();
    const out: AgentModelEvent[] = [];
    calls.start(0, undefined, "a", out);
    calls.start(1, "", "b", out);
    calls.start(2, "same", "c", out);
    calls.start(3, "same", "d", out);
    const ids = out.map((event) => (event as { id: string }).id);
    expect(ids[2]).toBe("same");
    expect(new Set(ids).size).toBe(4);
    for (const id of [ids[0], ids[1], ids[3]]) expect(id).toMatch(/^call_/);
  });

  it("ends every open call in start order, and a whole input wins over text", () => {
    const calls = new ToolCallAccumulator();
    const out: AgentModelEvent[] = [];
    calls.start(0, "a", "one", out);
    calls.start(1, "b", "two", out);
    calls.append(0, '{"broken', out);
    calls.setInput(0, { ok: true });
    calls.endAll(out);
    expect(out.slice(-2)).toEqual([
      { type: "tool-call-end", id: "a", input: { ok: true } },
      { type: "tool-call-end", id: "b", input: {} },
    ]);
    expect(calls.hasOpen).toBe(false);
  });

  it("takes the last copy when a server resends the whole arguments after a complete one", () => {
    expect(endOf('{"path":"a.txt"}', '{"path":"a.txt","limit":5}')).toMatchObject({
      input: { path: "a.txt", limit: 5 },
    });
    expect(endOf('{"s":', '"\\"}', '"}', ' \n{"s":"again"}')).toMatchObject({ input: { s: "again" } });
    // A nested object or a brace inside a string is not a restart.
    expect(endOf('{"s":"}{",', '"o":', '{"x":1}}')).toMatchObject({ input: { s: "}{", o: { x: 1 } } });
  });

  it("ends a call whose arguments do not parse with the raw text and the reason", () => {
    expect(endOf('{"city": "Par')).toEqual({
      type: "tool-call-end",
      id: "c1",
      rawText: '{"city": "Par',
      error: expect.stringContaining("cut off"),
    });
  });
});

describe("parseToolArguments: repair of slips that lose nothing", () => {
  it("reads plain JSON, and empty text as {}", () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseToolArguments("  ")).toEqual({ ok: true, value: {} });
  });

  it("repairs trailing commas, single quotes, unquoted keys and Python literals", () => {
    expect(parseToolArguments('{"a": 1, "b": [1, 2,],}')).toEqual({ ok: true, value: { a: 1, b: [1, 2] } });
    expect(parseToolArguments("{'city': 'Paris'}")).toEqual({ ok: true, value: { city: "Paris" } });
    expect(parseToolArguments('{city: "Paris", days: 3}')).toEqual({ ok: true, value: { city: "Paris", days: 3 } });
    expect(parseToolArguments("{'a': 1, b: True, c: None}")).toEqual({
      ok: true,
      value: { a: 1, b: true, c: null },
    });
  });

  it("unwraps a code fence and double encoding", () => {
    expect(parseToolArguments('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseToolArguments(JSON.stringify('{"a":2}'))).toEqual({ ok: true, value: { a: 2 } });
  });

  it("never completes a truncated value: a cut string, object or array is an error", () => {
    for (const text of [
      '{"city": "Par',
      '{"city": "Paris"',
      '{"city": "Paris", "days": [1, 2',
      '{"a": {"b": 1}',
      "{'city': 'Par",
      '```json\n{"city": "Par\n```',
      JSON.stringify('{"city": "Par').slice(0, -1),
    ]) {
      const parse = parseToolArguments(text);
      expect(parse, text).toMatchObject({ ok: false, error: expect.stringContaining("cut off") });
    }
  });

  it("refuses prose rather than turning it into a string", () => {
    expect(parseToolArguments("not json at all").ok).toBe(false);
    expect(parseToolArguments("{]:::").ok).toBe(false);
  });

  it("refuses arguments nested deeper than the limit without overflowing the stack, closed or cut", () => {
    const deep = 100_000;
    const closed = `${"[".repeat(deep)}${"]".repeat(deep)}`;
    const cut = `{"a":${'{"a":'.repeat(deep)}`;
    for (const text of [closed, cut]) {
      const parse = parseToolArguments(text);
      expect(parse).toEqual({ ok: false, error: `the arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels` });
    }
    const justRight = `${"[".repeat(MAX_ARGUMENT_DEPTH)}${"]".repeat(MAX_ARGUMENT_DEPTH)}`;
    expect(parseToolArguments(justRight).ok).toBe(true);
  });

  it("refuses a deep object a vendor sent already parsed (Gemini)", () => {
    let value: unknown = {};
    for (let i = 0; i < 100_000; i++) value = { a: value };
    const calls = new ToolCallAccumulator();
    const out: AgentModelEvent[] = [];
    calls.start(0, "g", "tool", out);
    calls.setInput(0, value);
    calls.end(0, out);
    expect(out.at(-1)).toMatchObject({ type: "tool-call-end", id: "g", error: expect.stringContaining("deeper") });
  });

  it("refuses huge argument text before parsing it", () => {
    const huge = `{"a":"${"x".repeat(17 * 1024 * 1024)}"}`;
    expect(parseToolArguments(huge)).toMatchObject({ ok: false, error: expect.stringContaining("too large") });
  });
});
