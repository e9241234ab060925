import { jsonrepair } from "jsonrepair";

/** How a tool call's argument text parsed. */
export type ToolArgumentsParse = { ok: true; value: unknown } | { ok: false; error: string };

/** Deeper arguments than this are refused: no tool schema nests so far, and deep values overflow recursive code. */
export const MAX_ARGUMENT_DEPTH = 100;
/** Argument text longer than this (in UTF-16 code units) is refused before any parsing. */
export const MAX_ARGUMENT_CHARS = 16 * 1024 * 1024;

interface Shape {
  /** Deepest `{`/`[` nesting seen outside strings, stopped at `MAX_ARGUMENT_DEPTH + 1`. */
  depth: number;
  /** True when the text ends inside a string or with a bracket still open: it was cut off. */
  truncated: boolean;
  /** Start offsets of each top-level value that closed (a server that resent the arguments has several). */
  valueStarts: number[];
}

/**
 * One pass over the text: nesting depth, whether it ends cut off, and where top-level values start. Iterative,
 * so no input can overflow the stack; double- and single-quoted strings are skipped (single quotes are a slip the
 * repair fixes, and brackets inside them are text).
 */
function scanShape(text: string): Shape {
  let depth = 0;
  let deepest = 0;
  let quote = 0;
  let escaped = false;
  let valueStart = -1;
  const valueStarts: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (quote !== 0) {
      if (escaped) escaped = false;
      else if (ch === 92 /* \ */) escaped = true;
      else if (ch === quote) quote = 0;
      continue;
    }
    if (ch === 34 /* " */ || ch === 39 /* ' */) {
      quote = ch;
    } else if (ch === 123 /* { */ || ch === 91 /* [ */) {
      if (depth === 0) valueStart = i;
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > MAX_ARGUMENT_DEPTH) return { depth: deepest, truncated: false, valueStarts };
      }
    } else if (ch === 125 /* } */ || ch === 93 /* ] */) {
      depth--;
      if (depth === 0 && valueStart >= 0) {
        valueStarts.push(valueStart);
        valueStart = -1;
      }
      if (depth < 0) depth = 0;
    }
  }
  return { depth: deepest, truncated: quote !== 0 || depth > 0, valueStarts };
}

const FENCE = /^\s*```[a-zA-Z0-9_-]*\s*\n([\s\S]*?)\n?\s*```\s*$/;

function isObjectLike(value: unknown): boolean {
  return typeof value === "object" && value !== null;
}

/** A string that holds the JSON of an object (double encoding), decoded; anything else as is. */
function decodeDoubleEncoding(value: unknown): unknown {
  if (typeof value !== "string" || !/^\s*[{[]/.test(value)) return value;
  try {
    const inner = JSON.parse(value) as unknown;
    return isObjectLike(inner) ? inner : value;
  } catch {
    return value;
  }
}

/**
 * Parses a tool call's argument text once. Plain JSON first; then a repair of slips that lose nothing (trailing
 * commas, single quotes, unquoted keys, Python literals, a code fence around the object, an object encoded as a
 * JSON string, the whole arguments sent twice). A value cut off at the end (an open string or bracket) is never
 * completed: `{"city": "Par` is an error, not `{city: "Par"}`. Text nested deeper than `MAX_ARGUMENT_DEPTH` or
 * longer than `MAX_ARGUMENT_CHARS` is an error before any recursive code sees it. Empty text is `{}`: vendors
 * send none for tools without parameters.
 */
export function parseToolArguments(text: string): ToolArgumentsParse {
  if (text.length > MAX_ARGUMENT_CHARS)
    return { ok: false, error: `the arguments are too large (${text.length} characters)` };
  if (text.trim() === "") return { ok: true, value: {} };
  let firstError: string;
  try {
    // The common case, first and alone: V8's JSON.parse is iterative, so any depth parses; the parsed value's depth
    // is then checked by walking its objects, which costs far less than a character scan of the text.
    const value = decodeDoubleEncoding(JSON.parse(text));
    return nestsTooDeep(value) ? tooDeep() : { ok: true, value };
  } catch (error) {
    firstError = (error as Error).message;
  }
  const shape = scanShape(text);
  if (shape.depth > MAX_ARGUMENT_DEPTH) return tooDeep();
  if (shape.truncated) return { ok: false, error: `the arguments are cut off before their end (${firstError})` };
  // The whole object sent again after a complete one (some compatible servers): the last copy is the call.
  if (shape.valueStarts.length > 1) {
    try {
      const last = JSON.parse(text.slice(shape.valueStarts[shape.valueStarts.length - 1]));
      if (isObjectLike(last)) return { ok: true, value: last };
    } catch {
      // Not a clean resend: try the repair.
    }
  }
  const fenced = FENCE.exec(text);
  if (fenced) {
    const inner = parseToolArguments(fenced[1] as string);
    if (inner.ok) return inner;
  }
  try {
    // Depth is bounded by the scan above, so the repair's recursion is too.
    const value = decodeDoubleEncoding(JSON.parse(jsonrepair(text)));
    // Repair turns any prose into a JSON string; only a repaired object is what the model meant to send.
    if (isObjectLike(value)) return { ok: true, value };
  } catch {
    // Not repairable.
  }
  return { ok: false, error: firstError };
}

function tooDeep(): ToolArgumentsParse {
  return { ok: false, error: `the arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels` };
}

/**
 * True when a value (arguments a vendor sent already parsed) nests deeper than `MAX_ARGUMENT_DEPTH`. Iterative
 * and stops at the limit, so it is cheap on normal input and safe on hostile input.
 */
export function nestsTooDeep(value: unknown): boolean {
  if (!isObjectLike(value)) return false;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: node, depth } = stack.pop() as { value: unknown; depth: number };
    if (depth > MAX_ARGUMENT_DEPTH) return true;
    const children = Array.isArray(node) ? node : Object.values(node as object);
    for (const child of children) if (isObjectLike(child)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}
