#!/usr/bin/env node
// `pnpm conformance:mcp`: runs the official MCP conformance suite's client scenarios against Heddle's MCP client
// (scripts/conformance/mcp-driver.mjs on packages/core/dist). The suite needs Node 22 (`fs.globSync`): both the
// suite and a Node 22 binary come from npm, pinned, into node_modules/.cache/heddle-mcp-conformance (never global).
// Prints a table of every scenario and fails when a scenario of the recorded pass list
// (scripts/conformance/mcp-pass-list.json) no longer passes. `--update` rewrites the pass list from this run;
// `--scenario <name>` runs one scenario.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const SUITE_VERSION = "0.1.16";
export const NODE_VERSION = "22.23.3";
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cache = join(root, "node_modules", ".cache", "heddle-mcp-conformance");
const passListPath = join(root, "scripts", "conformance", "mcp-pass-list.json");
const driver = join(root, "scripts", "conformance", "mcp-driver.mjs");
const node22 = join(cache, "node_modules", "node", "bin", "node");
const suite = join(cache, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
/** Scenarios run at once: the machine has 2 cores, and the suite's timing checks (sse-retry) need headroom. */
const PARALLEL = 2;
const SCENARIO_TIMEOUT_MS = 90_000;

function installSuite() {
  const manifest = {
    name: "heddle-mcp-conformance-cache",
    private: true,
    dependencies: { "@modelcontextprotocol/conformance": SUITE_VERSION, node: NODE_VERSION },
    // The `node` package's install script fetches the platform binary package: it must run.
    allowScripts: { node: true },
  };
  const manifestPath = join(cache, "package.json");
  const wanted = `${JSON.stringify(manifest, null, 2)}\n`;
  const installed = (pkg) => {
    try {
      return JSON.parse(readFileSync(join(cache, "node_modules", pkg, "package.json"), "utf8")).version;
    } catch {
      return undefined;
    }
  };
  if (
    existsSync(node22) &&
    installed("@modelcontextprotocol/conformance") === SUITE_VERSION &&
    installed("node") === NODE_VERSION &&
    existsSync(manifestPath) &&
    readFileSync(manifestPath, "utf8") === wanted
  ) {
    return;
  }
  mkdirSync(cache, { recursive: true });
  writeFileSync(manifestPath, wanted);
  console.log(`conformance: installing @modelcontextprotocol/conformance@${SUITE_VERSION} and node@${NODE_VERSION}`);
  const npm = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"], {
    cwd: cache,
    stdio: "inherit",
  });
  if (npm.status !== 0 || !existsSync(node22)) throw new Error("conformance: npm install of the suite failed");
}

/** The suite's client scenarios, as `conformance list --client` prints them. */
function listScenarios() {
  const listed = spawnSync(node22, [suite, "list", "--client"], { encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`conformance: listing scenarios failed: ${listed.stderr}`);
  return listed.stdout
    .split("\n")
    .map((line) => /^\s+-\s+(\S+)\s+\[([^\]]*)\]/.exec(line))
    .filter(Boolean)
    .map((match) => ({ name: match[1], versions: match[2] }));
}

/** Runs one scenario; resolves with its outcome and the suite's check counts. */
function runScenario(name, outputDir) {
  return new Promise((resolve) => {
    const child = spawn(
      node22,
      [suite, "client", "--command", `${node22} ${driver}`, "--scenario", name, "-o", outputDir],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } },
    );
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), SCENARIO_TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      const counts = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
      resolve({
        name,
        pass: code === 0,
        checks: counts ? `${counts[1]}/${counts[2]}` : "-",
        failed: counts ? Number(counts[3]) : undefined,
        warnings: counts ? Number(counts[4]) : undefined,
        output,
      });
    });
  });
}

async function main(argv) {
  const update = argv.includes("--update");
  const only = argv.includes("--scenario") ? argv[argv.indexOf("--scenario") + 1] : undefined;
  if (!existsSync(join(root, "packages", "core", "dist", "mcp", "index.js"))) {
    throw new Error("conformance: build @heddle/core first (pnpm build)");
  }
  installSuite();
  const scenarios = listScenarios().filter((scenario) => !only || scenario.name === only);
  if (scenarios.length === 0) throw new Error(`conformance: no client scenario ${only ?? ""}`);
  const outputDir = mkdtempSync(join(tmpdir(), "heddle-mcp-conformance-"));
  const results = [];
  try {
    const queue = [...scenarios];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const result = await runScenario(next.name, outputDir);
          results.push({ ...result, versions: next.versions });
        }
      }),
    );
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
  results.sort((a, b) => scenarios.findIndex((s) => s.name === a.name) - scenarios.findIndex((s) => s.name === b.name));

  const recorded = JSON.parse(readFileSync(passListPath, "utf8"));
  const passList = new Set(recorded.pass);
  const width = Math.max(...results.map((r) => r.name.length));
  console.log(`\nMCP conformance (@modelcontextprotocol/conformance ${SUITE_VERSION}, client scenarios)`);
  console.log(`${"scenario".padEnd(width)}  result  checks  spec`);
  for (const r of results) {
    const mark = r.pass ? "pass" : passList.has(r.name) ? "FAIL (regression)" : "fail";
    console.log(`${r.name.padEnd(width)}  ${mark.padEnd(6)}  ${r.checks.padEnd(6)}  ${r.versions}`);
  }
  const regressions = results.filter((r) => !r.pass && passList.has(r.name));
  const newPasses = results.filter((r) => r.pass && !passList.has(r.name));
  for (const r of regressions) console.log(`\n--- ${r.name} (was passing) ---\n${r.output.slice(-4000)}`);
  if (update && !only) {
    const pass = results.filter((r) => r.pass).map((r) => r.name);
    writeFileSync(passListPath, `${JSON.stringify({ ...recorded, suite: SUITE_VERSION, pass }, null, 2)}\n`);
    console.log(`conformance: wrote ${pass.length} passing scenarios to ${passListPath}`);
  } else if (newPasses.length > 0) {
    console.log(`conformance: now passing, not yet in the pass list: ${newPasses.map((r) => r.name).join(", ")}`);
  }
  const passed = results.filter((r) => r.pass).length;
  console.log(
    `MCP conformance: ${passed} of ${results.length} client scenarios pass, ${regressions.length} regressions`,
  );
  return regressions.length === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error.message);
    process.exit(1);
  },
);
