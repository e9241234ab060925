import { type AgentMessage, type AgentModel, HeddleError, type ModelInfo } from "@heddle/shared";

/**
 * Why compaction runs: the request passed the threshold, the model said it overflowed, or the host asked for it
 * (`session.compact()`, which skips `shouldCompact`).
 */
export type CompactionReason = "threshold" | "overflow" | "manual";

/** What a strategy sees. `messages` is the current working context (already compacted parts included). */
export interface CompactionContext {
  messages: readonly AgentMessage[];
  systemPrompt?: string;
  reason: CompactionReason;
  estimatedTokens: number;
  /** The model's context window, when known. */
  contextWindow?: number;
  /** The share of the window that triggers compaction. */
  threshold: number;
  /** The session's model, for strategies that ask one. */
  model?: AgentModel;
  modelInfo?: ModelInfo;
  /** Extra instructions (from a `PreCompact` hook) for strategies that write a summary. */
  instructions?: string;
  signal: AbortSignal;
}

/** The new working context. The stored transcript is never changed. */
export interface CompactionResult {
  messages: AgentMessage[];
}

/** A way to shrink the working context: decide whether to, then produce the new one. */
export interface CompactionStrategy {
  readonly name: string;
  shouldCompact(ctx: CompactionContext): boolean | Promise<boolean>;
  compact(ctx: CompactionContext): Promise<CompactionResult>;
}

/** The default decision: always on overflow, and at `threshold` × the context window when it is known. */
export function defaultShouldCompact(ctx: CompactionContext): boolean {
  if (ctx.reason === "overflow" || ctx.reason === "manual") return true;
  return ctx.contextWindow !== undefined && ctx.estimatedTokens >= ctx.threshold * ctx.contextWindow;
}

/** A strategy could not produce a working context (the summary call failed, nothing can be dropped, ...). */
export class CompactionError extends HeddleError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("compaction_failed", message, options);
    this.name = "CompactionError";
  }
}

/** Marks a message that compaction wrote (a summary or a truncation notice). */
export function compactionMetadata(kind: "summary" | "truncation", strategy: string) {
  return { heddle: { kind: "compaction", compaction: kind, strategy } };
}

/** True for a message compaction wrote. */
export function isCompactionMessage(message: AgentMessage): boolean {
  return (message.metadata?.heddle as { kind?: unknown } | undefined)?.kind === "compaction";
}
