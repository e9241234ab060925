import type { CatalogEntry } from "../../src/catalog/entry.js";

/** Where the generator writes the catalog. */
export declare const OUTPUT_PATH: string;
/** The chat model ids each pinned vendor client names in its model-id types (ids matching `nonChat` left out). */
export declare function clientModelIds(nonChat: RegExp): Record<CatalogEntry["vendor"], string[]>;
/** The catalog rows in listing order, datasets merged with the overrides (read from overrides.json by default). */
export declare function buildCatalog(overrides?: unknown): {
  rows: CatalogEntry[];
  versions: { prices: string; zoo: string };
  asOf: string;
  /** Corrections that no longer change anything (the datasets agree now). */
  notes: string[];
};
/** The generated module's text, as `catalog:generate` writes it. */
export declare function renderCatalog(overrides?: unknown): string;
