import { describe, expect, it } from "vitest";
import { priceUsage, usageCostUsd } from "./pricing.js";
import type { AgentUsage, ModelPricing } from "./types/index.js";

const sonnet: ModelPricing = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

describe("usageCostUsd", () => {
  it("charges input, output, cache reads and cache writes each at their own rate, per million tokens", () => {
    const cost = usageCostUsd(
      { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 2_000_000, cacheWriteTokens: 400_000 },
      sonnet,
    );
    expect(cost).toBeCloseTo(3 + 1.5 + 0.6 + 1.5, 10);
    expect(usageCostUsd({ inputTokens: 1 }, sonnet)).toBeCloseTo(0.000003, 12);
  });

  it("charges cache tokens at the input rate when the pricing has no cache rate", () => {
    expect(usageCostUsd({ cacheReadTokens: 500_000 }, { input: 2, output: 8 })).toBeCloseTo(1, 10);
    expect(usageCostUsd({ cacheWriteTokens: 250_000 }, { input: 2, output: 8 })).toBeCloseTo(0.5, 10);
  });

  it("does not charge reasoning tokens twice (they are inside outputTokens)", () => {
    expect(usageCostUsd({ outputTokens: 1_000_000, reasoningTokens: 800_000 }, sonnet)).toBeCloseTo(15, 10);
  });

  it("is 0 without pricing and for a zero or empty usage", () => {
    expect(usageCostUsd({ inputTokens: 10, outputTokens: 10 }, undefined)).toBe(0);
    expect(usageCostUsd({}, sonnet)).toBe(0);
    expect(usageCostUsd({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, sonnet)).toBe(0);
  });

  it("never returns NaN: invalid counts count as zero, invalid rates as missing", () => {
    const garbage = {
      inputTokens: Number.NaN,
      outputTokens: "lots",
      cacheReadTokens: -5,
      cacheWriteTokens: Number.POSITIVE_INFINITY,
    } as unknown as Partial<AgentUsage>;
    expect(usageCostUsd(garbage, sonnet)).toBe(0);
    expect(usageCostUsd({ inputTokens: 1_000_000, outputTokens: Number.NaN }, sonnet)).toBeCloseTo(3, 10);
    // A broken cache rate falls back to the input rate; a broken output rate charges nothing.
    const broken = { input: 2, output: Number.NaN, cacheRead: -1 } as ModelPricing;
    const cost = usageCostUsd({ outputTokens: 1_000_000, cacheReadTokens: 1_000_000 }, broken);
    expect(cost).toBeCloseTo(2, 10);
    expect(usageCostUsd({ inputTokens: 1_000_000 }, { input: Number.NaN, output: 1 })).toBe(0);
  });
});

describe("priceUsage", () => {
  it("fills every field and prices the usage when it reports no cost", () => {
    expect(priceUsage({ inputTokens: 1_000_000, cacheReadTokens: 1_000_000 }, sonnet)).toEqual({
      inputTokens: 1_000_000,
      outputTokens: 0,
      cacheReadTokens: 1_000_000,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      costUsd: expect.closeTo(3.3, 10),
    });
  });

  it("keeps a cost the usage reports (a provider that bills itself), even 0", () => {
    expect(priceUsage({ inputTokens: 1_000_000, costUsd: 0.42 }, sonnet).costUsd).toBe(0.42);
    expect(priceUsage({ inputTokens: 1_000_000, costUsd: 0 }, sonnet).costUsd).toBe(0);
  });

  it("prices from the tokens when the reported cost is not a number >= 0", () => {
    const usage = { inputTokens: 1_000_000, costUsd: Number.NaN };
    expect(priceUsage(usage, sonnet).costUsd).toBeCloseTo(3, 10);
    expect(priceUsage({ inputTokens: Number.NaN, costUsd: -1 }, sonnet)).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      costUsd: 0,
    });
  });

  it("is cost 0 without pricing, and does not change its input", () => {
    const usage = { inputTokens: 5, outputTokens: 7 };
    expect(priceUsage(usage, undefined).costUsd).toBe(0);
    expect(usage).toEqual({ inputTokens: 5, outputTokens: 7 });
  });
});
