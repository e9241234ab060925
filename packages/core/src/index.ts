// @heddle/core: one entry; each concern keeps its own barrel.

export * from "./checkpoints/index.js";
export * from "./compaction/index.js";
export * from "./hooks/index.js";
export * from "./mcp/index.js";
export * from "./plugins/index.js";
export * from "./safety/index.js";
export * from "./sessions/index.js";
export * from "./tools/index.js";
