import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

it("`pnpm demo` builds quietly: one line about the build, then the demo", () => {
  // The command `pnpm demo` runs, as the root package.json has it (pnpm's own header lines aside).
  const script = JSON.parse(readFileSync(`${root}/package.json`, "utf8")).scripts.demo as string;
  const { status, stdout, stderr } = spawnSync("sh", ["-c", script], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 120_000,
  });
  expect(stderr).toBe("");
  const lines = stdout.split("\n");
  const demoStarts = lines.findIndex((line) => line.startsWith("DEMO — a scripted demo model"));
  expect(lines.slice(0, demoStarts)).toEqual([
    "heddle demo: building the packages (quiet; the first build takes a minute)…",
  ]);
  expect(stdout).toContain("Checked independently: `node --test test/` passes in the demo workspace.");
  expect(status).toBe(0);
}, 150_000);
