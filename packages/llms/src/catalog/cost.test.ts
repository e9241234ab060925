import { usageCostUsd } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { costOfUsage } from "./cost.js";

const info = { pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };

describe("costOfUsage", () => {
  it("prices input, output, cache reads and cache writes each at their own rate", () => {
    const cost = costOfUsage(info, {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheReadTokens: 2_000_000,
      cacheWriteTokens: 400_000,
    });
    expect(cost).toBeCloseTo(3 + 1.5 + 0.6 + 1.5, 10);
  });

  it("prices cache tokens at the input rate when the catalog has no cache price", () => {
    expect(costOfUsage({ pricing: { input: 2, output: 8 } }, { cacheReadTokens: 500_000 })).toBeCloseTo(1, 10);
  });

  it("does not charge reasoning tokens twice (they are inside outputTokens)", () => {
    expect(costOfUsage(info, { outputTokens: 1_000_000, reasoningTokens: 800_000 })).toBeCloseTo(15, 10);
  });

  it("is 0 without prices", () => {
    expect(costOfUsage(undefined, { inputTokens: 10 })).toBe(0);
    expect(costOfUsage({}, { inputTokens: 10 })).toBe(0);
  });
});

describe("costOfUsage over @heddle/shared's arithmetic", () => {
  it("prices a catalog model like usageCostUsd does, and never yields NaN", () => {
    const usage = { inputTokens: 1_234, outputTokens: 567, cacheReadTokens: 8_900, cacheWriteTokens: 12 };
    expect(costOfUsage(info, usage)).toBe(usageCostUsd(usage, info.pricing));
    expect(costOfUsage(info, { inputTokens: Number.NaN, outputTokens: 1_000_000 })).toBeCloseTo(15, 10);
  });
});
