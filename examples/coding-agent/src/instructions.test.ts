import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadProjectInstructions } from "./instructions.js";

let base: string;
const on = { instructions: true, skills: true, claude: true };
const env = () => ({ HOME: join(base, "home"), XDG_CONFIG_HOME: join(base, "config") });
const write = (file: string, text: string) => {
  mkdirSync(dirname(join(base, file)), { recursive: true });
  writeFileSync(join(base, file), text);
};
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "heddle-instructions-"));
  mkdirSync(join(base, "repo", ".git"), { recursive: true });
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(base, { recursive: true, force: true });
});

describe("project instructions", () => {
  it("reads a CLAUDE.md that links to the AGENTS.md beside it once", () => {
    write("repo/AGENTS.md", "the rules");
    symlinkSync(join(base, "repo", "AGENTS.md"), join(base, "repo", "CLAUDE.md"));
    const { files } = loadProjectInstructions(join(base, "repo"), on, env());
    expect(files.map((f) => [f.shown, f.text])).toEqual([["AGENTS.md", "the rules"]]);
  });

  it("past 64 KiB in all, the most general files give way first", () => {
    write("config/heddle/AGENTS.md", "u".repeat(30 * 1024));
    write("repo/AGENTS.md", "r".repeat(30 * 1024));
    write("repo/app/AGENTS.md", "a".repeat(30 * 1024));
    const { files, notes } = loadProjectInstructions(join(base, "repo", "app"), on, env());
    expect(files.map((f) => [f.shown, f.text.length, f.truncated])).toEqual([
      [join(base, "config", "heddle", "AGENTS.md"), 4 * 1024, true],
      ["../AGENTS.md", 30 * 1024, false],
      ["AGENTS.md", 30 * 1024, false],
    ]);
    expect(notes).toContain(
      `${join(base, "config", "heddle", "AGENTS.md")} cut: the instruction files passed 64 KiB in all`,
    );
  });

  it("a file in a folder above the workspace that belongs to another user is not read; the workspace's own is", () => {
    write("repo/AGENTS.md", "planted by someone else");
    write("repo/app/AGENTS.md", "the app's rules");
    // As if this process ran as another user than the files' owner.
    vi.spyOn(process, "getuid").mockReturnValue(424242);
    const { files, notes } = loadProjectInstructions(join(base, "repo", "app"), on, env());
    expect(files.map((f) => f.text)).toEqual(["the app's rules"]);
    expect(notes).toContain("../AGENTS.md not read: it belongs to another user");
  });
});
