#!/usr/bin/env node
// The README's main command (`pnpm demo`): builds what the coding agent needs, quietly, then runs its offline demo.
// The build log (about 130 lines) matters only when the build fails: it is kept and shown then, else one line.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = fileURLToPath(new URL("../examples/coding-agent/dist/cli.js", import.meta.url));
const turbo = fileURLToPath(new URL("../node_modules/.bin/turbo", import.meta.url));

process.stdout.write("heddle demo: building the packages (quiet; the first build takes a minute)…\n");
const build = spawnSync(
  turbo,
  ["run", "build", "--filter=./examples/coding-agent...", "--output-logs=errors-only", "--log-prefix=none"],
  { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
);
if (build.status !== 0) {
  process.stderr.write(`${build.stdout ?? ""}${build.stderr ?? ""}`);
  process.stderr.write(`heddle demo: the build failed${build.error ? ` (${build.error.message})` : ""}; see above.\n`);
  process.exit(build.status ?? 1);
}
if (!existsSync(cli)) {
  process.stderr.write(`heddle demo: ${cli} is missing after the build.\n`);
  process.exit(1);
}
const run = spawnSync(process.execPath, [cli, "--demo", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
