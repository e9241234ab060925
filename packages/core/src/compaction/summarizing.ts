import { type AgentMessage, type AgentModel, toolOutputText, userMessage } from "@heddle/shared";
import {
  CompactionError,
  type CompactionStrategy,
  compactionMetadata,
  defaultShouldCompact,
  isCompactionMessage,
} from "./strategy.js";
import { tailStart } from "./tokens.js";

export interface SummarizingOptions {
  /** The model that writes the summary (default: the session's model). */
  model?: AgentModel;
  /** Tokens of recent messages kept verbatim (default: 30% of the context window, or 20,000; 0 for `compact()`). */
  keepRecentTokens?: number;
  /** Longest rendering of one tool result or message in the summary request, in characters (default 4,000). */
  maxCharsPerMessage?: number;
  /** Upper bound of the summary's length (default 4,096 tokens). */
  maxSummaryTokens?: number;
  /** Replaces the default summary instructions. */
  prompt?: string;
}

export const DEFAULT_SUMMARY_PROMPT = `Summarize the conversation above so that work can continue from the summary alone. Include:
1. The user's goal and every explicit request or constraint, in their words where it matters.
2. Decisions made and why; approaches tried that failed and why.
3. Files touched: list every file path that was read, created, modified or deleted, with what changed in each.
4. Commands run that matter, errors met and how they were resolved.
5. The current state and the exact next steps.
Be complete on facts, brief on prose. Write only the summary.`;

const SUMMARY_SYSTEM =
  "You write summaries of coding-agent conversations for the agent itself, so it can continue the work after its earlier context is removed.";

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n…[${text.length - max} characters cut]…\n${text.slice(-half)}`;
}

/** The messages as one plain transcript: tool calls and results as text, so no vendor rejects the request. */
export function renderTranscript(messages: readonly AgentMessage[], maxChars: number): string {
  const lines: string[] = [];
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === "text")
        lines.push(`[${isCompactionMessage(message) ? "earlier summary" : message.role}] ${clip(part.text, maxChars)}`);
      else if (part.type === "tool-call")
        lines.push(`[tool call ${part.toolName}] ${clip(JSON.stringify(part.input ?? {}), maxChars)}`);
      else if (part.type === "tool-result")
        lines.push(
          `[tool result ${part.toolName}${part.isError ? " (error)" : ""}] ${clip(toolOutputText(part.output), maxChars)}`,
        );
      else if (part.type === "image") lines.push(`[${message.role} image ${part.mediaType}]`);
    }
  }
  return lines.join("\n\n");
}

/**
 * Asks a model to summarize the older part of the working context and keeps the recent part verbatim. The
 * summary request is one user message holding the rendered transcript and the instructions.
 */
export function summarizingCompaction(options: SummarizingOptions = {}): CompactionStrategy {
  return {
    name: "summarizing",
    shouldCompact: defaultShouldCompact,
    async compact(ctx) {
      const model = options.model ?? ctx.model;
      if (!model)
        throw new CompactionError(
          "summarizing compaction needs a model: pass options.model or give the session an AgentModel",
        );
      // Asked for by a person (/compact), it summarizes all but the newest turn, however small the context is.
      const defaultKeep = ctx.contextWindow ? Math.floor(ctx.contextWindow * 0.3) : 20_000;
      const keep = options.keepRecentTokens ?? (ctx.reason === "manual" ? 0 : defaultKeep);
      const start = tailStart(ctx.messages, keep);
      if (start === 0)
        throw new CompactionError("summarizing compaction: everything fits in keepRecentTokens; nothing to summarize");
      const older = ctx.messages.slice(0, start);
      const instructions = [options.prompt ?? DEFAULT_SUMMARY_PROMPT, ctx.instructions].filter(Boolean).join("\n\n");
      const request = userMessage(
        `<conversation>\n${renderTranscript(older, options.maxCharsPerMessage ?? 4_000)}\n</conversation>\n\n${instructions}`,
      );
      let summary = "";
      for await (const event of model.stream({
        systemPrompt: SUMMARY_SYSTEM,
        messages: [request],
        tools: [],
        options: { maxTokens: options.maxSummaryTokens ?? 4_096 },
        signal: ctx.signal,
      })) {
        if (event.type === "text-delta") summary += event.text;
        else if (event.type === "finish" && (event.reason === "error" || event.reason === "aborted"))
          throw new CompactionError(
            `summarizing compaction: the summary call failed (${event.error?.message ?? event.reason})`,
          );
      }
      if (summary.trim() === "")
        throw new CompactionError("summarizing compaction: the model returned an empty summary");
      const message = userMessage(
        `<conversation-summary>\nThe earlier part of this conversation was compacted. Summary:\n\n${summary.trim()}\n</conversation-summary>`,
        { metadata: compactionMetadata("summary", "summarizing") },
      );
      return { messages: [message, ...ctx.messages.slice(start)] };
    },
  };
}
