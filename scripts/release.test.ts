// `pnpm release:dry` must stay runnable and change nothing: no version written, no changeset consumed, no commit.
// (Its install step is scripts/packed-install.test.ts, run on its own; its build is `pnpm test`'s.)
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";
import { root } from "./pack.mjs";

const git = (...args: string[]) => spawnSync("git", args, { cwd: root, encoding: "utf8" }).stdout;

it("the release dry run packs and checks the five public packages, lists what it would publish, and changes nothing", () => {
  const before = { head: git("rev-parse", "HEAD"), status: git("status", "--porcelain") };
  const run = spawnSync(process.execPath, ["scripts/release.mjs", "--dry-run", "--no-build", "--no-install-test"], {
    cwd: root,
    encoding: "utf8",
  });
  const output = `${run.stdout}${run.stderr}`;
  expect(run.status, output).toBe(0);
  // Packed and published: the public packages only, in dependency order.
  const packedNames = [...output.matchAll(/^ {2}(@heddle\/[a-z-]+)@\d+\.\d+\.\d+ +\d+ KB/gm)].map((m) => m[1]);
  const published = [...output.matchAll(/Skip publishing (@heddle\/[a-z-]+)@/g)].map((m) => m[1]);
  const publicPackages = ["@heddle/shared", "@heddle/llms", "@heddle/agents", "@heddle/core", "@heddle/code"];
  expect({ packedNames, published }).toEqual({ packedNames: publicPackages, published: publicPackages });
  expect(output).toContain("every tarball: no workspace: specifier");
  expect({ head: git("rev-parse", "HEAD"), status: git("status", "--porcelain") }).toEqual(before);
}, 60_000);
