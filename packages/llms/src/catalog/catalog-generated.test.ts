import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildCatalog, renderCatalog } from "../../scripts/catalog/generate.mjs";
import { createGateway } from "../gateway.js";
import before from "./catalog-ids-before.json" with { type: "json" };
import { catalogModel, catalogModels } from "./index.js";
import { CATALOG } from "./models.generated.js";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const PROVIDERS = ["anthropic", "openai", "openai-chat", "gemini"] as const;

describe("generated catalog", () => {
  it("is what the generator makes from the pinned datasets and overrides.json (run catalog:generate)", () => {
    const committed = readFileSync(new URL("./models.generated.ts", import.meta.url), "utf8");
    expect(
      renderCatalog() === committed,
      "models.generated.ts is stale: pnpm --filter @heddle/llms catalog:generate",
    ).toBe(true);
  });

  it("keeps only overrides that still correct something, each with a source and known fields", () => {
    const overrides = JSON.parse(
      readFileSync(new URL("../../scripts/catalog/overrides.json", import.meta.url), "utf8"),
    );
    expect(buildCatalog(overrides).notes).toEqual([]);
    const row = { vendor: "openai", ids: ["gpt-4o"], source: "a vendor page" };
    const withRow = (extra: object) => ({ ...overrides, models: [...overrides.models, { ...row, ...extra }] });
    expect(buildCatalog(withRow({ set: { maxOutputTokens: 16_384 } })).notes).toEqual([
      "override for openai/gpt-4o changes nothing: the datasets agree now",
    ]);
    expect(() => buildCatalog(withRow({ set: { maxOutput: 1 } }))).toThrow(/unknown fields: maxOutput/);
    expect(() => buildCatalog(withRow({ set: { maxOutputTokens: 1 }, source: " " }))).toThrow(/no source/);
    expect(() => buildCatalog(withRow({ ids: ["gpt-nonexistent"], set: { maxOutputTokens: 1 } }))).toThrow(
      /does not list/,
    );
    const corrected = buildCatalog(withRow({ set: { maxOutputTokens: 4_096 } })).rows.find((r) => r.id === "gpt-4o")!;
    expect(corrected.maxOutputTokens).toBe(4_096);
    expect(corrected.sources.limits).toContain("maxOutputTokens: override: a vendor page");
  });

  it("still serves every id the hand-kept catalog served, and keeps every price it had", () => {
    const gateway = createGateway({ env: {} });
    for (const provider of PROVIDERS) {
      const { priced, unpriced } = before[provider];
      expect(priced.length + unpriced.length, provider).toBeGreaterThan(10);
      const listed = new Set(gateway.listModels(provider).map((model) => model.id));
      for (const id of [...priced, ...unpriced]) {
        expect(listed.has(id), `${provider}/${id} listed`).toBe(true);
        expect(gateway.getModelInfo(provider, id)).toMatchObject({ provider, id });
      }
      for (const id of priced) expect(catalogModel(provider, id)?.pricing, `${provider}/${id} priced`).toBeDefined();
    }
  });

  it("prices most ids the hand-kept catalog left unpriced, and takes limits and capabilities from the datasets", () => {
    // openai-chat serves the OpenAI section again: count each vendor's ids once.
    const vendors = ["anthropic", "openai", "gemini"] as const;
    const unpriced = vendors.flatMap((provider) => before[provider].unpriced.map((id: string) => [provider, id]));
    const nowPriced = unpriced.filter(([provider, id]) => catalogModel(provider!, id!)?.pricing);
    expect(unpriced).toHaveLength(74);
    expect(nowPriced.length).toBeGreaterThan(unpriced.length / 2);
    const examples = [
      ["gemini", "gemini-2.5-flash"],
      ["gemini", "gemini-2.5-flash-lite"],
      ["gemini", "gemini-2.0-flash"],
      ["openai", "o3-mini"],
      ["openai", "o1-mini"],
      ["openai", "gpt-4-turbo"],
      ["openai", "gpt-3.5-turbo"],
    ];
    for (const example of examples) expect(nowPriced, example.join("/")).toContainEqual(example);
    expect(catalogModel("openai", "o1")).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 100_000 });
    expect(catalogModel("openai", "gpt-4o")?.maxOutputTokens).toBe(16_384);
    expect(catalogModel("gemini", "gemini-3.1-pro-preview")?.contextWindow).toBe(1_048_576);
    for (const id of ["o1-mini", "o1-preview", "o3-mini"])
      expect(catalogModel("openai", id)?.supports.images, id).toBe(false);
    for (const id of ["o3-deep-research", "o4-mini-deep-research"])
      expect(catalogModel("openai", id)?.supports, id).toMatchObject({ reasoning: true, tools: false });
    expect(catalogModel("openai", "gpt-5")?.pricing?.cacheRead).toBeGreaterThan(0);
    expect(catalogModel("gemini", "gemini-2.5-pro")?.pricing?.cacheRead).toBeGreaterThan(0);
  });

  it("keeps the first model of each vendor (heddle-code's default) and serves presets nothing", () => {
    for (const provider of PROVIDERS) expect(catalogModels(provider)[0]?.id, provider).toBe(before[provider].priced[0]);
    for (const preset of ["groq", "ollama", "openrouter", "deepseek", "openai-compatible"])
      expect(catalogModels(preset), preset).toEqual([]);
  });

  it("prices every model that the docs, READMEs and examples name", () => {
    const named = namedModelIds();
    // The scan must find the models the docs are known to use, or it proves nothing.
    for (const id of ["claude-sonnet-4-6", "gpt-4o", "gpt-5", "gemini-2.5-flash"]) expect(named.has(id), id).toBe(true);
    const unpriced = [...named.entries()]
      .filter(([id]) => !CATALOG.some((entry) => entry.id === id && entry.pricing))
      .map(([id, files]) => `${id} (${[...files].join(", ")})`);
    expect(unpriced).toEqual([]);
  });
});

const MODEL_ID =
  /\b(claude-[a-z]+-[0-9][a-z0-9.-]*[a-z0-9]|gpt-[0-9](?:[a-z0-9.-]*[a-z0-9])?|gemini-[0-9](?:[a-z0-9.-]*[a-z0-9])?|o[134](?:-mini|-pro)?)\b/g;
const SCANNED = /\.(md|ts|tsx|mts|js|mjs|html|json)$/;
const SKIPPED_DIRS = new Set(["node_modules", "dist", ".turbo", "fixtures", "coverage"]);

/** Model ids named in docs/, the READMEs and examples/, each with the files that name it. */
function namedModelIds(): Map<string, Set<string>> {
  const files = [
    ...walk(join(repoRoot, "docs")),
    ...walk(join(repoRoot, "examples")),
    join(repoRoot, "README.md"),
    ...readdirSync(join(repoRoot, "packages")).map((name) => join(repoRoot, "packages", name, "README.md")),
  ];
  const named = new Map<string, Set<string>>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const match of text.matchAll(MODEL_ID)) {
      const id = match[1]!;
      if (!named.has(id)) named.set(id, new Set());
      named.get(id)!.add(relative(repoRoot, file));
    }
  }
  return named;
}

function walk(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...walk(path));
    else if (SCANNED.test(name)) found.push(path);
  }
  return found;
}
