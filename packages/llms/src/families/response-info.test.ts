// The vendor's response id and model on `finish`, for traces (`gen_ai.response.id`, `gen_ai.response.model`):
// each family reads them where its wire format puts them, and only when the request asks (`responseInfo`).
import type { AgentModelEvent, FinishEvent } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { AnthropicStreamMapper } from "./anthropic/stream.js";
import { GeminiStreamMapper } from "./gemini/stream.js";
import { ChatStreamMapper } from "./openai-chat/stream.js";
import { ResponsesStreamMapper } from "./openai-responses/stream.js";

interface Mapper {
  push(event: never, out: AgentModelEvent[]): unknown;
  end(out: AgentModelEvent[]): void;
}
function finish(mapper: Mapper, events: unknown[]): FinishEvent {
  const out: AgentModelEvent[] = [];
  // The Responses mapper says when its terminal event arrived: the stream is over then.
  let done = false;
  for (const event of events) done = mapper.push(event as never, out) === true;
  if (!done) mapper.end(out);
  return out.at(-1) as FinishEvent;
}

const anthropic = [
  { type: "message_start", message: { id: "msg_01", model: "claude-sonnet-4-5-20250929", usage: { input_tokens: 3 } } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
  { type: "message_stop" },
];
const chat = [
  { id: "chatcmpl-9", model: "gpt-4o-2024-08-06", choices: [{ index: 0, delta: { content: "hi" } }] },
  { id: "chatcmpl-9", model: "gpt-4o-2024-08-06", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
];
const responses = [
  { type: "response.output_text.delta", delta: "hi" },
  { type: "response.completed", response: { id: "resp_7", model: "gpt-5-2025-08-07", status: "completed" } },
];
const gemini = [
  {
    responseId: "gem-3",
    modelVersion: "gemini-2.5-flash-001",
    candidates: [{ content: { parts: [{ text: "hi" }] }, finishReason: "STOP" }],
  },
];

describe("response id and model on finish", () => {
  it("each family reports the vendor's response id and model when the request asks for them", () => {
    expect(finish(new AnthropicStreamMapper({ responseInfo: true }), anthropic).response).toEqual({
      id: "msg_01",
      model: "claude-sonnet-4-5-20250929",
    });
    expect(finish(new ChatStreamMapper({ responseInfo: true }), chat).response).toEqual({
      id: "chatcmpl-9",
      model: "gpt-4o-2024-08-06",
    });
    expect(finish(new ResponsesStreamMapper({ responseInfo: true }), responses).response).toEqual({
      id: "resp_7",
      model: "gpt-5-2025-08-07",
    });
    expect(finish(new GeminiStreamMapper({ responseInfo: true }), gemini).response).toEqual({
      id: "gem-3",
      model: "gemini-2.5-flash-001",
    });
  });

  it("leaves them out unless asked, so finish events stay as they were", () => {
    expect(finish(new AnthropicStreamMapper(), anthropic)).toEqual({ type: "finish", reason: "stop" });
    expect(finish(new ChatStreamMapper(), chat)).toEqual({ type: "finish", reason: "stop" });
    expect(finish(new GeminiStreamMapper(), gemini)).toEqual({ type: "finish", reason: "stop" });
  });
});
