#!/usr/bin/env node
import { spawnSync } from "node:child_process";
// The README's main command. The offline coding-agent demo lands with examples/coding-agent.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../examples/coding-agent/dist/cli.js", import.meta.url));
if (existsSync(cli)) {
  const run = spawnSync(process.execPath, [cli, "--demo", ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(run.status ?? 1);
}
console.log("heddle demo: not built yet — the offline coding-agent demo arrives with examples/coding-agent.");
