// Filled by the sessions work; re-exported from src/index.ts.
export {};
