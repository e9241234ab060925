#!/usr/bin/env node
// Runs every benchmark in bench/ (files named *.bench.mjs), one process each, in name order.
// Benchmarks import the built packages and report ratios against a baseline measured in the same run.
// Words pick benchmarks by file name; flags (`--quick`, `--profile`, ...) are passed on to each one run.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("../bench/", import.meta.url));
const only = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const flags = process.argv.slice(2).filter((arg) => arg.startsWith("--"));
const files = readdirSync(dir)
  .filter((name) => name.endsWith(".bench.mjs"))
  .filter((name) => only.length === 0 || only.some((word) => name.includes(word)))
  .sort();
if (files.length === 0) console.log("bench: no benchmarks matched");
let failed = 0;
for (const file of files) {
  console.log(`\n== ${file}`);
  const run = spawnSync(process.execPath, ["--expose-gc", join(dir, file), ...flags], { stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
