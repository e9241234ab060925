import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorkspace } from "../workspace/index.js";
import { createEditFileTool } from "./edit-file.js";
import { makeTempDir, runTool } from "./test-utils.js";
import { countLines, createWriteFileTool } from "./write-file.js";

let root: string;
let cleanup: () => Promise<void>;
let edit: ReturnType<typeof createEditFileTool>;
let write: ReturnType<typeof createWriteFileTool>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
  const workspace = createWorkspace(root);
  edit = createEditFileTool(workspace);
  write = createWriteFileTool(workspace);
});
afterEach(() => cleanup());

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "no error",
    (error: { code?: string }) => error.code,
  );

describe("write_file's report", () => {
  it("counts lines as an editor shows them: a final newline ends the last line, it does not start one", () => {
    expect([countLines(""), countLines("\n"), countLines("a"), countLines("a\nb"), countLines("a\nb\n")]).toEqual([
      0, 1, 1, 2, 2,
    ]);
    expect(countLines("\na\n\nb")).toBe(4);
  });

  it("says Created, then Updated, with the bytes and lines written", async () => {
    expect(await runTool(write, { path: "notes/a.txt", content: "é\nb\n" })).toBe(
      "Created notes/a.txt (5 bytes, 2 lines).",
    );
    expect(await runTool(write, { path: "notes/a.txt", content: "x" })).toBe("Updated notes/a.txt (1 bytes, 1 lines).");
    await mkdir(path.join(root, "folder"));
    expect(await codeOf(runTool(write, { path: "folder", content: "x" }))).toBe("is_directory");
  });
});

describe("edit_file", () => {
  it("refuses with a code the model can act on: no change, missing, a folder, binary, no match, not unique", async () => {
    await writeFile(path.join(root, "a.txt"), "one\ntwo\none\n");
    await writeFile(path.join(root, "bin.dat"), Buffer.from([0, 1, 2, 0, 3]));
    await mkdir(path.join(root, "dir"));
    const attempt = (input: object) =>
      codeOf(runTool(edit, { path: "a.txt", old_text: "two", new_text: "2", ...input }));
    expect(await attempt({ new_text: "two" })).toBe("no_change");
    expect(await attempt({ path: "missing.txt" })).toBe("not_found");
    expect(await attempt({ path: "dir" })).toBe("is_directory");
    expect(await attempt({ path: "bin.dat", old_text: "\u0001" })).toBe("binary_file");
    expect(await attempt({ old_text: "three" })).toBe("no_match");
    expect(await attempt({ old_text: "one" })).toBe("not_unique");
    expect(await readFile(path.join(root, "a.txt"), "utf8")).toBe("one\ntwo\none\n");
  });

  it("reports one replacement or the count, with a unified diff of a/ and b/ and no separator line", async () => {
    await writeFile(path.join(root, "a.txt"), "x = 1\ny = 1\n");
    const one = await runTool(edit, { path: "a.txt", old_text: "x = 1", new_text: "x = 2" });
    expect(one.split("\n").slice(0, 3)).toEqual(["Edited a.txt (1 replacement).", "--- a/a.txt", "+++ b/a.txt"]);
    expect(one).toContain("-x = 1\n+x = 2\n y = 1");
    expect(one).not.toMatch(/^=+$/m);
    const all = await runTool(edit, { path: "a.txt", old_text: "= ", new_text: ":= ", replace_all: true });
    expect(all.split("\n")[0]).toBe("Edited a.txt (2 replacements).");
    expect(await readFile(path.join(root, "a.txt"), "utf8")).toBe("x := 2\ny := 1\n");
  });

  it("in a file with mixed line endings takes old_text as written when it occurs so", async () => {
    await writeFile(path.join(root, "mixed.txt"), "a\nb\r\nc\r\n");
    await runTool(edit, { path: "mixed.txt", old_text: "a\nb", new_text: "A\nB" });
    expect(await readFile(path.join(root, "mixed.txt"), "utf8")).toBe("A\nB\r\nc\r\n");
  });
});

describe("edit_file when old_text is not found", () => {
  const lines = [
    "function total(items) {",
    "  let sum = 0;",
    "  for (const item of items) sum += item.price;",
    "  return sum;",
    "}",
  ];

  it("shows the closest lines, numbered, with one line of context each side", async () => {
    await writeFile(path.join(root, "t.js"), `${lines.join("\n")}\n`);
    const message = await runTool(edit, {
      path: "t.js",
      old_text: "  for (const item of items) sum += item.cost;\n  return sum",
      new_text: "x",
    }).catch((error: Error) => error.message);
    expect(message).toContain("old_text was not found in t.js; it must match exactly, whitespace included.");
    expect(message).not.toContain("only in indentation");
    expect(message.split("\n").slice(1)).toEqual([
      `2\t${lines[1]}`,
      `3\t${lines[2]}`,
      `4\t${lines[3]}`,
      `5\t${lines[4]}`,
    ]);
    expect(message.split("\n")[0]).toMatch(/The closest lines are 3-4:$/);
  });

  it("says when the lines differ only in indentation, and clips the context at the file's start", async () => {
    await writeFile(path.join(root, "t.js"), `${lines.join("\n")}\n`);
    const message = await runTool(edit, {
      path: "t.js",
      old_text: "function total(items) {\n    let sum = 0;",
      new_text: "x",
    }).catch((error: Error) => error.message);
    expect(message).toContain("These lines differ from old_text only in indentation or line endings.");
    expect(message).toContain("The closest lines are 1-2:\n1\tfunction total(items) {\n2\t  let sum = 0;\n3\t");
  });

  it("picks the most similar line by its characters, and says so when nothing looks like old_text", async () => {
    await writeFile(path.join(root, "c.txt"), "alpha beta\ngamma delta\nepsilon zeta\n");
    const near = await runTool(edit, { path: "c.txt", old_text: "gamma delts", new_text: "x" }).catch(
      (error: Error) => error.message,
    );
    expect(near).toContain("The closest lines are 2-2:");
    // Of equally close lines, the first is shown.
    await writeFile(path.join(root, "tie.txt"), "same\nother\nsame\n");
    const tie = await runTool(edit, { path: "tie.txt", old_text: "sane", new_text: "x" }).catch(
      (error: Error) => error.message,
    );
    expect(tie).toContain("The closest lines are 1-1:");
    const far = await runTool(edit, { path: "c.txt", old_text: "QQ", new_text: "x" }).catch(
      (error: Error) => error.message,
    );
    expect(far).toContain("Nothing in the file looks like it: read the file again before editing.");
    const single = await runTool(edit, { path: "c.txt", old_text: "Q", new_text: "x" }).catch(
      (error: Error) => error.message,
    );
    expect(single).toContain("Nothing in the file looks like it");
  });
});
