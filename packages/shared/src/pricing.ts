import type { AgentUsage, ModelPricing } from "./types/index.js";
import { addUsage, emptyUsage } from "./usage.js";

const PER_TOKEN = 1 / 1_000_000;

/**
 * USD cost of a usage at a model's prices (USD per million tokens). Plain input, output, cache reads and cache
 * writes are each charged at their own rate; cache tokens at the input rate when the pricing has no cache rate.
 * Reasoning tokens are inside `outputTokens` and are not charged again. 0 without pricing. Never `NaN`: a token
 * count that is not a finite number >= 0 counts as zero, and so does a rate that is not (a cache rate then falls
 * back to the input rate).
 */
export function usageCostUsd(usage: Partial<AgentUsage>, pricing: ModelPricing | undefined): number {
  if (!pricing) return 0;
  const input = rate(pricing.input) ?? 0;
  const cost =
    count(usage.inputTokens) * input +
    count(usage.outputTokens) * (rate(pricing.output) ?? 0) +
    count(usage.cacheReadTokens) * (rate(pricing.cacheRead) ?? input) +
    count(usage.cacheWriteTokens) * (rate(pricing.cacheWrite) ?? input);
  return cost * PER_TOKEN;
}

/**
 * A response's usage with every field set (invalid counts as zero) and its cost: the `costUsd` the usage reports
 * when that is a finite number >= 0 (a provider that bills itself), otherwise `usageCostUsd(usage, pricing)`.
 */
export function priceUsage(usage: Partial<AgentUsage>, pricing: ModelPricing | undefined): AgentUsage {
  const priced = addUsage(emptyUsage(), usage);
  if (!isCount(usage.costUsd)) priced.costUsd = usageCostUsd(priced, pricing);
  return priced;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function count(value: unknown): number {
  return isCount(value) ? value : 0;
}

function rate(value: unknown): number | undefined {
  return isCount(value) ? value : undefined;
}
