// Filled by the safety work; re-exported from src/index.ts.
export {};
