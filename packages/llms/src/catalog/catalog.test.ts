import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogModel, catalogModels } from "./index.js";
import { CATALOG } from "./models.js";

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

  it("serves the researched vendor figures, and no guessed price for models without a source", () => {
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
    expect(catalogModel("anthropic", "claude-mythos-preview")?.pricing).toBeUndefined();
    expect(catalogModel("gemini", "gemini-2.5-flash")?.pricing).toBeUndefined();
  });

  it("serves the OpenAI section to both OpenAI providers and nothing to presets", () => {
    expect(catalogModel("openai", "gpt-4o")?.pricing).toEqual({ input: 2.5, output: 10, cacheRead: 1.25 });
    expect(catalogModel("openai-chat", "gpt-4o")?.provider).toBe("openai-chat");
    expect(catalogModel("groq", "gpt-4o")).toBeUndefined();
    expect(catalogModels("anthropic").every((model) => model.id.startsWith("claude-"))).toBe(true);
  });
});
