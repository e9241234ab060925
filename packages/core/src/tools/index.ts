// Filled by the tools work; re-exported from src/index.ts.
export {};
