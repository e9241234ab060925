#!/usr/bin/env node
// The release in one command (docs/development.md, "Releasing").
//
//   pnpm release:dry   changes nothing: prints the version bumps the changesets would make, builds, packs every
//                      public package into a temp folder and checks the tarballs, installs them in a fresh project
//                      outside the workspace (scripts/packed-install.test.ts), and lists what `pnpm publish -r`
//                      would publish.
//   pnpm release       on a clean `main`: `changeset version` (versions, changelogs, consumed changesets), a commit
//                      of that, the same build, pack and install test, then `pnpm publish -r --access public` and
//                      `changeset tag`. Needs an npm login with publish rights on the @heddle scope.
//
// Flags (for the dry run's own test): --no-build, --no-install-test.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packPublicPackages, root, tarballProblems } from "./pack.mjs";

const args = new Set(process.argv.slice(2));
const dryRun = args.has("--dry-run");

function step(title) {
  console.log(`\nrelease: ${title}`);
}

/** Runs a command in the repository, its output shown; stops the release when it fails. */
function run(command, commandArgs, { capture = false } = {}) {
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    encoding: "utf8",
    stdio: capture ? ["ignore", "pipe", "inherit"] : "inherit",
  });
  if (result.status !== 0) {
    console.error(
      `release: \`${[command, ...commandArgs].join(" ")}\` failed (exit ${result.status ?? result.signal})`,
    );
    process.exit(1);
  }
  return result.stdout ?? "";
}

if (!dryRun) {
  step("checking the work tree (clean, on main)");
  const branch = run("git", ["rev-parse", "--abbrev-ref", "HEAD"], { capture: true }).trim();
  const dirty = run("git", ["status", "--porcelain"], { capture: true }).trim();
  if (branch !== "main" || dirty !== "") {
    console.error(`release: a release starts on a clean main (on ${branch}${dirty ? ", with changes" : ""})`);
    process.exit(1);
  }
}

step(dryRun ? "the version bumps the changesets would make" : "changeset version");
if (dryRun) {
  // Informational: it also fails when a package changed since main without a changeset, which the review catches.
  const status = spawnSync("pnpm", ["exec", "changeset", "status", "--verbose"], { cwd: root, stdio: "inherit" });
  if (status.status !== 0) console.log("release: changeset status reported a problem (above); the dry run goes on");
} else {
  run("pnpm", ["exec", "changeset", "version"]);
  run("pnpm", ["install", "--lockfile-only"]);
  run("git", ["add", "-A"]);
  run("git", ["commit", "-m", "Version packages (changeset version)"]);
}

if (!args.has("--no-build")) {
  step("build");
  run("pnpm", ["build"]);
}

const dest = mkdtempSync(join(tmpdir(), "heddle-release-"));
process.on("exit", () => rmSync(dest, { recursive: true, force: true }));
step(`pnpm pack of the public packages into ${dest}`);
const packed = packPublicPackages(dest);
for (const { name, manifest, tarball } of packed) {
  const heddleDeps = Object.entries(manifest.dependencies ?? {})
    .filter(([dep]) => dep.startsWith("@heddle/"))
    .map(([dep, version]) => `${dep}@${version}`);
  console.log(
    `  ${name}@${manifest.version}  ${(statSync(tarball).size / 1024).toFixed(0)} KB  ${heddleDeps.join(" ") || "-"}`,
  );
}
const problems = tarballProblems(packed);
if (problems.length > 0) {
  for (const problem of problems) console.error(`release: ${problem}`);
  process.exit(1);
}
console.log("  every tarball: no workspace: specifier, @heddle/* at the packed versions, every exported file inside");

if (!args.has("--no-install-test")) {
  step("installing the tarballs in a fresh project outside the workspace (scripts/packed-install.test.ts)");
  run("pnpm", ["exec", "vitest", "run", "scripts/packed-install.test.ts"]);
}

step(dryRun ? "what pnpm publish -r would publish (dry run)" : "pnpm publish -r --access public");
run("pnpm", ["publish", "-r", "--access", "public", ...(dryRun ? ["--dry-run", "--no-git-checks"] : [])]);

if (dryRun) {
  console.log("\nrelease: dry run done; nothing was versioned, committed or published");
} else {
  run("pnpm", ["exec", "changeset", "tag"]);
  console.log("\nrelease: published; push the version commit and its tags: git push --follow-tags");
}
