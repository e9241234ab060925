import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/*.ts", "!src/*.test.ts"],
  format: ["esm"],
  clean: true,
  target: "node20",
  platform: "node",
});
