// Filled by the hooks work; re-exported from src/index.ts.
export {};
