import {
  type AgentMessage,
  type AgentModel,
  ConfigError,
  type ModelInfo,
  type PrepareStepContext,
  type PrepareStepResult,
} from "@heddle/shared";
import type { CompactionContext, CompactionReason, CompactionStrategy } from "./strategy.js";
import { summarizingCompaction } from "./summarizing.js";
import { estimateTokens } from "./tokens.js";
import type { WorkingContext } from "./working-context.js";

/** What a `PreCompact` hook point sees. */
export interface PreCompactContext {
  sessionId: string;
  reason: CompactionReason;
  estimatedTokens: number;
  contextWindow?: number;
  strategy: string;
  messages: readonly AgentMessage[];
}

/** A `PreCompact` hook may skip this compaction or add instructions for the summary. */
export interface PreCompactResult {
  skip?: boolean;
  instructions?: string;
}

/** Compaction settings of a session; `compaction: false` turns it off. */
export interface CompactionOptions {
  /** Default: `summarizingCompaction()` with the session's model. */
  strategy?: CompactionStrategy;
  /** Share of the context window that triggers compaction (default 0.85). */
  threshold?: number;
  /** Overrides the model's context window (needed when the model has no catalog info). */
  contextWindow?: number;
  /** The `PreCompact` hook point: runs before every compaction. */
  onPreCompact?(ctx: PreCompactContext): PreCompactResult | void | Promise<PreCompactResult | void>;
}

/** Reported around each compaction (the session re-emits them as events). */
export type CompactionEvent =
  | { type: "compaction-started"; reason: CompactionReason; strategy: string; estimatedTokens: number }
  | {
      type: "compaction-finished";
      reason: CompactionReason;
      strategy: string;
      tokensBefore: number;
      tokensAfter?: number;
      /** Set when the strategy failed; the request then goes out uncompacted. */
      error?: string;
    };

/** What `session.compact()` did. */
export interface ManualCompactionResult {
  compacted: boolean;
  /** Estimated tokens of the working context before. */
  tokensBefore: number;
  /** Estimated tokens after, when it compacted. */
  tokensAfter?: number;
  /** Why the strategy failed (nothing to compact, the summary call failed, ...); the context is unchanged. */
  error?: string;
  /** True when a `PreCompact` hook (or `onPreCompact`) skipped it. */
  skipped?: boolean;
}

export interface CompactorDeps {
  sessionId: string;
  model?: AgentModel;
  /** Stores the new working context beside the transcript (after every message it covers is written). */
  save(context: WorkingContext): Promise<void>;
  emit(event: CompactionEvent): void;
}

/**
 * Keeps the working context of one session and projects each model request through it. Plugged into
 * `AgentRuntime.prepareStep`, so the transcript the loop keeps (and the store) stays whole.
 */
export class Compactor {
  working: WorkingContext | undefined;
  readonly #strategy: CompactionStrategy;
  readonly #threshold: number;

  constructor(
    readonly options: CompactionOptions,
    readonly deps: CompactorDeps,
    working?: WorkingContext,
  ) {
    const threshold = options.threshold ?? 0.85;
    if (!(threshold > 0 && threshold <= 1))
      throw new ConfigError(`compaction.threshold must be in (0, 1] (got ${threshold})`);
    this.#threshold = threshold;
    this.#strategy = options.strategy ?? summarizingCompaction();
    this.working = working;
  }

  /** The request's messages: the compacted context, then whatever the transcript added after it. */
  project(messages: readonly AgentMessage[]): AgentMessage[] {
    const working = this.working;
    if (!working) return [...messages];
    let index = messages.length - 1;
    while (index >= 0 && messages[index]!.id !== working.basedOnMessageId) index--;
    // A rewind to before the compacted part makes it stale: fall back to the transcript.
    if (index < 0) return [...messages];
    return [...working.messages, ...messages.slice(index + 1)];
  }

  async prepareTurn(ctx: PrepareStepContext): Promise<PrepareStepResult | void> {
    const projected = this.project(ctx.messages);
    const reason: CompactionReason = ctx.overflowRecovery ? "overflow" : "threshold";
    const base = this.#context(projected, reason, ctx);
    const last = ctx.messages.at(-1);
    const unchanged = this.working ? { messages: projected } : undefined;
    if (!last || !(await this.#strategy.shouldCompact(base))) return unchanged;
    const outcome = await this.#compact(base, last.id);
    return outcome.messages ? { messages: outcome.messages } : unchanged;
  }

  /**
   * Compacts the working context now, whatever its size (`session.compact()`): the `PreCompact` hook point still
   * runs and may skip it. `messages` is the stored history.
   */
  async compactNow(
    messages: readonly AgentMessage[],
    request: { systemPrompt?: string; signal: AbortSignal },
  ): Promise<ManualCompactionResult> {
    const last = messages.at(-1);
    const projected = this.project(messages);
    const base = this.#context(projected, "manual", {
      ...(request.systemPrompt !== undefined && { systemPrompt: request.systemPrompt }),
      signal: request.signal,
    });
    if (!last) return { compacted: false, tokensBefore: base.estimatedTokens };
    const outcome = await this.#compact(base, last.id);
    return {
      compacted: outcome.messages !== undefined,
      tokensBefore: base.estimatedTokens,
      ...(outcome.tokensAfter !== undefined && { tokensAfter: outcome.tokensAfter }),
      ...(outcome.error !== undefined && { error: outcome.error }),
      ...(outcome.skipped && { skipped: true }),
    };
  }

  #context(
    messages: AgentMessage[],
    reason: CompactionReason,
    ctx: { systemPrompt?: string; modelInfo?: ModelInfo; signal: AbortSignal },
  ): CompactionContext {
    const modelInfo = ctx.modelInfo ?? this.deps.model?.info;
    return {
      messages,
      systemPrompt: ctx.systemPrompt,
      reason,
      estimatedTokens: estimateTokens(messages, ctx.systemPrompt),
      contextWindow: this.options.contextWindow ?? modelInfo?.contextWindow,
      threshold: this.#threshold,
      model: this.deps.model,
      modelInfo,
      signal: ctx.signal,
    };
  }

  /** PreCompact, then the strategy; stores the new working context. Never throws: a failure is reported. */
  async #compact(
    base: CompactionContext,
    basedOnMessageId: string,
  ): Promise<{ messages?: AgentMessage[]; tokensAfter?: number; error?: string; skipped?: boolean }> {
    const { reason, estimatedTokens, contextWindow } = base;
    const strategy = this.#strategy.name;
    const pre = await this.options.onPreCompact?.({
      sessionId: this.deps.sessionId,
      reason,
      estimatedTokens,
      contextWindow,
      strategy,
      messages: base.messages,
    });
    if (pre?.skip) return { skipped: true };

    this.deps.emit({ type: "compaction-started", reason, strategy, estimatedTokens });
    try {
      const result = await this.#strategy.compact({
        ...base,
        ...(pre?.instructions && { instructions: pre.instructions }),
      });
      const working: WorkingContext = { messages: result.messages, basedOnMessageId, strategy, createdAt: Date.now() };
      await this.deps.save(working);
      this.working = working;
      const tokensAfter = estimateTokens(result.messages, base.systemPrompt);
      this.deps.emit({ type: "compaction-finished", reason, strategy, tokensBefore: estimatedTokens, tokensAfter });
      return { messages: result.messages, tokensAfter };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.emit({ type: "compaction-finished", reason, strategy, tokensBefore: estimatedTokens, error: message });
      return { error: message };
    }
  }
}
