import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const here = fileURLToPath(new URL("..", import.meta.url));

it("installs as @heddle/code with a `heddle` command and the `heddle-code` alias, both the CLI", () => {
  const pkg = JSON.parse(readFileSync(`${here}/package.json`, "utf8"));
  expect(pkg.name).toBe("@heddle/code");
  expect(pkg.bin).toEqual({ heddle: "./dist/cli.js", "heddle-code": "./dist/cli.js" });
  // The demo needs its sample project in the package.
  expect(pkg.files).toEqual(expect.arrayContaining(["dist", "sample-project"]));
  const bin = `${here}/${pkg.bin.heddle}`;
  expect(readFileSync(bin, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  const help = spawnSync(process.execPath, [bin, "--help"], { encoding: "utf8", timeout: 20_000 });
  expect(help.status).toBe(0);
  expect(help.stdout).toContain("(package @heddle/code; the\n`heddle` command is the same program)");
});
