import { userMessage } from "@heddle/shared";
import {
  CompactionError,
  type CompactionStrategy,
  compactionMetadata,
  defaultShouldCompact,
  isCompactionMessage,
} from "./strategy.js";
import { tailStart } from "./tokens.js";

export interface TruncatingOptions {
  /** Tokens of recent messages kept verbatim (default: 40% of the context window, or 20,000). */
  keepRecentTokens?: number;
  /** Keep the first user message (usually the task) in front of the notice (default true). */
  keepFirstUserMessage?: boolean;
}

/** Drops the oldest messages, leaving a notice in their place. Cheap, no model call; loses what it drops. */
export function truncatingCompaction(options: TruncatingOptions = {}): CompactionStrategy {
  const keepFirst = options.keepFirstUserMessage ?? true;
  return {
    name: "truncating",
    shouldCompact: defaultShouldCompact,
    async compact(ctx) {
      const keep = options.keepRecentTokens ?? (ctx.contextWindow ? Math.floor(ctx.contextWindow * 0.4) : 20_000);
      const messages = ctx.messages;
      const first = keepFirst ? messages.findIndex((m) => m.role === "user" && !isCompactionMessage(m)) : -1;
      const start = Math.max(tailStart(messages, keep), first + 1);
      const dropped = start - (first >= 0 ? first + 1 : 0);
      if (dropped <= 0)
        throw new CompactionError("truncating compaction: nothing left to drop within keepRecentTokens");
      const notice = userMessage(
        `[${dropped} earlier messages were removed to fit the context window. Ask the user if you need something from them.]`,
        { metadata: compactionMetadata("truncation", "truncating") },
      );
      return { messages: [...(first >= 0 ? [messages[first]!] : []), notice, ...messages.slice(start)] };
    },
  };
}
