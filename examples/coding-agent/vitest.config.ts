import { defineProject } from "vitest/config";
import { workspaceAlias } from "../../vitest.shared.js";

export default defineProject({
  resolve: { alias: workspaceAlias },
  test: {
    name: "coding-agent",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
  },
});
