import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  platform: "neutral",
  // zod/mini is tree-shaken into the bundle: the config check needs a few of its schemas, and loading the whole
  // package would cost more than importing the rest of Heddle (the cold-start goal in DESIGN.md).
  noExternal: ["zod"],
});
