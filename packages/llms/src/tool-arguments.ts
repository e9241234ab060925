// Serialized tool-call arguments, computed once per input object. Every turn re-sends the whole history, and
// re-serializing each earlier call's arguments made that cost grow with the transcript (the hottest Heddle
// function in the 50-turn benchmark at 32 KB of arguments). The loop keeps the same parsed input object for
// a call across turns, so a WeakMap keyed by it turns the repeat work into a lookup.
const serialized = new WeakMap<object, string>();

/** The JSON text of a tool call's input; a string input (arguments that did not parse) is sent back as written. */
export function toolArgumentsText(input: unknown): string {
  if (typeof input === "string") return input;
  if (input === null || typeof input !== "object") return JSON.stringify(input ?? {});
  let text = serialized.get(input);
  if (text === undefined) {
    text = JSON.stringify(input);
    serialized.set(input, text);
  }
  return text;
}
