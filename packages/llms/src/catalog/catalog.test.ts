import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogModel, catalogModels, costOfUsage } from "./index.js";
import { CATALOG } from "./models.generated.js";

const require = createRequire(import.meta.url);
const packageRoot = (name: string, marker: string) => {
  let dir = dirname(require.resolve(name));
  while (!dir.endsWith(marker)) dir = dirname(dir);
  return dir;
};

/** The string literals of a `type X = 'a' | 'b' | (string & {})` declaration in a .d.ts file. */
function modelIds(file: string, declaration: RegExp): string[] {
  const text = readFileSync(file, "utf8");
  const line = text.split("\n").find((candidate) => declaration.test(candidate));
  if (!line) throw new Error(`no ${declaration} in ${file}`);
  return [...line.matchAll(/['"]([a-z0-9][a-z0-9.-]*)['"]/g)].map((match) => match[1]!);
}

const NON_CHAT = /(image|tts|lyria|robotics|live|banana)/;

describe("model catalog", () => {
  it("covers every chat model the pinned vendor clients name", () => {
    const openai = packageRoot("openai", "/openai");
    const anthropic = packageRoot("@anthropic-ai/sdk", "/sdk");
    const genai = packageRoot("@google/genai", "/genai");
    const named = {
      openai: [
        ...modelIds(join(openai, "resources/shared.d.ts"), /^export type ChatModel =/),
        ...modelIds(join(openai, "resources/shared.d.ts"), /^export type ResponsesModel =/),
      ],
      anthropic: modelIds(join(anthropic, "resources/messages/messages.d.ts"), /^export type Model =/),
      gemini: modelIds(join(genai, "dist/genai.d.ts"), /^declare type Model_2 =/).filter((id) => !NON_CHAT.test(id)),
    };
    for (const [vendor, ids] of Object.entries(named)) {
      expect(ids.length, vendor).toBeGreaterThan(5);
      const missing = ids.filter((id) => !CATALOG.some((entry) => entry.vendor === vendor && entry.id === id));
      expect(missing, vendor).toEqual([]);
    }
  });

  it("notes a source for every price and every limit, and lists each model once", () => {
    const seen = new Set<string>();
    for (const entry of CATALOG) {
      const key = `${entry.vendor}/${entry.id}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
      if (entry.pricing) expect(entry.sources.pricing, key).toBeTruthy();
      expect(entry.sources.limits, key).toBeTruthy();
      // Equal is allowed: OpenAI documents gpt-4 with an 8,192 window and 8,192 max output.
      expect(entry.contextWindow, key).toBeGreaterThanOrEqual(entry.maxOutputTokens);
      expect(entry.maxOutputTokens, key).toBeGreaterThan(0);
    }
  });

  it("keeps every price sourced, positive, and cache reads cheaper than fresh input", () => {
    const priced = CATALOG.filter((entry) => entry.pricing);
    expect(priced.length).toBeGreaterThan(50);
    for (const { vendor, id, pricing, sources } of priced) {
      const key = `${vendor}/${id}`;
      expect(sources.pricing?.trim().length ?? 0, key).toBeGreaterThan(10);
      for (const [field, value] of Object.entries(pricing!)) {
        expect(Number.isFinite(value) && value > 0, `${key} ${field}=${value}`).toBe(true);
      }
      if (pricing!.cacheRead !== undefined) expect(pricing!.cacheRead, key).toBeLessThan(pricing!.input);
      if (pricing!.cacheWrite !== undefined) expect(pricing!.cacheWrite, key).toBeGreaterThanOrEqual(pricing!.input);
    }
  });

  it("serves the datasets' figures, the overrides' corrections, and no guessed price", () => {
    expect(catalogModel("openai", "gpt-5-nano")).toMatchObject({
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
      pricing: { input: 0.05, output: 0.4, cacheRead: 0.005 },
    });
    expect(catalogModel("anthropic", "claude-haiku-4-5")?.pricing).toEqual({
      input: 1,
      output: 5,
      cacheRead: 0.1,
      cacheWrite: 1.25,
    });
    // Unpriced in the hand-kept catalog; genai-prices has it.
    expect(catalogModel("gemini", "gemini-2.5-flash")?.pricing).toEqual({ input: 0.3, output: 2.5, cacheRead: 0.03 });
    // A dated snapshot gets its model's price through the dataset's matching rules.
    expect(catalogModel("anthropic", "claude-sonnet-4-5-20250929")?.pricing?.input).toBe(3);
    // genai-prices matches Sonnet 5.5 to Sonnet 5 (cache read $0.20); the override keeps the sourced $0.10.
    expect(catalogModel("anthropic", "claude-sonnet-5-5")?.pricing?.cacheRead).toBe(0.1);
    // llm-zoo calls chatgpt-4o-latest a reasoning model; the Responses family would then send reasoning parameters.
    expect(catalogModel("openai", "chatgpt-4o-latest")?.supports.reasoning).toBe(false);
    expect(catalogModel("anthropic", "claude-mythos-preview")?.pricing).toBeUndefined();
  });

  it("keeps long-context tiers and later price changes as notes, and charges the base tier", () => {
    const gpt54 = CATALOG.find((entry) => entry.id === "gpt-5.4")!;
    expect(gpt54.pricing).toEqual({ input: 2.5, output: 15, cacheRead: 0.25 });
    expect(gpt54.longContextPricing).toEqual([{ above: 271_999, pricing: { input: 5, output: 22.5, cacheRead: 0.5 } }]);
    expect(costOfUsage(catalogModel("openai", "gpt-5.4"), { inputTokens: 1_000_000 })).toBeCloseTo(2.5, 10);
    const flash = CATALOG.find((entry) => entry.id === "gemini-3.8-flash")!;
    expect(flash.pricing).toEqual({ input: 0.75, output: 3.75, cacheRead: 0.075 });
    expect(flash.sources.pricing).toContain("from 2027-01-01: $1.5/$7.5");
  });

  it("serves the OpenAI section to both OpenAI providers and nothing to presets", () => {
    expect(catalogModel("openai", "gpt-4o")?.pricing).toEqual({ input: 2.5, output: 10, cacheRead: 1.25 });
    expect(catalogModel("openai-chat", "gpt-4o")?.provider).toBe("openai-chat");
    expect(catalogModel("groq", "gpt-4o")).toBeUndefined();
    expect(catalogModels("anthropic").every((model) => model.id.startsWith("claude-"))).toBe(true);
  });
});
