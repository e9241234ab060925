import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDefaultTools } from "./default-tools.js";
import type { SearchOptions } from "./search.js";
import { findTool, makeTempDir, runTool } from "./test-utils.js";

let root: string;
let cleanup: () => Promise<void>;
let tools: ReturnType<typeof createDefaultTools>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
  const files: { [rel: string]: string } = {
    ".gitignore": "dist/\n*.log\n",
    "src/main.ts": "export const answer = 42;\nconsole.log(answer);\n",
    "src/util.ts": "// helper\nexport function twice(x: number) {\n  return x * 2;\n}\n",
    "src/gen/.gitignore": "*.gen.ts\n!keep.gen.ts\n",
    "src/gen/a.gen.ts": "export const answer = 1;\n",
    "src/gen/keep.gen.ts": "export const answer = 2;\n",
    "dist/main.js": "const answer = 42;\n",
    "debug.log": "answer\n",
    "node_modules/dep/index.js": "answer\n",
    ".git/config": "answer\n",
    "README.md": "# Demo\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
  await writeFile(path.join(root, "image.bin"), Buffer.from([0, 97, 110, 115, 119, 101, 114]));
  tools = createDefaultTools({ workspaceRoot: root, preset: "read-only", search: { ripgrep: false } });
});
afterEach(() => cleanup());

describe("list_files", () => {
  it("lists files, skipping .git, node_modules and .gitignored paths (nested rules and re-includes too)", async () => {
    const out = await runTool(findTool(tools, "list_files"), {});
    expect(out.split("\n")).toEqual(
      [
        ".gitignore",
        "image.bin",
        "README.md",
        "src/gen/.gitignore",
        "src/gen/keep.gen.ts",
        "src/main.ts",
        "src/util.ts",
      ].sort(),
    );
  });

  it("does not walk into a symlinked folder", async () => {
    const { dir: outside, cleanup: clean } = await makeTempDir("heddle-linked-");
    try {
      await writeFile(path.join(outside, "linked.ts"), "");
      await mkdir(path.join(root, "real"));
      await writeFile(path.join(root, "real/inside.ts"), "");
      await symlink(outside, path.join(root, "link"));
      await symlink(path.join(root, "real"), path.join(root, "alias"));
      const out: string = await runTool(findTool(tools, "list_files"), {});
      expect(out).toContain("real/inside.ts");
      expect(out).not.toContain("linked.ts");
      expect(out).not.toContain("alias/");
    } finally {
      await clean();
    }
  });

  it("filters by glob and folder, and caps the listing", async () => {
    const list = findTool(tools, "list_files");
    expect(await runTool(list, { pattern: "**/*.ts", path: "src" })).toBe(
      "src/gen/keep.gen.ts\nsrc/main.ts\nsrc/util.ts",
    );
    const capped = createDefaultTools({ workspaceRoot: root, preset: "read-only", maxListEntries: 2 });
    expect(await runTool(findTool(capped, "list_files"), {})).toMatch(/\[showing 2 of 7 files/);
  });

  it("refuses escaping globs and folders, and reports a missing folder", async () => {
    const list = findTool(tools, "list_files");
    await expect(runTool(list, { pattern: "../**" })).rejects.toThrow(/outside the workspace/);
    await expect(runTool(list, { path: ".." })).rejects.toThrow(/outside the workspace/);
    await expect(runTool(list, { path: "nope" })).rejects.toThrow(/Folder not found: nope/);
  });
});

// The same expectations for both engines: ripgrep when it is installed (bootstrap.sh installs it), and the JS
// fallback every machine has.
describe.each([
  { engine: "JS fallback", ripgrep: false as const },
  { engine: "ripgrep", ripgrep: "rg" },
])("search ($engine)", ({ ripgrep }) => {
  const searchTool = (extra: { maxLines?: number } = {}) =>
    findTool(createDefaultTools({ workspaceRoot: root, preset: "read-only", search: { ripgrep, ...extra } }), "search");

  it("finds regex matches as path:line:text, skipping ignored and binary files", async () => {
    const out = await runTool(searchTool(), { pattern: "answer\\s*=" });
    expect(out.split("\n")).toEqual([
      "src/gen/keep.gen.ts:1:export const answer = 2;",
      "src/main.ts:1:export const answer = 42;",
    ]);
  });

  it("shows context lines and narrows by path and glob", async () => {
    const search = searchTool();
    expect(await runTool(search, { pattern: "return", path: "src", glob: "util.ts", context: 1 })).toBe(
      "src/util.ts-2-export function twice(x: number) {\nsrc/util.ts:3:  return x * 2;\nsrc/util.ts-4-}",
    );
    expect(await runTool(search, { pattern: "zzz" })).toBe("No matches for /zzz/.");
  });

  it("caps its output and refuses a bad regex", async () => {
    await writeFile(path.join(root, "many.txt"), "hit\n".repeat(50));
    const out = await runTool(searchTool({ maxLines: 5 }), { pattern: "hit" });
    expect(out.split("\n")).toHaveLength(6);
    expect(out).toMatch(/output cut at 5 lines/);
    await expect(runTool(searchTool(), { pattern: "(" })).rejects.toThrow(/Invalid regular expression/);
    await expect(runTool(searchTool(), { pattern: "x", path: "../" })).rejects.toThrow(/outside the workspace/);
  });
});

// Every "ripgrep" run above would also pass on the JS search; these pin down which engine actually answered.
describe("search engine", () => {
  const searchTool = (search: SearchOptions) =>
    findTool(createDefaultTools({ workspaceRoot: root, preset: "read-only", search }), "search");

  it("with ripgrep configured, ripgrep answers: it searches a file the JS search skips as too large", async () => {
    // bootstrap.sh installs rg, so a machine without it fails here instead of testing the JS search twice.
    await writeFile(path.join(root, "big.txt"), `${"x".repeat(200)}\nneedle\n`);
    expect(await runTool(searchTool({ ripgrep: "rg", maxFileBytes: 100 }), { pattern: "needle" })).toBe(
      "big.txt:2:needle",
    );
    expect(await runTool(searchTool({ ripgrep: false, maxFileBytes: 100 }), { pattern: "needle" })).toBe(
      "No matches for /needle/.",
    );
  });

  it("a configured ripgrep that cannot run is reported in the output, and the JS search answers", async () => {
    const missing = path.join(root, "no-such-rg");
    const out: string = await runTool(searchTool({ ripgrep: missing }), { pattern: "answer\\s*=" });
    expect(out.split("\n")).toEqual([
      `[ripgrep ${JSON.stringify(missing)} could not run (spawn ${missing} ENOENT); searched with the built-in JS ` +
        "engine, which skips files over 1048576 bytes]",
      "src/gen/keep.gen.ts:1:export const answer = 2;",
      "src/main.ts:1:export const answer = 42;",
    ]);
    expect(await runTool(searchTool({ ripgrep: missing }), { pattern: "zzz" })).toMatch(
      /^\[ripgrep .* could not run .*\]\nNo matches for \/zzz\/\.$/,
    );
  });

  it('with ripgrep "auto" and no rg on PATH, the JS search answers without a notice', async () => {
    await writeFile(path.join(root, "big.txt"), `${"x".repeat(200)}\nneedle\n`);
    await writeFile(path.join(root, "small.txt"), "needle\n");
    const { dir: emptyBin, cleanup: clean } = await makeTempDir("heddle-no-rg-");
    vi.stubEnv("PATH", emptyBin);
    try {
      // big.txt left out: the JS search answered, as it should on a machine without rg.
      expect(await runTool(searchTool({ ripgrep: "auto", maxFileBytes: 100 }), { pattern: "needle" })).toBe(
        "small.txt:1:needle",
      );
    } finally {
      vi.unstubAllEnvs();
      await clean();
    }
  });
});
