// Filled by the checkpoints work; re-exported from src/index.ts.
export {};
