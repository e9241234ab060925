// The default limits docs/tools.md states for read_file, list_files and search, each at its edge.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDefaultTools } from "./default-tools.js";
import { findTool, makeTempDir, runTool } from "./test-utils.js";

let root: string;
let cleanup: () => Promise<void>;
let tools: ReturnType<typeof createDefaultTools>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
  tools = createDefaultTools({ workspaceRoot: root, preset: "read-only" });
});
afterEach(() => cleanup());

const numbered = (count: number, text = (i: number) => `line ${i}`) =>
  `${Array.from({ length: count }, (_, i) => text(i + 1)).join("\n")}\n`;

describe("read_file defaults", () => {
  it("returns 2000 lines, cuts a line at 2000 characters, and reads at most 256 KiB whole", async () => {
    const read = findTool(tools, "read_file");
    await writeFile(path.join(root, "long.txt"), numbered(2001));
    const lines = (await runTool(read, { path: "long.txt" })).split("\n");
    expect(lines.at(-2)).toBe("  2000\tline 2000");
    expect(lines.at(-1)).toBe("[long.txt: showing lines 1-2000 of 2001; use offset=2001 to read on]");

    await writeFile(path.join(root, "wide.txt"), `${"a".repeat(2000)}\n${"b".repeat(2001)}\n`);
    const [first, second] = (await runTool(read, { path: "wide.txt" })).split("\n");
    expect(first).toBe(`     1\t${"a".repeat(2000)}`);
    expect(second).toBe(`     2\t${"b".repeat(2000)}… [line cut at 2000 chars]`);

    await writeFile(path.join(root, "fits.txt"), "x".repeat(256 * 1024));
    await expect(runTool(read, { path: "fits.txt", limit: 1 })).resolves.toContain("xxx");
    expect(await runTool(read, { path: "fits.txt" })).toContain("xxx");
    await writeFile(path.join(root, "over.txt"), "x".repeat(256 * 1024 + 1));
    await expect(runTool(read, { path: "over.txt" })).rejects.toThrow(/over the 262144-byte limit/);
  });

  it("refuses a file with a NUL byte in its first 8 KiB as binary, and reads one with a NUL after", async () => {
    const read = findTool(tools, "read_file");
    const withNulAt = (index: number) => {
      const bytes = Buffer.alloc(9000, "a");
      bytes[index] = 0;
      return bytes;
    };
    await writeFile(path.join(root, "early.txt"), withNulAt(8191));
    await expect(runTool(read, { path: "early.txt" })).rejects.toThrow(/binary file/);
    await writeFile(path.join(root, "late.txt"), withNulAt(8192));
    await expect(runTool(read, { path: "late.txt", limit: 1 })).resolves.toContain("aaa");
  });

  it("returns images up to 5 MiB and refuses larger ones", async () => {
    const read = findTool(tools, "read_file");
    await writeFile(path.join(root, "ok.png"), Buffer.alloc(5 * 1024 * 1024));
    expect((await runTool(read, { path: "ok.png" }))[1]).toMatchObject({ type: "image", mediaType: "image/png" });
    await writeFile(path.join(root, "big.png"), Buffer.alloc(5 * 1024 * 1024 + 1));
    await expect(runTool(read, { path: "big.png" })).rejects.toThrow(/the limit is 5242880/);
  });
});

it("list_files shows at most 1000 paths", async () => {
  await mkdir(path.join(root, "many"));
  for (let i = 0; i < 1001; i++) await writeFile(path.join(root, "many", `f${i}.txt`), "");
  const out: string = await runTool(findTool(tools, "list_files"), {});
  expect(out.split("\n").filter((line) => line.startsWith("many/"))).toHaveLength(1000);
});

describe.each([
  { engine: "JS fallback", ripgrep: false as const },
  { engine: "ripgrep", ripgrep: "rg" },
])("search defaults ($engine)", ({ ripgrep }) => {
  const search = () =>
    findTool(createDefaultTools({ workspaceRoot: root, preset: "read-only", search: { ripgrep } }), "search");

  it("keeps 200 lines and cuts each at 400 characters", async () => {
    await writeFile(
      path.join(root, "hits.txt"),
      numbered(250, (i) => `hit ${i}`),
    );
    const lines: string[] = (await runTool(search(), { pattern: "hit" })).split("\n");
    expect(lines.filter((line) => line.startsWith("hits.txt:"))).toHaveLength(200);

    await writeFile(path.join(root, "wide.txt"), `wide ${"w".repeat(1000)}\n`);
    const [wide] = (await runTool(search(), { pattern: "wide" })).split("\n");
    expect(wide.length).toBeLessThan(450);
    expect(wide).toContain("w".repeat(380));
  });
});

it("the JS search skips files over 1 MiB", async () => {
  const search = findTool(
    createDefaultTools({ workspaceRoot: root, preset: "read-only", search: { ripgrep: false } }),
    "search",
  );
  await writeFile(path.join(root, "huge.txt"), `needle\n${"z".repeat(1024 * 1024)}\n`);
  await writeFile(path.join(root, "small.txt"), "needle\n");
  expect(await runTool(search, { pattern: "needle" })).toBe("small.txt:1:needle");
});

it("a search still running after search.timeoutMs stops with code timeout", async () => {
  for (let i = 0; i < 500; i++) await writeFile(path.join(root, `f${i}.txt`), "haystack\n".repeat(200));
  const search = findTool(
    createDefaultTools({ workspaceRoot: root, preset: "read-only", search: { ripgrep: false, timeoutMs: 1 } }),
    "search",
  );
  await expect(runTool(search, { pattern: "needle" })).rejects.toMatchObject({ code: "timeout" });
});
