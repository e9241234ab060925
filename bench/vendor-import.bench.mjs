// What importing a vendor client costs a fresh process: the package itself (from bench/node_modules, as the raw
// client's user has it) against the one-file bundle @heddle/llms ships (dist/vendor/, docs/llms.md, "Bundled vendor
// clients"). Each round starts one `node` per target, in alternating order, and each child reports its own CPU
// (user + system) after the import; a child importing only `node:os` is the bare process. Reported: the median
// (min-max) CPU per target, and the bundle's import cost above the bare process as a ratio of the package's.
// Goal: each bundle at most 0.5x its package's import. Imports the BUILT packages: run `pnpm build` first.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROUNDS = Number(process.argv.find((arg) => arg.startsWith("--rounds="))?.slice(9) ?? 10);
const GOAL = 0.5;
const vendor = (file) => fileURLToPath(new URL(`../packages/llms/dist/vendor/${file}`, import.meta.url));
const TARGETS = {
  bare: "node:os",
  "@anthropic-ai/sdk": "@anthropic-ai/sdk",
  "anthropic.node.js": vendor("anthropic.node.js"),
  openai: "openai",
  "openai.node.js": vendor("openai.node.js"),
};
const PAIRS = [
  ["@anthropic-ai/sdk", "anthropic.node.js"],
  ["openai", "openai.node.js"],
];

function cpuOf(specifier) {
  const script = `await import(${JSON.stringify(specifier)}); const { user, system } = process.cpuUsage(); console.log((user + system) / 1000);`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL(".", import.meta.url)),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`import ${specifier} failed: ${run.stderr}`);
  return Number(run.stdout.trim());
}

const samples = Object.fromEntries(Object.keys(TARGETS).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  const names = Object.keys(TARGETS);
  for (const name of round % 2 === 0 ? names : names.reverse()) samples[name].push(cpuOf(TARGETS[name]));
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
console.log(`vendor import: ${ROUNDS} rounds, CPU ms per fresh process, median (min-max)`);
for (const [name, values] of Object.entries(samples))
  console.log(
    `  ${name.padEnd(20)} ${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`,
  );
const bare = median(samples.bare);
let missed = false;
for (const [pkg, bundle] of PAIRS) {
  const ratio = (median(samples[bundle]) - bare) / (median(samples[pkg]) - bare);
  console.log(`  ${bundle} / ${pkg}, above the bare process: ${ratio.toFixed(2)}x (goal <= ${GOAL})`);
  if (ratio > GOAL) missed = true;
}
console.log(missed ? "vendor import: a goal was missed" : "vendor import: goals met");
process.exitCode = missed ? 1 : 0;
