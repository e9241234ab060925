import type { AgentMessage, ContentPart } from "@heddle/shared";

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

/**
 * Where the verbatim tail starts so that it holds about `keepTokens` and never begins with tool results
 * (they must follow the assistant message that called them). The last message that is not a tool result is
 * always kept, whatever its size: the model must see the newest request itself, not a summary of it.
 */
export function tailStart(messages: readonly AgentMessage[], keepTokens: number): number {
  let start = messages.length;
  let tokens = 0;
  while (start > 0) {
    const cost = estimateMessageTokens(messages[start - 1]!);
    if (tokens + cost > keepTokens) break;
    tokens += cost;
    start--;
  }
  while (start < messages.length && messages[start]!.role === "tool") start++;
  let lastNonTool = messages.length - 1;
  while (lastNonTool >= 0 && messages[lastNonTool]!.role === "tool") lastNonTool--;
  return lastNonTool >= 0 ? Math.min(start, lastNonTool) : start;
}
