import type { ModelInfo } from "@heddle/shared";
import type { CatalogEntry } from "./entry.js";
import { CATALOG } from "./models.generated.js";

export { costOfUsage } from "./cost.js";
export type { CatalogEntry } from "./entry.js";

/** Which catalog section serves a provider: the vendor's own providers only (a preset's models are its own). */
const SECTION_OF_PROVIDER: Record<string, CatalogEntry["vendor"]> = {
  anthropic: "anthropic",
  openai: "openai",
  "openai-chat": "openai",
  gemini: "gemini",
};

function toInfo(provider: string, entry: CatalogEntry): ModelInfo {
  const info: ModelInfo = {
    provider,
    id: entry.id,
    contextWindow: entry.contextWindow,
    maxOutputTokens: entry.maxOutputTokens,
    supports: { ...entry.supports },
  };
  if (entry.pricing) info.pricing = { ...entry.pricing };
  return info;
}

/** The catalog's models for a provider (empty for providers without a vendor section). */
export function catalogModels(provider: string): ModelInfo[] {
  const vendor = SECTION_OF_PROVIDER[provider];
  if (!vendor) return [];
  return CATALOG.filter((entry) => entry.vendor === vendor).map((entry) => toInfo(provider, entry));
}

/** One catalog model, or undefined. */
export function catalogModel(provider: string, modelId: string): ModelInfo | undefined {
  const vendor = SECTION_OF_PROVIDER[provider];
  if (!vendor) return undefined;
  const entry = CATALOG.find((candidate) => candidate.vendor === vendor && candidate.id === modelId);
  return entry && toInfo(provider, entry);
}
