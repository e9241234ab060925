import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runPasses, summarizeReport } from "./test-summary.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Inside the repository so the fixture's `import "vitest"` resolves to the workspace's vitest.
const dir = join(root, "node_modules", ".cache", `test-summary-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the real vitest on one fixture file and returns its JSON report. */
function vitestReport(name: string, source: string): unknown {
  const fixture = join(dir, name);
  mkdirSync(fixture, { recursive: true });
  writeFileSync(join(fixture, "fixture.test.ts"), source);
  writeFileSync(join(fixture, "vitest.config.mjs"), "export default { test: { include: ['*.test.ts'] } };\n");
  const out = join(fixture, "report.json");
  spawnSync(join(root, "node_modules", ".bin", "vitest"), ["run", "--reporter=json", `--outputFile=${out}`], {
    cwd: fixture,
    env: { ...process.env, NO_COLOR: "1", CI: "" },
    encoding: "utf8",
  });
  return JSON.parse(readFileSync(out, "utf8"));
}

describe("the CI summary line", () => {
  it("counts the tests of a file whose beforeAll failed as failed, not skipped", () => {
    const report = vitestReport(
      "before-all",
      `import { beforeAll, it, expect } from "vitest";
       beforeAll(() => { throw new Error("setup broke"); });
       it("one", () => expect(1).toBe(1));
       it("two", () => expect(2).toBe(2));`,
    );
    expect(summarizeReport(report)).toEqual({ passed: 0, failed: 2, skipped: 0 });
  }, 60_000);

  it("counts passes, failures and real skips apart", () => {
    const report = vitestReport(
      "mixed",
      `import { it, expect } from "vitest";
       it("ok", () => expect(1).toBe(1));
       it("bad", () => expect(1).toBe(2));
       it.skip("later", () => {});`,
    );
    expect(summarizeReport(report)).toEqual({ passed: 1, failed: 1, skipped: 1 });
  }, 60_000);

  it("fails a run with a skipped test under CI, and one that ran nothing anywhere", () => {
    expect(runPasses({ passed: 5, failed: 0, skipped: 1 }, { ci: true })).toBe(false);
    expect(runPasses({ passed: 5, failed: 0, skipped: 1 }, { ci: false })).toBe(true);
    expect(runPasses({ passed: 0, failed: 0, skipped: 0 }, { ci: false })).toBe(false);
    expect(runPasses({ passed: 5, failed: 1, skipped: 0 }, { ci: false })).toBe(false);
  });
});
