// Filled by the plugins work; re-exported from src/index.ts.
export {};
