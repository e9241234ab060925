// Property tests (fast-check) for what a hostile or broken model can send as tool arguments: any text, any
// nesting, any chunking. Set HEDDLE_PROPERTY_RUNS for a long randomized run (default: a quick one for CI).
import type { AgentModelEvent } from "@heddle/shared";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolCallAccumulator } from "./tool-call-accumulator.js";
import { MAX_ARGUMENT_DEPTH, parseToolArguments } from "./tool-input-parse.js";

const numRuns = Number(process.env.HEDDLE_PROPERTY_RUNS ?? 300);
const objects = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 6 }), { maxKeys: 8 });

/** Cuts `text` at the given points into consecutive pieces (empty pieces allowed, like a vendor's). */
function cut(text: string, points: number[]): string[] {
  const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const point of at) {
    pieces.push(text.slice(start, point));
    start = point;
  }
  pieces.push(text.slice(start));
  return pieces;
}

describe("tool arguments from a hostile model", () => {
  it("any text parses to a result or an error: it never throws", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (text) => {
        const parsed = parseToolArguments(text);
        expect(typeof parsed.ok).toBe("boolean");
        if (!parsed.ok) expect(parsed.error).toMatch(/\S/);
      }),
      { numRuns },
    );
  });

  it("valid JSON objects come back exactly as sent", () => {
    fc.assert(
      fc.property(objects, (value) => {
        expect(parseToolArguments(JSON.stringify(value))).toEqual({
          ok: true,
          value: JSON.parse(JSON.stringify(value)),
        });
      }),
      { numRuns },
    );
  });

  it("a cut-off object is an error, never a call with a completed value", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1 }), fc.string({ minLength: 2 }), { minKeys: 1, maxKeys: 5 }),
        fc.nat(),
        (value, at) => {
          const text = JSON.stringify(value);
          // Cut inside the text, after the opening brace and before the closing one.
          const end = 1 + (at % (text.length - 2));
          expect(parseToolArguments(text.slice(0, end))).toMatchObject({ ok: false });
        },
      ),
      { numRuns },
    );
  });

  it("any nesting depth is handled without a stack overflow; deeper than the limit is an error", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200_000 }), fc.constantFrom("[", '{"a":'), (depth, open) => {
        const close = open === "[" ? "]" : "}";
        const text = open.repeat(depth) + (open === "[" ? "" : "1") + close.repeat(depth);
        const parsed = parseToolArguments(text);
        if (depth > MAX_ARGUMENT_DEPTH)
          expect(parsed).toMatchObject({ ok: false, error: expect.stringMatching(/deeper/) });
        else expect(parsed.ok).toBe(true);
      }),
      { numRuns: Math.min(numRuns, 60) },
    );
    // Up to 60 texts of up to a megabyte: seconds on a loaded two-core machine, not a hang.
  }, 60_000);
});

describe("tool calls assembled from arbitrary chunking", () => {
  it("the same arguments, however the vendor splits them, end in the same input and the deltas rejoin exactly", () => {
    fc.assert(
      fc.property(objects, fc.array(fc.nat(), { maxLength: 40 }), (value, points) => {
        const text = JSON.stringify(value);
        const accumulator = new ToolCallAccumulator();
        const out: AgentModelEvent[] = [];
        accumulator.start(0, "call_1", "tool", out);
        for (const piece of cut(text, points)) accumulator.append(0, piece, out);
        accumulator.end(0, out);
        const deltas = out.flatMap((e) => (e.type === "tool-call-delta" ? [e.text] : []));
        expect(deltas.join("")).toBe(text);
        expect(out.at(-1)).toEqual({ type: "tool-call-end", id: "call_1", input: JSON.parse(text) });
      }),
      { numRuns },
    );
  });
});
