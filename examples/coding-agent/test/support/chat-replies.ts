// Scripted replies of an OpenAI-compatible model for `startMockProviderServer`: what a model (or an attacker who
// controls its output) sends to heddle-code, on the real wire.
import type { MockResponse } from "@heddle/llms/testing";

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/** A reply that is only text. */
export function textReply(text: string): MockResponse {
  return {
    events: [
      { choices: [{ index: 0, delta: { role: "assistant", content: text } }] },
      { choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage },
    ],
  };
}

/** A reply that calls one tool (with some text before it, when given). */
export function toolCallReply(
  name: string,
  input: unknown,
  id = `call_${name}_${Math.random().toString(36).slice(2, 8)}`,
  text?: string,
): MockResponse {
  return {
    events: [
      ...(text ? [{ choices: [{ index: 0, delta: { role: "assistant", content: text } }] }] : []),
      {
        choices: [
          {
            index: 0,
            delta: {
              role: "assistant",
              tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: JSON.stringify(input) } }],
            },
          },
        ],
      },
      { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }], usage },
    ],
  };
}
