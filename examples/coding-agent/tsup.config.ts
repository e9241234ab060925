import { defineConfig } from "tsup";

// One bundle for the CLI: Heddle's packages and the pure-JS libraries they use (zod, ajv, the MCP SDK, ...) are
// built in, so a start reads a few files instead of ~500 modules. Left as packages, loaded from node_modules:
// the dependencies this package.json lists (better-sqlite3, a native addon; the vendor SDKs and OpenTelemetry,
// which Heddle imports only when a provider or --otel needs them) and the optional session backends pg and
// ioredis. src/cli.ts answers --help and --version before main.ts (the agent) is imported: splitting keeps
// them apart. bench/cli-start.bench.mjs measures the start.
export default defineConfig({
  entry: ["src/cli.ts"],
  format: ["esm"],
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
  splitting: true,
  noExternal: [/^@heddle\//],
  external: ["pg", "ioredis"],
  // The maps point into the bundled libraries by path and line, without a copy of their sources (5 MB more).
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  banner: {
    // Bundled CommonJS code (ajv, ...) calls require(): ES modules have none, so each file makes its own.
    js: [
      "#!/usr/bin/env node",
      'import { createRequire as __heddleCreateRequire } from "node:module";',
      "const require = __heddleCreateRequire(import.meta.url);",
    ].join("\n"),
  },
});
