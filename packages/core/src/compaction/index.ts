export {
  type CompactionEvent,
  type CompactionOptions,
  Compactor,
  type CompactorDeps,
  type ManualCompactionResult,
  type PreCompactContext,
  type PreCompactResult,
} from "./compactor.js";
export {
  type CompactionContext,
  CompactionError,
  type CompactionReason,
  type CompactionResult,
  type CompactionStrategy,
  compactionMetadata,
  defaultShouldCompact,
  isCompactionMessage,
} from "./strategy.js";
export {
  DEFAULT_SUMMARY_PROMPT,
  renderTranscript,
  type SummarizingOptions,
  summarizingCompaction,
} from "./summarizing.js";
export { estimateMessageTokens, estimateTokens, tailStart } from "./tokens.js";
export { type TruncatingOptions, truncatingCompaction } from "./truncating.js";
export type { WorkingContext, WorkingContextStore } from "./working-context.js";
