#!/usr/bin/env node
// Generates packages/llms/src/catalog/models.generated.ts from two maintained datasets (devDependencies, exact
// pinned) and the hand corrections in overrides.json:
//   - @pydantic/genai-prices: prices (input, output, cache read, cache write; long-context tiers; dated changes),
//     context windows, and its own id-matching rules (dated snapshots and variants map to their model's price);
//   - llm-zoo: max output tokens and capabilities (tools, reasoning, images), context windows it alone has.
// Which ids are listed: every chat model id named by the pinned vendor clients' model-id types, plus the extra
// ids in overrides.json. The package never loads a dataset at run time: the output is a plain data module.
//
// Usage: `pnpm --filter @heddle/llms catalog:generate` (writes the file), or `--check` (exits 1 when stale).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { calcPrice } from "@pydantic/genai-prices";
import { MODEL_CONFIGS } from "llm-zoo";

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, "..", "..");
export const OUTPUT_PATH = join(packageDir, "src", "catalog", "models.generated.ts");
const require = createRequire(join(packageDir, "package.json"));

/** The catalog's vendor sections, each with its name in the two datasets and the client that names its ids. */
const VENDORS = [
  { vendor: "anthropic", prices: "anthropic", zoo: "anthropic" },
  { vendor: "openai", prices: "openai", zoo: "openai" },
  { vendor: "gemini", prices: "google", zoo: "google" },
];

/** The ids of the vendors' chat models, as the pinned vendor clients declare them in their model-id types. */
export function clientModelIds(nonChat) {
  const root = (name, marker) => {
    let dir = dirname(require.resolve(name));
    while (!dir.endsWith(marker)) dir = dirname(dir);
    return dir;
  };
  const idsOf = (file, declaration) => {
    const line = readFileSync(file, "utf8")
      .split("\n")
      .find((candidate) => declaration.test(candidate));
    if (!line) throw new Error(`catalog generator: no ${declaration} in ${file}`);
    return [...line.matchAll(/['"]([a-z0-9][a-z0-9.-]*)['"]/g)].map((match) => match[1]);
  };
  const openai = root("openai", "/openai");
  const anthropic = root("@anthropic-ai/sdk", "/sdk");
  const genai = root("@google/genai", "/genai");
  return {
    anthropic: idsOf(join(anthropic, "resources/messages/messages.d.ts"), /^export type Model =/),
    openai: [
      ...idsOf(join(openai, "resources/shared.d.ts"), /^export type ChatModel =/),
      ...idsOf(join(openai, "resources/shared.d.ts"), /^export type ResponsesModel =/),
    ],
    gemini: idsOf(join(genai, "dist/genai.d.ts"), /^declare type Model_2 =/).filter((id) => !nonChat.test(id)),
  };
}

const versionOf = (name) => {
  let dir = dirname(require.resolve(name));
  while (!dir.endsWith(name.split("/").pop())) dir = dirname(dir);
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
};

/** A price field of genai-prices: a number, or `{base, tiers: [{start, price}]}`. */
const baseOf = (value) => (typeof value === "number" ? value : value?.base);

function pricingOf(prices, pick = baseOf) {
  const input = pick(prices.input_mtok);
  const output = pick(prices.output_mtok);
  if (typeof input !== "number" || typeof output !== "number") return undefined;
  const pricing = { input, output };
  const cacheRead = pick(prices.cache_read_mtok);
  const cacheWrite = pick(prices.cache_write_mtok);
  if (typeof cacheRead === "number") pricing.cacheRead = cacheRead;
  if (typeof cacheWrite === "number") pricing.cacheWrite = cacheWrite;
  return pricing;
}

/** Higher rates for long prompts, one entry per tier threshold (fields without tiers keep their base rate). */
function longContextOf(prices) {
  const starts = new Set();
  for (const key of ["input_mtok", "output_mtok", "cache_read_mtok", "cache_write_mtok"])
    for (const tier of prices[key]?.tiers ?? []) starts.add(tier.start);
  return [...starts]
    .sort((a, b) => a - b)
    .map((above) => ({
      above,
      pricing: pricingOf(prices, (value) => {
        if (typeof value === "number" || value === undefined) return value;
        const reached = value.tiers.filter((tier) => tier.start <= above);
        return reached.length ? reached[reached.length - 1].price : value.base;
      }),
    }));
}

const money = (pricing) => `$${pricing.input}/$${pricing.output}`;

/** Price changes the dataset dates after `asOf` (promotions that end, announced cuts): noted, not applied. */
function laterChanges(model, asOf) {
  if (!Array.isArray(model.prices)) return [];
  return model.prices
    .filter((entry) => entry.constraint?.type === "start_date" && entry.constraint.start_date > asOf)
    .map((entry) => `from ${entry.constraint.start_date}: ${money(pricingOf(entry.prices))}`);
}

function zooModel(zooProvider, ...ids) {
  const models = Object.values(MODEL_CONFIGS).filter((model) => model.provider === zooProvider);
  for (const id of ids) {
    const found = models.find((model) => model.fullName === id) ?? models.find((model) => model.shortName === id);
    if (found) return found;
  }
  return undefined;
}

/** The catalog rows, in listing order, before formatting. */
export function buildCatalog(overrides = readOverrides()) {
  const versions = { prices: versionOf("@pydantic/genai-prices"), zoo: versionOf("llm-zoo") };
  const asOf = overrides.pricesAsOf;
  const nonChat = new RegExp(overrides.nonChatIds);
  const fromClients = clientModelIds(nonChat);
  const rows = [];
  for (const { vendor, prices, zoo } of VENDORS) {
    const ids = [
      ...new Set([
        ...(overrides.listFirst[vendor] ?? []),
        ...fromClients[vendor],
        ...(overrides.extraIds[vendor] ?? []),
      ]),
    ];
    for (const id of ids) rows.push(buildRow({ vendor, prices, zoo, id, asOf }));
  }
  const notes = applyOverrides(rows, overrides.models);
  for (const row of rows) fillAssumed(row, overrides.assumed);
  return { rows, versions, asOf, notes };
}

/** What neither dataset nor an override gives: the gateway's unknown-model defaults, marked "assumed". */
function fillAssumed(row, assumed) {
  const limits = row.sources.limits ? [row.sources.limits] : [];
  if (row.contextWindow === undefined) {
    row.contextWindow = assumed.contextWindow;
    limits.push("window: assumed");
  }
  if (row.maxOutputTokens === undefined) {
    row.maxOutputTokens = Math.min(assumed.maxOutputTokens, row.contextWindow);
    limits.push("max output: assumed");
  }
  row.sources.limits = limits.join("; ");
  if (!row.supports) {
    row.supports = { ...assumed.supports };
    row.sources.supports = "assumed";
  }
}

function buildRow({ vendor, prices, zoo, id, asOf }) {
  const row = { vendor, id, supports: undefined, sources: {} };
  const priced = calcPrice({ input_tokens: 0, output_tokens: 0 }, id, {
    providerId: prices,
    timestamp: new Date(`${asOf}T00:00:00Z`),
  });
  const pricesRef = priced && `genai-prices ${prices}/${priced.model.id}`;
  if (priced) {
    const pricing = pricingOf(priced.model_price);
    if (pricing) {
      row.pricing = pricing;
      const tiers = longContextOf(priced.model_price);
      if (tiers.length) row.longContextPricing = tiers;
      const later = laterChanges(priced.model, asOf);
      row.sources.pricing = [pricesRef, ...later].join("; ");
    }
  }
  const zooRow = zooModel(zoo, id, ...(priced ? [priced.model.id] : []));
  const zooRef = zooRow && `llm-zoo ${zooRow.name}`;
  const limits = [];
  if (priced?.model.context_window) {
    row.contextWindow = priced.model.context_window;
    limits.push(`window: ${pricesRef}`);
  } else if (zooRow?.contextWindow) {
    row.contextWindow = zooRow.contextWindow;
    limits.push(`window: ${zooRef}`);
  }
  if (zooRow?.maxOutputTokens) {
    row.maxOutputTokens = zooRow.maxOutputTokens;
    limits.push(`max output: ${zooRef}`);
  }
  if (zooRow) {
    const caps = zooRow.capabilities;
    row.supports = {
      tools: caps.supportsFunctionCalling === true,
      reasoning: caps.supportsReasoning === true,
      images: caps.supportsVision === true,
    };
    row.sources.supports = zooRef;
  }
  row.sources.limits = limits.join("; ");
  return row;
}

function readOverrides() {
  return JSON.parse(readFileSync(join(here, "overrides.json"), "utf8"));
}

const OVERRIDABLE = new Set(["pricing", "contextWindow", "maxOutputTokens", "supports"]);

/**
 * Hand corrections win, field by field; the row's source notes say which fields came from which correction.
 * Returns notes on corrections that no longer change anything (the datasets caught up: remove them).
 */
function applyOverrides(rows, corrections) {
  const notes = [];
  for (const correction of corrections) {
    const set = correction.set;
    const unknown = Object.keys(set).filter((field) => !OVERRIDABLE.has(field));
    if (unknown.length) throw new Error(`catalog override for ${correction.ids} sets unknown fields: ${unknown}`);
    if (!correction.source?.trim()) throw new Error(`catalog override for ${correction.ids} has no source`);
    for (const id of correction.ids) {
      const row = rows.find((candidate) => candidate.vendor === correction.vendor && candidate.id === id);
      if (!row) throw new Error(`catalog override names ${correction.vendor}/${id}, which the catalog does not list`);
      if (Object.keys(set).every((field) => JSON.stringify(row[field]) === JSON.stringify(set[field] ?? undefined)))
        notes.push(`override for ${correction.vendor}/${id} changes nothing: the datasets agree now`);
      const note = `override: ${correction.source}`;
      if ("pricing" in set) {
        row.pricing = set.pricing ?? undefined;
        row.longContextPricing = undefined;
        row.sources.pricing = set.pricing ? note : undefined;
      }
      if ("contextWindow" in set || "maxOutputTokens" in set) {
        const kept = row.sources.limits
          .split("; ")
          .filter(
            (part) =>
              part &&
              !(
                ("contextWindow" in set && part.startsWith("window:")) ||
                ("maxOutputTokens" in set && part.startsWith("max output:"))
              ),
          );
        if ("contextWindow" in set) row.contextWindow = set.contextWindow;
        if ("maxOutputTokens" in set) row.maxOutputTokens = set.maxOutputTokens;
        const fields = ["contextWindow", "maxOutputTokens"].filter((field) => field in set).join(", ");
        row.sources.limits = [...kept, `${fields}: ${note}`].join("; ");
      }
      if ("supports" in set) {
        row.supports = { ...set.supports };
        row.sources.supports = note;
      }
    }
  }
  return notes;
}

const FIELD_ORDER = [
  "vendor",
  "id",
  "above",
  "contextWindow",
  "maxOutputTokens",
  "pricing",
  "longContextPricing",
  "limits",
  "supports",
  "sources",
];

/** A JavaScript literal with unquoted keys, in a fixed key order, on one line. */
function literal(value) {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined);
    keys.sort((a, b) => rank(a) - rank(b));
    return `{ ${keys.map((key) => `${key}: ${literal(value[key])}`).join(", ")} }`;
  }
  return JSON.stringify(value);
}
const rank = (key) => {
  const index = FIELD_ORDER.indexOf(key);
  return index === -1 ? FIELD_ORDER.length : index;
};

/** The generated module's text. Pure: the up-to-date test compares it with the committed file. */
export function renderCatalog(overrides) {
  const { rows, versions, asOf } = buildCatalog(overrides);
  return [
    "// GENERATED FILE, do not edit. Regenerate with `pnpm --filter @heddle/llms catalog:generate`",
    `// (packages/llms/scripts/catalog/generate.mjs) from @pydantic/genai-prices ${versions.prices} and llm-zoo ${versions.zoo},`,
    `// prices as of ${asOf}, merged with the hand corrections in packages/llms/scripts/catalog/overrides.json.`,
    'import type { CatalogEntry } from "./entry.js";',
    "",
    `/** ${rows.length} models: one per line, in listing order. */`,
    "// biome-ignore format: generated data, one model per line",
    "export const CATALOG: readonly CatalogEntry[] = [",
    ...rows.map((row) => `  ${literal(row)},`),
    "];",
    "",
  ].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = renderCatalog();
  for (const note of buildCatalog().notes) process.stderr.write(`note: ${note}\n`);
  if (process.argv.includes("--check")) {
    const current = readFileSync(OUTPUT_PATH, "utf8");
    if (current !== text) {
      process.stderr.write(`${OUTPUT_PATH} is stale: run \`pnpm --filter @heddle/llms catalog:generate\`\n`);
      process.exit(1);
    }
  } else {
    writeFileSync(OUTPUT_PATH, text);
    process.stdout.write(`wrote ${OUTPUT_PATH}\n`);
  }
}
