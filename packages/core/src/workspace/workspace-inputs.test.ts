import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../tools/test-utils.js";
import { ProtectedPathError, ToolConfigError, ToolInputError, WorkspaceEscapeError } from "./errors.js";
import { createWorkspace, writeFileAtomic } from "./workspace.js";

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
  await mkdir(path.join(root, "src"));
  await writeFile(path.join(root, "src", "a.txt"), "a");
});
afterEach(() => cleanup());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: Error & { code?: string }) => error,
  );

describe("workspace guard: what a model may send as a path", () => {
  it("refuses an empty path, a non-string and a NUL byte as invalid_path, and ~ as an escape", async () => {
    const ws = createWorkspace(root);
    for (const input of ["", 42, "src/a\0.txt"]) {
      const error = await failure(ws.resolve(input as string));
      expect(error, String(input)).toBeInstanceOf(ToolInputError);
      expect(error!.code).toBe("invalid_path");
    }
    expect((await failure(ws.resolve("")))!.message).toMatch(/empty/);
    expect((await failure(ws.resolve("a\0")))!.message).toMatch(/NUL byte/);
    const home = await failure(ws.resolve("~"));
    expect(home).toBeInstanceOf(WorkspaceEscapeError);
    expect(home!.message).toContain("home-directory paths are not expanded");
    // A name that only starts with ~ is an ordinary file name.
    expect(await ws.resolve("~notes")).toBe(path.join(ws.root, "~notes"));
  });

  it("refuses an empty or non-string root and an invalid protected path at creation", () => {
    expect(() => createWorkspace("")).toThrow(ToolConfigError);
    expect(() => createWorkspace(undefined as never)).toThrow(/non-empty path/);
    for (const given of ["", "a\0b", 7]) {
      expect(() => createWorkspace(root, { protectedPaths: [given as string] }), String(given)).toThrow(
        /protectedPaths holds an invalid path/,
      );
    }
  });

  it("shows the root as . and other paths relative with /", async () => {
    const ws = createWorkspace(root);
    expect(ws.display(ws.root)).toBe(".");
    expect(ws.display(await ws.resolve("src/a.txt"))).toBe("src/a.txt");
    expect(await ws.resolve(".")).toBe(ws.root);
  });

  it("resolves a path through a dangling symlink inside the root to where a write would land", async () => {
    const ws = createWorkspace(root);
    await symlink(path.join(root, "later"), path.join(root, "link"));
    expect(await ws.resolve("link")).toBe(path.join(ws.root, "later"));
    expect(await ws.resolve("link/deep/file.txt")).toBe(path.join(ws.root, "later", "deep", "file.txt"));
    // A link to a link, both dangling.
    await symlink(path.join(root, "link"), path.join(root, "link2"));
    expect(await ws.resolve("link2/x")).toBe(path.join(ws.root, "later", "x"));
  });

  it("treats a path through a file as not existing yet, and a symlink loop as invalid_path naming ELOOP", async () => {
    const ws = createWorkspace(root);
    expect(await ws.resolve("src/a.txt/inner")).toBe(path.join(ws.root, "src", "a.txt", "inner"));
    await symlink(path.join(root, "loop-b"), path.join(root, "loop-a"));
    await symlink(path.join(root, "loop-a"), path.join(root, "loop-b"));
    const error = await failure(ws.resolve("loop-a/x"));
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error!.message).toMatch(/cannot be resolved \(ELOOP\)/);
  });

  it("refuses writes under a protected path that does not exist yet, and under .heddle in any case", async () => {
    const ws = createWorkspace(root, { protectedPaths: ["secrets"] });
    expect(await failure(ws.resolveWritable("secrets/new.txt"))).toBeInstanceOf(ProtectedPathError);
    expect(await failure(ws.resolveWritable(".HEDDLE/settings.json"))).toBeInstanceOf(ProtectedPathError);
    expect(await ws.resolveWritable("src/a.txt")).toBe(path.join(ws.root, "src", "a.txt"));
  });
});

describe("writeFileAtomic", () => {
  it("refuses a folder as is_directory", async () => {
    const error = await failure(writeFileAtomic(path.join(root, "src"), "x"));
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error!.code).toBe("is_directory");
  });
});
