import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkspaceEscapeError } from "../workspace/index.js";
import { createDefaultTools } from "./default-tools.js";
import { findTool, makeTempDir, runTool } from "./test-utils.js";

let root: string;
let cleanup: () => Promise<void>;
let tools: ReturnType<typeof createDefaultTools>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
  await mkdir(path.join(root, "src"));
  tools = createDefaultTools({ workspaceRoot: root, preset: "edit" });
});
afterEach(() => cleanup());

const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

describe("read_file", () => {
  it("returns numbered lines and honours offset and limit", async () => {
    await writeFile(path.join(root, "src/a.txt"), "one\ntwo\nthree\nfour\n");
    const read = findTool(tools, "read_file");
    expect(await runTool(read, { path: "src/a.txt" })).toBe("     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour");
    const part = await runTool(read, { path: "src/a.txt", offset: 2, limit: 2 });
    expect(part).toContain("     2\ttwo\n     3\tthree");
    expect(part).toContain("showing lines 2-3 of 4; use offset=4");
  });

  it("returns an image as an image part", async () => {
    await writeFile(path.join(root, "dot.png"), PNG_1PX);
    const output = await runTool(findTool(tools, "read_file"), { path: "dot.png" });
    expect(output[1]).toEqual({ type: "image", mediaType: "image/png", data: PNG_1PX.toString("base64") });
  });

  it("refuses binary files, missing files, folders, huge whole reads and escapes", async () => {
    const read = findTool(tools, "read_file");
    await writeFile(path.join(root, "blob.bin"), Buffer.from([1, 2, 0, 3]));
    await expect(runTool(read, { path: "blob.bin" })).rejects.toThrow(/binary file/);
    await expect(runTool(read, { path: "nope.txt" })).rejects.toThrow(/File not found: nope.txt/);
    await expect(runTool(read, { path: "src" })).rejects.toThrow(/is a directory/);
    await expect(runTool(read, { path: "../x" })).rejects.toThrow(/outside the workspace/);
    const small = createDefaultTools({ workspaceRoot: root, preset: "read-only", read: { maxTextBytes: 10 } });
    await writeFile(path.join(root, "big.txt"), "x".repeat(50));
    await expect(runTool(findTool(small, "read_file"), { path: "big.txt" })).rejects.toThrow(/offset and limit/);
    await expect(runTool(read, { path: 42 })).rejects.toThrow(/path/);
  });
});

describe("write_file", () => {
  it("creates files with missing folders and replaces existing ones", async () => {
    const write = findTool(tools, "write_file");
    expect(await runTool(write, { path: "deep/new/f.txt", content: "hi\n" })).toMatch(/^Created deep\/new\/f.txt/);
    expect(await readFile(path.join(root, "deep/new/f.txt"), "utf8")).toBe("hi\n");
    expect(await runTool(write, { path: "deep/new/f.txt", content: "bye" })).toMatch(/^Updated/);
    expect(await readFile(path.join(root, "deep/new/f.txt"), "utf8")).toBe("bye");
  });

  it("refuses to write through a symlink that leaves the workspace", async () => {
    const { dir: outside, cleanup: clean } = await makeTempDir("heddle-outside-");
    try {
      await symlink(outside, path.join(root, "escape"));
      await expect(runTool(findTool(tools, "write_file"), { path: "escape/pwned.txt", content: "x" })).rejects.toThrow(
        /outside the workspace/,
      );
    } finally {
      await clean();
    }
  });
});

describe("edit_file", () => {
  const source = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n";

  it("replaces a unique match and returns a unified diff", async () => {
    await writeFile(path.join(root, "src/m.ts"), source);
    const out = await runTool(findTool(tools, "edit_file"), {
      path: "src/m.ts",
      old_text: "function b() {\n  return 1;",
      new_text: "function b() {\n  return 2;",
    });
    expect(out).toContain("--- a/src/m.ts");
    expect(out).toContain("-  return 1;\n+  return 2;");
    expect(await readFile(path.join(root, "src/m.ts"), "utf8")).toBe(
      source.replace("b() {\n  return 1", "b() {\n  return 2"),
    );
  });

  it("refuses a non-unique match naming the lines, and replace_all changes every one", async () => {
    await writeFile(path.join(root, "src/m.ts"), source);
    const edit = findTool(tools, "edit_file");
    await expect(runTool(edit, { path: "src/m.ts", old_text: "return 1;", new_text: "return 3;" })).rejects.toThrow(
      /occurs 2 times in src\/m.ts \(at lines 2, 6\)\. Include more surrounding lines.*replace_all/s,
    );
    expect(await readFile(path.join(root, "src/m.ts"), "utf8")).toBe(source);
    await runTool(edit, { path: "src/m.ts", old_text: "return 1;", new_text: "return 3;", replace_all: true });
    expect(await readFile(path.join(root, "src/m.ts"), "utf8")).toBe(source.replaceAll("return 1;", "return 3;"));
  });

  it("shows the closest lines when old_text is a near miss", async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `const value${i} = compute(${i});`);
    await writeFile(path.join(root, "src/n.ts"), `${lines.join("\n")}\n`);
    const error = await runTool(findTool(tools, "edit_file"), {
      path: "src/n.ts",
      old_text: "const value17 = compute(71);\nconst value18 = compute(18);",
      new_text: "x",
    }).catch((e: Error) => e);
    expect(error.message).toMatch(/old_text was not found in src\/n.ts/);
    expect(error.message).toContain("closest lines are 18-19");
    expect(error.message).toContain("18\tconst value17 = compute(17);");
  });

  it("keeps CRLF line endings when the model writes LF", async () => {
    await writeFile(path.join(root, "win.txt"), "a\r\nb\r\nc\r\n");
    await runTool(findTool(tools, "edit_file"), { path: "win.txt", old_text: "a\nb", new_text: "a\nB" });
    expect(await readFile(path.join(root, "win.txt"), "utf8")).toBe("a\r\nB\r\nc\r\n");
  });

  it("refuses a missing file, identical texts and an empty old_text", async () => {
    const edit = findTool(tools, "edit_file");
    await expect(runTool(edit, { path: "none.ts", old_text: "a", new_text: "b" })).rejects.toThrow(/File not found/);
    await writeFile(path.join(root, "s.ts"), "a");
    await expect(runTool(edit, { path: "s.ts", old_text: "a", new_text: "a" })).rejects.toThrow(/nothing would change/);
    await expect(runTool(edit, { path: "s.ts", old_text: "", new_text: "b" })).rejects.toThrow(/old_text/);
  });
});

// The workspace sits next to outside.txt, so "../outside.txt" names a real file that a plain path.resolve would
// reach; "out" (a folder link) and "outside-link.txt" (a file link) reach it through symlinks.
describe("file tools refuse paths that leave the workspace", () => {
  const escapes = ["../outside.txt", "out/outside.txt", "outside-link.txt"];
  let outsideFile: string;
  let workspaceTools: ReturnType<typeof createDefaultTools>;
  let removeBox: () => Promise<void>;

  beforeEach(async () => {
    const { dir: box, cleanup } = await makeTempDir("heddle-escape-");
    removeBox = cleanup;
    const workspaceRoot = path.join(box, "ws");
    await mkdir(workspaceRoot);
    outsideFile = path.join(box, "outside.txt");
    await writeFile(outsideFile, "secret = 1\n");
    await symlink(box, path.join(workspaceRoot, "out"));
    await symlink(outsideFile, path.join(workspaceRoot, "outside-link.txt"));
    workspaceTools = createDefaultTools({ workspaceRoot, preset: "edit" });
  });
  afterEach(() => removeBox());

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => "no error",
      (error: Error & { code?: string }) => ({ escape: error instanceof WorkspaceEscapeError, code: error.code }),
    );

  it.each(escapes)("edit_file refuses %s with workspace_escape, and the outside file is unchanged", async (given) => {
    const edit = findTool(workspaceTools, "edit_file");
    expect(await refusal(runTool(edit, { path: given, old_text: "secret = 1", new_text: "secret = 2" }))).toEqual({
      escape: true,
      code: "workspace_escape",
    });
    expect(await readFile(outsideFile, "utf8")).toBe("secret = 1\n");
  });

  it.each(escapes)("write_file refuses %s with workspace_escape, and the outside file is unchanged", async (given) => {
    const write = findTool(workspaceTools, "write_file");
    expect(await refusal(runTool(write, { path: given, content: "secret = 2\n" }))).toEqual({
      escape: true,
      code: "workspace_escape",
    });
    expect(await readFile(outsideFile, "utf8")).toBe("secret = 1\n");
  });

  it.each(escapes)("read_file refuses %s with workspace_escape, showing nothing of the file", async (given) => {
    expect(await refusal(runTool(findTool(workspaceTools, "read_file"), { path: given }))).toEqual({
      escape: true,
      code: "workspace_escape",
    });
  });
});
