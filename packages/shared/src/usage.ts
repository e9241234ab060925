import type { AgentUsage } from "./types/index.js";

/** A usage with every count at zero. */
export function emptyUsage(): AgentUsage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, costUsd: 0 };
}

/**
 * The sum of two usages; missing fields count as zero. Returns a new object. A count that is not a finite number
 * >= 0 (a vendor's `"lots"`, `NaN`, a negative) counts as zero, so a sum is never `NaN` and a budget always trips.
 */
export function addUsage(a: Partial<AgentUsage>, b: Partial<AgentUsage>): AgentUsage {
  return {
    inputTokens: count(a.inputTokens) + count(b.inputTokens),
    outputTokens: count(a.outputTokens) + count(b.outputTokens),
    cacheReadTokens: count(a.cacheReadTokens) + count(b.cacheReadTokens),
    cacheWriteTokens: count(a.cacheWriteTokens) + count(b.cacheWriteTokens),
    reasoningTokens: count(a.reasoningTokens) + count(b.reasoningTokens),
    costUsd: count(a.costUsd) + count(b.costUsd),
  };
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** The prompt's size in tokens: plain input plus cache reads and writes. */
export function promptTokens(usage: Partial<AgentUsage>): number {
  return (usage.inputTokens ?? 0) + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
}
