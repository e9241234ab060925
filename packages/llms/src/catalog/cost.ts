import type { AgentUsage, ModelInfo } from "@heddle/shared";

const PER_TOKEN = 1 / 1_000_000;

/**
 * USD cost of one response's usage. Cache reads and writes are priced apart from plain input (at the input rate
 * when the catalog has no cache price); reasoning tokens are already inside `outputTokens`. 0 without prices.
 */
export function costOfUsage(info: Pick<ModelInfo, "pricing"> | undefined, usage: Partial<AgentUsage>): number {
  const pricing = info?.pricing;
  if (!pricing) return 0;
  const cost =
    (usage.inputTokens ?? 0) * pricing.input +
    (usage.outputTokens ?? 0) * pricing.output +
    (usage.cacheReadTokens ?? 0) * (pricing.cacheRead ?? pricing.input) +
    (usage.cacheWriteTokens ?? 0) * (pricing.cacheWrite ?? pricing.input);
  return cost * PER_TOKEN;
}
