import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDefaultTools } from "./default-tools.js";
import { findTool, makeTempDir, runTool } from "./test-utils.js";

let root: string;
let cleanup: () => Promise<void>;
const fifos: string[] = [];

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir("heddle-fifo-"));
  await mkdir(path.join(root, "src"));
  await writeFile(path.join(root, "src", "a.txt"), "needle here\n");
  const fifo = path.join(root, "src", "pipe.txt");
  execFileSync("mkfifo", [fifo]);
  fifos.push(fifo);
});
afterEach(async () => {
  // Should a tool have opened a FIFO and blocked (the bug), a writer end releases it so the process can exit.
  for (const fifo of fifos.splice(0)) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {}
  }
  await cleanup();
});

const tool = (name: string, search = {}) =>
  findTool(createDefaultTools({ workspaceRoot: root, preset: "full", search }), name);

describe("a FIFO in the workspace never blocks a file tool", () => {
  it("read_file, edit_file and write_file refuse it (five times: the thread pool stays free)", async () => {
    for (let i = 0; i < 5; i++) {
      await expect(runTool(tool("read_file"), { path: "src/pipe.txt" })).rejects.toMatchObject({
        code: "not_regular_file",
      });
      await expect(
        runTool(tool("edit_file"), { path: "src/pipe.txt", old_text: "a", new_text: "b" }),
      ).rejects.toMatchObject({ code: "not_regular_file" });
    }
    await expect(runTool(tool("write_file"), { path: "src/pipe.txt", content: "x" })).rejects.toMatchObject({
      code: "not_regular_file",
    });
    // Regular files still work afterwards.
    expect(await runTool(tool("read_file"), { path: "src/a.txt" })).toContain("needle here");
  }, 10_000);

  it("search skips it when walking (JS and ripgrep) and refuses it when named", async () => {
    // "rg", not "auto": a missing rg then shows up as a notice in the output instead of a second JS run.
    for (const ripgrep of [false, "rg"] as const) {
      for (let i = 0; i < 5; i++) {
        expect(await runTool(tool("search", { ripgrep }), { pattern: "needle" })).toBe("src/a.txt:1:needle here");
      }
      await expect(
        runTool(tool("search", { ripgrep }), { pattern: "needle", path: "src/pipe.txt" }),
      ).rejects.toMatchObject({ code: "not_regular_file" });
    }
  }, 10_000);

  it("a FIFO named .gitignore does not block list_files or search", async () => {
    execFileSync("mkfifo", [path.join(root, ".gitignore")]);
    fifos.push(path.join(root, ".gitignore"));
    expect(await runTool(tool("list_files"), {})).toContain("src/a.txt");
    expect(await runTool(tool("search", { ripgrep: false }), { pattern: "needle" })).toContain("src/a.txt");
  }, 10_000);
});
