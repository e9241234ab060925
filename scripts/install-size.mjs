#!/usr/bin/env node
// What a user's `npm install` of each package brings: packs the public packages (or takes the tarballs in
// --tarballs DIR, e.g. packed from another commit, as a baseline), installs each package with the @heddle/*
// tarballs it needs into its own fresh project outside the workspace, and prints the disk size of node_modules.
// better-sqlite3 comes from a local prebuild of the workspace's build (as a download from GitHub would), not a
// compile. Run after `pnpm build`: `node scripts/install-size.mjs [--tarballs DIR]`. Numbers: docs/getting-started.md.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProject, diskKb, localBetterSqlitePrebuild, npmInstall } from "./fresh-project.mjs";
import { packPublicPackages } from "./pack.mjs";

const work = mkdtempSync(join(tmpdir(), "heddle-install-size-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

const given = process.argv.indexOf("--tarballs");
const tarballDir = given > 0 ? process.argv[given + 1] : join(work, "tarballs");
if (given < 0) packPublicPackages(tarballDir);
const tarball = (name) => {
  const file = readdirSync(tarballDir).find((entry) => entry.startsWith(`heddle-${name}-`) && entry.endsWith(".tgz"));
  if (!file) throw new Error(`no heddle-${name}-*.tgz in ${tarballDir}`);
  return join(tarballDir, file);
};

// The one vendor client a user installs (the Anthropic and OpenAI clients ship bundled in @heddle/llms).
const vendorSdks = ["@google/genai@2.32.0"];
const cases = [
  ["@heddle/shared", ["shared"]],
  ["@heddle/llms", ["shared", "llms"]],
  ["@heddle/agents", ["shared", "llms", "agents"]],
  ["@heddle/core", ["shared", "llms", "agents", "core"]],
  ["@heddle/core + @google/genai", ["shared", "llms", "agents", "core"], vendorSdks],
];
const sqlite = localBetterSqlitePrebuild(join(work, "prebuilds"));

console.log("| npm install of | node_modules | packages | install time |");
console.log("| --- | ---: | ---: | ---: |");
for (const [label, names, extra = []] of cases) {
  const project = createProject("heddle-size-");
  try {
    const ms = npmInstall(project, [...names.map(tarball), ...extra], { env: sqlite.env });
    const mb = (diskKb(join(project, "node_modules")) / 1024).toFixed(1);
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8"));
    const packages = Object.keys(lock.packages).filter((path) => path.startsWith("node_modules/")).length;
    console.log(`| ${label} | ${mb} MB | ${packages} | ${(ms / 1000).toFixed(1)} s |`);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
