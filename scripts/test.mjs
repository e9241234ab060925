#!/usr/bin/env node
// Runs every test once and ends with the plain line CI reads: "N passed, N failed, N skipped".
// Vitest's own summary is not a line CI understands, so the JSON report is read and summarised here.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runPasses, summarizeReport } from "./test-summary.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const reportPath = join(root, ".ci", "vitest.json");
mkdirSync(dirname(reportPath), { recursive: true });
rmSync(reportPath, { force: true });

const vitest = join(root, "node_modules", ".bin", "vitest");
const run = spawnSync(
  vitest,
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportPath}`, ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } },
);

let counts = { passed: 0, failed: 0, skipped: 0 };
try {
  counts = summarizeReport(JSON.parse(readFileSync(reportPath, "utf8")));
} catch (error) {
  console.error(`test: could not read the vitest report (${error.message})`);
  counts.failed += 1;
}
const { passed, failed, skipped } = counts;
const ci = process.env.CI === "true" || process.env.CI === "1";
if (ci && skipped > 0) console.error(`test: ${skipped} test(s) skipped under CI=true: a skipped test fails CI`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (run.status !== 0 || !runPasses(counts, { ci })) process.exit(run.status || 1);
