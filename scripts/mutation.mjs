// `pnpm mutation` (every guarantee module) and `pnpm mutation:changed` (only those changed against a base ref):
// runs Stryker (stryker.config.mjs), then prints the project's score per file from the JSON report.
// The score is killed / (killed + survived): a timeout counts as killed, a mutant no test covers as survived, and a
// mutant disabled with a `// Stryker disable` comment (an equivalent, or one unsafe to run, each with its reason;
// docs/mutation-equivalents.md) is left out, as is a static one (evaluated once at import; `ignoreStatic`).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const REPORT = "reports/mutation/mutation.json";

/** The guarantee modules (stryker.config.mjs mutates them): each one's tests must fail when its behaviour is changed. */
export const guaranteeModules = [
  // session write ordering and repair
  "packages/core/src/sessions/write-queue.ts",
  "packages/core/src/sessions/repair.ts",
  // loop detection and the breaker
  "packages/core/src/safety/loop-detection.ts",
  "packages/core/src/safety/circuit-breaker.ts",
  // the workspace guard and the file tools that write
  "packages/core/src/workspace/workspace.ts",
  "packages/core/src/tools/edit-file.ts",
  "packages/core/src/tools/write-file.ts",
  // the shell process and its kill
  "packages/core/src/process/shell-process.ts",
  // the command sweep and its kill; the MCP server-tree functions below line 154 are not in the set yet
  "packages/core/src/process/process-tree.ts:1-154",
  // retries, stream assembly, tool-input parsing
  "packages/llms/src/retry.ts",
  "packages/llms/src/tool-call-accumulator.ts",
  "packages/llms/src/tool-input-parse.ts",
  "packages/agents/src/stream-assembler.ts",
  "packages/agents/src/tool-input.ts",
  // the agent host: a child's policy only narrows; limits count up the tree
  "packages/core/src/host/policy.ts",
  "packages/core/src/host/limits.ts",
  // bounded teams, unforgeable frames
  "packages/core/src/teams/team-governor.ts",
  "packages/core/src/teams/frames.ts",
  // the mailboxes and MCP tool mapping
  "packages/core/src/backends/memory/memory-mailbox.ts",
  "packages/core/src/mcp/names.ts",
  "packages/core/src/mcp/results.ts",
];

/** A module entry's file, without a Stryker line range (`file.ts:1-154`). */
export const moduleFile = (module) => module.replace(/:\d+(?::\d+)?-\d+(?::\d+)?$/, "");

/** The guarantee modules among `changed` (paths relative to the repository root), in the order of `modules`. */
export function changedGuaranteeModules(changed, modules) {
  const set = new Set(changed.map((file) => file.trim().replaceAll("\\", "/")).filter(Boolean));
  return modules.filter((module) => set.has(moduleFile(module)));
}

/** Per-file and total counts and score from a Stryker JSON report (mutation-testing-report-schema). */
export function mutationScores(report) {
  const files = [];
  const total = { file: "all", killed: 0, survived: 0, disabled: 0, static: 0, score: 0 };
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const row = { file, killed: 0, survived: 0, disabled: 0, static: 0, score: 0 };
    for (const { status, statusReason } of mutants) {
      if (status === "Killed" || status === "Timeout") row.killed++;
      else if (status === "Survived" || status === "NoCoverage") row.survived++;
      else if (status === "Ignored" && statusReason?.startsWith("Static mutant")) row.static++;
      else if (status === "Ignored") row.disabled++;
      // CompileError and RuntimeError are not mutants of the behaviour: Stryker leaves them out too.
    }
    row.score = score(row);
    files.push(row);
    total.killed += row.killed;
    total.survived += row.survived;
    total.disabled += row.disabled;
    total.static += row.static;
  }
  total.score = score(total);
  return { files, total };
}

function score({ killed, survived }) {
  return killed + survived === 0 ? 100 : Math.floor((killed / (killed + survived)) * 1000) / 10;
}

function changedFiles(base) {
  const git = (args) => {
    const result = spawnSync("git", args, { cwd: root, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr.trim()}`);
    return result.stdout.split("\n");
  };
  // Committed on this branch since it left `base`, plus what is changed but not committed yet.
  return [...git(["diff", "--name-only", `${base}...HEAD`]), ...git(["diff", "--name-only", "HEAD"])];
}

/**
 * The run inside a PID namespace of its own (bubblewrap, which the bash sandbox uses too): a mutant of the process
 * sweep (packages/core/src/process) can turn "this command's processes" into "every process it can see", and the
 * kill tests then signal them. In the namespace it sees only the run. Without bubblewrap the run is refused.
 */
export function inPidNamespace(command) {
  const bwrap = ["/usr/bin/bwrap", "/bin/bwrap"].find((path) => existsSync(path));
  if (!bwrap) {
    throw new Error(
      "mutation: bubblewrap (bwrap) is needed: mutants of the process sweep must not see the machine's processes.",
    );
  }
  return [bwrap, ["--dev-bind", "/", "/", "--unshare-pid", "--proc", "/proc", "--die-with-parent", "--", ...command]];
}

async function main(args) {
  // Other arguments go to Stryker as they are (`pnpm mutation --force` re-tests every mutant).
  const strykerArgs = ["exec", "stryker", "run", ...args.filter((arg) => arg !== "--changed" && arg !== "--")];
  if (args.includes("--changed")) {
    const base = process.env.MUTATION_BASE ?? "main";
    const modules = changedGuaranteeModules(changedFiles(base), guaranteeModules);
    if (modules.length === 0) {
      console.log(`mutation: no guarantee module changed against ${base}; nothing to mutate.`);
      return 0;
    }
    console.log(`mutation: ${modules.length} guarantee module(s) changed against ${base}: ${modules.join(", ")}`);
    // Its own incremental file, so a scoped run leaves the full run's results to reuse.
    strykerArgs.push("--mutate", modules.join(","), "--incrementalFile", "reports/mutation/changed-incremental.json");
  }
  const run = spawnSync(...inPidNamespace(["pnpm", ...strykerArgs]), { cwd: root, stdio: "inherit" });
  if (run.status !== 0) return run.status ?? 1;
  const path = join(root, REPORT);
  if (!existsSync(path)) return 1;
  const { files, total } = mutationScores(JSON.parse(readFileSync(path, "utf8")));
  console.log("\n| file | killed | survived | disabled | static | score % |\n| --- | --- | --- | --- | --- | --- |");
  for (const row of [...files, total]) {
    console.log(`| ${row.file} | ${row.killed} | ${row.survived} | ${row.disabled} | ${row.static} | ${row.score} |`);
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
