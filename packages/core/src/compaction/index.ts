// Filled by the compaction work; re-exported from src/index.ts.
export {};
