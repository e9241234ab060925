// A user's project outside the workspace: its own package.json, packages installed by npm from tarballs and the
// registry. Used by scripts/packed-install.test.ts and scripts/install-size.mjs.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { root } from "./pack.mjs";

/** A new folder under the system's temp folder (never inside the workspace) with a bare ESM package.json. */
export function createProject(prefix = "heddle-project-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "heddle-user-project", private: true, type: "module" }, null, 2)}\n`,
  );
  return dir;
}

/**
 * Where better-sqlite3's install finds a prebuilt binary without GitHub: a folder holding the prebuild-install
 * tarball (`better-sqlite3-v<version>-node-v<abi>-<platform><libc>-<arch>.tar.gz`) made from the workspace's own
 * build of the same version, for this Node. Returned as the environment npm's install scripts read
 * (`npm_config_better_sqlite3_local_prebuilds`), so the install unpacks it instead of compiling SQLite (minutes).
 */
export function localBetterSqlitePrebuild(dest) {
  const require = createRequire(join(root, "packages", "core", "package.json"));
  const packageDir = dirname(require.resolve("better-sqlite3/package.json"));
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  const musl = process.platform === "linux" && !process.report?.getReport().header.glibcVersionRuntime;
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}${musl ? "musl" : ""}-${process.arch}.tar.gz`;
  mkdirSync(dest, { recursive: true });
  // The tarball holds build/Release/better_sqlite3.node, as the published prebuilds do.
  execFileSync("tar", ["-czf", join(dest, name), "-C", packageDir, "build/Release/better_sqlite3.node"]);
  return { version, env: { npm_config_better_sqlite3_local_prebuilds: dest } };
}

/**
 * `npm install` in `dir`, preferring npm's cache to the registry. Throws with npm's output when it fails; returns
 * how long it took.
 */
export function npmInstall(dir, specs, { env = {} } = {}) {
  const started = performance.now();
  const run = spawnSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...specs], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  if (run.status !== 0) throw new Error(`npm install ${specs.join(" ")} failed in ${dir}:\n${run.stdout}${run.stderr}`);
  return performance.now() - started;
}

/** Kilobytes a folder takes on disk (`du -sk`). */
export function diskKb(dir) {
  return Number(execFileSync("du", ["-sk", dir], { encoding: "utf8" }).split("\t")[0]);
}
