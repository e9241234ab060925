import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDefaultTools } from "./default-tools.js";
import { compileSearchPattern } from "./search.js";
import { findTool, makeTempDir, runTool } from "./test-utils.js";

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir("heddle-regex-"));
});
afterEach(() => cleanup());

const search = () =>
  findTool(createDefaultTools({ workspaceRoot: root, preset: "read-only", search: { ripgrep: false } }), "search");

describe("search without ripgrep uses a linear-time regex engine", () => {
  it("compiles patterns with RE2: linear time, so a catastrophic pattern answers at once", () => {
    const pattern = compileSearchPattern("(a+)+$");
    expect(pattern.test(`${"a".repeat(100_000)}!`)).toBe(false);
    expect(pattern.test("aaaa")).toBe(true);
  });

  it("a catastrophic pattern on a long line returns (backtracking would take minutes)", async () => {
    await writeFile(path.join(root, "evil.txt"), `${"a".repeat(5000)}!\n`);
    expect(await runTool(search(), { pattern: "(a+)+$" })).toMatch(/No matches/);
    await writeFile(path.join(root, "ok.txt"), `${"a".repeat(40)}\n`);
    expect(await runTool(search(), { pattern: "(a+)+$" })).toContain("ok.txt:1:");
  }, 20_000);

  it("refuses a pattern the engine cannot compile, saying why", async () => {
    await writeFile(path.join(root, "f.txt"), "abab\n");
    await expect(runTool(search(), { pattern: "(ab)\\1" })).rejects.toMatchObject({ code: "invalid_pattern" });
    await expect(runTool(search(), { pattern: "a(?=b)" })).rejects.toThrow(/linear-time|lookaround|backreference/i);
  });
});
