import { defineProject } from "vitest/config";
import { workspaceAlias } from "../../vitest.shared.js";

export default defineProject({
  resolve: { alias: workspaceAlias },
  test: {
    name: "shared",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
  },
});
