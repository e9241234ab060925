import type { AgentMessage, ContentPart } from "./types/index.js";

// The one estimate of a request's size, in tokens: compaction decides when to compact with it, and the agent loop
// checks that an overflow-recovery projection is smaller than the request that overflowed.

// About four characters per token for English and code across the big vendors' tokenizers; an estimate only
// decides when to compact, so it errs on the high side rather than pull in a tokenizer per vendor.
const CHARS_PER_TOKEN = 3.5;
const IMAGE_TOKENS = 1_600;
const MESSAGE_OVERHEAD_TOKENS = 4;

function partChars(part: ContentPart): number {
  switch (part.type) {
    case "text":
    case "reasoning":
      return part.text.length;
    case "image":
      return IMAGE_TOKENS * CHARS_PER_TOKEN;
    case "tool-call":
      return part.toolName.length + (JSON.stringify(part.input ?? {})?.length ?? 0);
    case "tool-result":
      if (typeof part.output === "string") return part.output.length;
      return part.output.reduce((n, p) => n + (p.type === "text" ? p.text.length : IMAGE_TOKENS * CHARS_PER_TOKEN), 0);
  }
}

/** A quick token estimate of one message (no tokenizer): text length, tool inputs as JSON, images flat. */
export function estimateMessageTokens(message: AgentMessage): number {
  let chars = 0;
  for (const part of message.content) chars += partChars(part);
  return Math.ceil(chars / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD_TOKENS;
}

/** The estimate of a whole request's messages and system prompt. */
export function estimateTokens(messages: readonly AgentMessage[], systemPrompt?: string): number {
  let total = systemPrompt ? Math.ceil(systemPrompt.length / CHARS_PER_TOKEN) : 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}
