import { mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../tools/test-utils.js";
import { ToolConfigError, WorkspaceEscapeError } from "./errors.js";
import { createWorkspace, writeFileAtomic } from "./workspace.js";

let base: string;
let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: base, cleanup } = await makeTempDir());
  root = path.join(base, "ws");
  await mkdir(path.join(root, "src"), { recursive: true });
  await mkdir(path.join(base, "ws-evil"));
  await writeFile(path.join(base, "ws-evil", "secret.txt"), "secret");
  await writeFile(path.join(base, "outside.txt"), "outside");
});
afterEach(() => cleanup());

describe("workspace guard", () => {
  it("resolves relative, nested and absolute paths inside the root to real paths", async () => {
    const ws = createWorkspace(root);
    expect(await ws.resolve("src/a.ts")).toBe(path.join(ws.root, "src", "a.ts"));
    expect(await ws.resolve("src/../b.ts")).toBe(path.join(ws.root, "b.ts"));
    expect(await ws.resolve(path.join(root, "src"))).toBe(path.join(ws.root, "src"));
    expect(await ws.resolve("new/dir/file.txt")).toBe(path.join(ws.root, "new", "dir", "file.txt"));
  });

  it("refuses .. escapes, absolute paths outside and ~ with WorkspaceEscapeError naming the path", async () => {
    const ws = createWorkspace(root);
    await expect(ws.resolve("../outside.txt")).rejects.toThrow(WorkspaceEscapeError);
    await expect(ws.resolve("src/../../outside.txt")).rejects.toThrow(
      /"src\/..\/..\/outside.txt" is outside the workspace/,
    );
    await expect(ws.resolve("/etc/passwd")).rejects.toBeInstanceOf(WorkspaceEscapeError);
    await expect(ws.resolve("~/x")).rejects.toBeInstanceOf(WorkspaceEscapeError);
  });

  it("refuses a sibling folder whose name merely starts like the root", async () => {
    const ws = createWorkspace(root);
    await expect(ws.resolve("../ws-evil/secret.txt")).rejects.toBeInstanceOf(WorkspaceEscapeError);
    await expect(ws.resolve(path.join(base, "ws-evil", "secret.txt"))).rejects.toBeInstanceOf(WorkspaceEscapeError);
  });

  it("refuses symlinks that leave the root, for existing and not-yet-existing targets", async () => {
    await symlink(base, path.join(root, "up"));
    await symlink(path.join(base, "outside.txt"), path.join(root, "link.txt"));
    await symlink(path.join(base, "nowhere", "new.txt"), path.join(root, "dangling.txt"));
    const ws = createWorkspace(root);
    await expect(ws.resolve("up/outside.txt")).rejects.toThrow(/through a symlink/);
    await expect(ws.resolve("link.txt")).rejects.toBeInstanceOf(WorkspaceEscapeError);
    await expect(ws.resolve("up/brand-new/file.txt")).rejects.toBeInstanceOf(WorkspaceEscapeError);
    // Writing through a dangling link would create its target outside.
    await expect(ws.resolve("dangling.txt")).rejects.toBeInstanceOf(WorkspaceEscapeError);
  });

  it("follows a symlink that stays inside the root", async () => {
    await symlink(path.join(root, "src"), path.join(root, "alias"));
    const ws = createWorkspace(root);
    expect(await ws.resolve("alias/x.ts")).toBe(path.join(ws.root, "src", "x.ts"));
  });

  it("accepts a root given through a symlink", async () => {
    await symlink(root, path.join(base, "ws-link"));
    const ws = createWorkspace(path.join(base, "ws-link"));
    expect(await ws.resolve(path.join(base, "ws-link", "src"))).toBe(path.join(ws.root, "src"));
  });

  it("rejects a root that is not an existing directory", () => {
    expect(() => createWorkspace(path.join(base, "missing"))).toThrow(ToolConfigError);
    expect(() => createWorkspace(path.join(base, "outside.txt"))).toThrow(/not an existing directory/);
  });
});

describe("writeFileAtomic", () => {
  it("replaces a file whole and keeps its mode, leaving no temp file", async () => {
    const file = path.join(root, "run.sh");
    await writeFile(file, "old", { mode: 0o750 });
    await writeFileAtomic(file, "new content");
    expect(await readFile(file, "utf8")).toBe("new content");
    expect((await stat(file)).mode & 0o777).toBe(0o750);
    expect(await readdir(root)).toEqual(["run.sh", "src"]);
  });
});
