import type { ModelPricing } from "@heddle/shared";

/**
 * One model of the catalog (`models.generated.ts`, generated from maintained datasets; see
 * `scripts/catalog/generate.mjs`). Limits in tokens, prices in USD per million tokens. `pricing` is absent where no
 * source has one (the gateway then reports cost 0); each row's `sources` say where its numbers came from, and
 * "assumed" marks the gateway's unknown-model defaults rather than a vendor figure. Cache writes are priced at the
 * 5-minute (default) rate.
 */
export interface CatalogEntry {
  vendor: "anthropic" | "openai" | "gemini";
  id: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** The base tier: what `costOfUsage` charges. */
  pricing?: ModelPricing;
  /**
   * Higher rates that apply to a whole request once its prompt is above `above` input tokens, as the dataset lists
   * them. Noted for reference; cost uses the base `pricing`, so such a request costs more than reported.
   */
  longContextPricing?: { above: number; pricing: ModelPricing }[];
  supports: { tools: boolean; reasoning: boolean; images: boolean };
  sources: { pricing?: string; limits?: string; supports?: string };
}
