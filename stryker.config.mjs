// Mutation testing of the modules that carry Heddle's guarantees (docs/reliability.md, "Mutation testing").
// `pnpm mutation` runs it on every module below; `pnpm mutation:changed` only on those changed against main.
// A maintainer script, not part of `pnpm test` or CI: a full run takes tens of minutes on two cores.

import { guaranteeModules } from "./scripts/mutation.mjs";

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  // The tests that exercise these modules, as one flat vitest project (see the file).
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  coverageAnalysis: "perTest",
  mutate: guaranteeModules,
  // Constants evaluated once at import (error messages, tables) would need every test per mutant: skipped.
  ignoreStatic: true,
  // Two test workers: the machine has two cores, and the process-kill tests spend most of their seconds waiting.
  concurrency: 2,
  timeoutMS: 20_000,
  tempDirName: ".stryker-tmp",
  ignorePatterns: ["/examples", "/bench", "/docs", "/reports", "**/dist", "**/.turbo", "/.heddle", "/.ci"],
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  // The project's bar: killed / (killed + survived) >= 85% on the whole set (equivalents are marked in the code).
  thresholds: { high: 90, low: 85, break: null },
  cleanTempDir: "always",
  // Later runs re-test only the mutants whose code or covering tests changed (delete the file for a clean run).
  incremental: true,
  incrementalFile: "reports/mutation/stryker-incremental.json",
};
