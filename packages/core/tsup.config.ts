import { defineConfig } from "tsup";

/**
 * One entry per subpath of @heddle/core (each a folder with an index.ts); keep in step with package.json "exports".
 */
const SUBPATHS = [
  "sessions",
  "tools",
  "hooks",
  "safety",
  "compaction",
  "guidance",
  "checkpoints",
  "plugins",
  "mcp",
  "teams",
  "host",
  "testing",
];

export default defineConfig({
  entry: {
    index: "src/index.ts",
    ...Object.fromEntries(SUBPATHS.map((name) => [`${name}/index`, `src/${name}/index.ts`])),
  },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
});
