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
      expect(entry.contextWindow).toBeGreaterThan(entry.maxOutputTokens);
    }
  });

  it("serves the OpenAI section to both OpenAI providers and nothing to presets", () => {
    expect(catalogModel("openai", "gpt-4o")?.pricing).toEqual({ input: 2.5, output: 10, cacheRead: 1.25 });
    expect(catalogModel("openai-chat", "gpt-4o")?.provider).toBe("openai-chat");
    expect(catalogModel("groq", "gpt-4o")).toBeUndefined();
    expect(catalogModels("anthropic").every((model) => model.id.startsWith("claude-"))).toBe(true);
  });
});
