import { type AgentMessage, estimateMessageTokens } from "@heddle/shared";

/** The token estimate is shared with the agent loop; it lives in @heddle/shared. */
export { estimateMessageTokens, estimateTokens } from "@heddle/shared";

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
