import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mutationTests } from "../vitest.mutation.config.js";
import { changedGuaranteeModules, guaranteeModules, inPidNamespace, moduleFile, mutationScores } from "./mutation.mjs";

describe("pnpm mutation", () => {
  it("mutation:changed mutates only the guarantee modules among the changed files", () => {
    const changed = [
      "docs/reliability.md",
      "packages/llms/src/retry.ts",
      "packages/llms/src/retry.test.ts",
      "",
      "packages/core/src/mcp/names.ts",
    ];
    expect(changedGuaranteeModules(changed, guaranteeModules)).toEqual([
      "packages/llms/src/retry.ts",
      "packages/core/src/mcp/names.ts",
    ]);
    expect(changedGuaranteeModules(["README.md"], guaranteeModules)).toEqual([]);
    // A module mutated over a line range is matched by its file and keeps its range.
    expect(changedGuaranteeModules(["src/a.ts"], ["src/a.ts:1-154", "src/b.ts"])).toEqual(["src/a.ts:1-154"]);
  });

  it("scores killed / (killed + survived): timeouts count as killed, uncovered as survived, disabled left out", () => {
    const mutants = (...statuses: string[]) => ({
      mutants: statuses.map((status) => {
        const [name, statusReason] = status.split(":");
        return { status: name, statusReason };
      }),
    });
    const { files, total } = mutationScores({
      files: {
        "a.ts": mutants("Killed", "Killed", "Timeout", "Survived", "Ignored:equivalent, because", "CompileError"),
        "b.ts": mutants("Killed", "NoCoverage", "Ignored:Static mutant (and ignoreStatic was enabled)"),
      },
    });
    expect(files).toEqual([
      { file: "a.ts", killed: 3, survived: 1, disabled: 1, static: 0, score: 75 },
      { file: "b.ts", killed: 1, survived: 1, disabled: 0, static: 1, score: 50 },
    ]);
    expect(total).toEqual({ file: "all", killed: 4, survived: 2, disabled: 1, static: 1, score: 66.6 });
  });

  it("every guarantee module and every mutation test file exists", () => {
    const root = join(import.meta.dirname, "..");
    for (const file of [...guaranteeModules.map(moduleFile), ...mutationTests])
      expect(existsSync(join(root, file)), file).toBe(true);
  });

  it("runs Stryker where a mutated process sweep cannot see, so cannot signal, the machine's other processes", () => {
    const [file, args] = inPidNamespace(["sh", "-c", "ls /proc"]);
    const listed = spawnSync(file, args, { encoding: "utf8" });
    expect(listed.status).toBe(0);
    const pids = listed.stdout.split("\n").filter((name) => /^\d+$/.test(name));
    expect(pids.length).toBeGreaterThan(0);
    // This test's own process, outside the namespace, is not there to be signalled.
    expect(pids).not.toContain(String(process.pid));
    expect(pids.length).toBeLessThan(10);
  });
});
