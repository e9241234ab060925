#!/usr/bin/env node
// Runs every test once and ends with the plain line CI reads: "N passed, N failed, N skipped".
// Vitest's own summary is not a line CI understands, so the JSON report is read and summarised here.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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

let passed = 0;
let failed = 0;
let skipped = 0;
let suiteFailures = 0;
try {
  const report = JSON.parse(readFileSync(reportPath, "utf8"));
  passed = report.numPassedTests ?? 0;
  failed = report.numFailedTests ?? 0;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A file that fails to load has no tests of its own; count it as a failure so it cannot hide.
  suiteFailures = (report.testResults ?? []).filter(
    (file) => file.status === "failed" && file.assertionResults?.length === 0,
  ).length;
} catch (error) {
  console.error(`test: could not read the vitest report (${error.message})`);
  failed += 1;
}
failed += suiteFailures;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (run.status !== 0 || failed > 0 || passed === 0) process.exit(run.status || 1);
