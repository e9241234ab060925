// What every client in the peer benchmark agrees on: the prompt, the one tool, the tool arguments the server
// streams, and the checks that make a broken run fail loudly instead of passing for a fast one.

export const PROMPT = "Take notes until you are done.";
export const TOOL_NAME = "note";
export const TOOL_DESCRIPTION = "Take a note";
/** The tool's JSON Schema (plain, so every framework can take it without a schema library of its own). */
export const NOTE_SCHEMA = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
  additionalProperties: false,
};
export const MODELS = { chat: "gpt-4o", anthropic: "claude-opus-4-7", gemini: "gemini-2.5-flash" };
export const API_KEY = "sk-bench";
/** The last turn's text, streamed in ten pieces `word0 ` .. `word9 `; every client must surface it. */
export const FINAL_WORDS = Array.from({ length: 10 }, (_, i) => `word${i} `);
export const FINAL_TEXT = FINAL_WORDS.join("");

/** `{"text":"..."}` padded to exactly `bytes` characters (ASCII, nothing to escape). */
export function toolArguments(bytes) {
  const shell = '{"text":""}';
  const words = "lorem ipsum dolor sit amet ";
  return `{"text":"${words.repeat(Math.ceil(bytes / words.length)).slice(0, bytes - shell.length)}"}`;
}

/** Length of the `text` argument the tool must receive for `bytes` of arguments. */
export const textLength = (bytes) => bytes - '{"text":""}'.length;

/** The tool result text; the server checks that every result it gets back contains it. */
export const toolResult = (length) => `noted ${length} characters`;

export class BenchRunError extends Error {}

/**
 * The tool body every client runs: checks the arguments arrived whole, counts the call, answers.
 * `state.calls` is the client's own count of tool executions.
 */
export function runNote(input, { argumentBytes, state, who }) {
  const length = textLength(argumentBytes);
  if (typeof input?.text !== "string" || input.text.length !== length)
    throw new BenchRunError(`${who}: tool arguments arrived cut (${input?.text?.length} of ${length} characters)`);
  state.calls++;
  return toolResult(length);
}

/** The checks every run ends with: the tool ran turns-1 times and the final text surfaced. */
export function checkRun({ who, turns, calls, text }) {
  if (calls !== turns - 1) throw new BenchRunError(`${who}: the tool ran ${calls} times, expected ${turns - 1}`);
  if (typeof text !== "string" || !text.includes(FINAL_TEXT.trim()))
    throw new BenchRunError(`${who}: the final text did not surface (got ${JSON.stringify(text)?.slice(0, 80)})`);
}

/** Splits `text` into `count` pieces of near-equal length (the first ones one character longer). */
export function split(text, count) {
  const pieces = [];
  const base = Math.floor(text.length / count);
  let extra = text.length % count;
  for (let offset = 0; offset < text.length; ) {
    const size = base + (extra-- > 0 ? 1 : 0);
    pieces.push(text.slice(offset, offset + size));
    offset += size;
  }
  return pieces;
}
