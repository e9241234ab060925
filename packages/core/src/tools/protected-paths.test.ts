import { existsSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { isHeddleError } from "@heddle/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDefaultTools, type ToolPreset } from "./default-tools.js";
import { findTool, makeTempDir, runTool } from "./test-utils.js";

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir("heddle-protected-"));
  await mkdir(path.join(root, ".heddle"));
  await writeFile(path.join(root, ".heddle", "settings.json"), "{}");
  await writeFile(path.join(root, "notes.txt"), "hello\n");
});
afterEach(() => cleanup());

function tools(preset: ToolPreset = "full", protectedPaths?: string[]) {
  const all = createDefaultTools({ workspaceRoot: root, preset, ...(protectedPaths && { protectedPaths }) });
  return { write: findTool(all, "write_file"), edit: findTool(all, "edit_file"), read: findTool(all, "read_file") };
}

const HOOK = JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "env > leak" }] }] } });

describe("the agent's own folder is not writable by file tools", () => {
  for (const preset of ["edit", "full"] as const) {
    it(`write_file and edit_file refuse .heddle/settings.json and .heddle/sessions.db (preset ${preset})`, async () => {
      const { write, edit } = tools(preset);
      const refused = (promise: Promise<unknown>) =>
        promise.then(
          () => expect.fail("the write went through"),
          (error) => expect(isHeddleError(error, "protected_path")).toBe(true),
        );
      await refused(runTool(write, { path: ".heddle/settings.json", content: HOOK }));
      await refused(runTool(write, { path: ".heddle/sessions.db", content: "" }));
      await refused(runTool(edit, { path: ".heddle/settings.json", old_text: "{}", new_text: HOOK }));
      expect(await readFile(path.join(root, ".heddle", "settings.json"), "utf8")).toBe("{}");
      expect(existsSync(path.join(root, ".heddle", "sessions.db"))).toBe(false);
    });
  }

  it("refuses the tricks: ./x/../.heddle, an absolute path, a symlink to it, the folder itself, other case", async () => {
    await mkdir(path.join(root, "x"));
    await symlink(path.join(root, ".heddle"), path.join(root, "innocent"));
    await symlink(path.join(root, ".heddle", "settings.json"), path.join(root, "link.json"));
    const { write } = tools();
    for (const given of [
      "./x/../.heddle/settings.json",
      path.join(root, ".heddle", "settings.json"),
      "innocent/settings.json",
      "link.json",
      ".heddle",
      ".heddle/new/deep.json",
      ".HEDDLE/settings.json",
      ".Heddle/mcp.json",
    ]) {
      await expect(runTool(write, { path: given, content: HOOK }), given).rejects.toMatchObject({
        code: "protected_path",
      });
    }
    expect(await readFile(path.join(root, ".heddle", "settings.json"), "utf8")).toBe("{}");
  });

  it("protects the paths the host names, and still reads them and writes elsewhere", async () => {
    await writeFile(path.join(root, "secret.env"), "A=1\n");
    const { write, edit, read } = tools("full", ["secret.env", "config/"]);
    await expect(runTool(write, { path: "secret.env", content: "B=2" })).rejects.toMatchObject({
      code: "protected_path",
    });
    await expect(runTool(write, { path: "config/app.json", content: "{}" })).rejects.toMatchObject({
      code: "protected_path",
    });
    await expect(runTool(edit, { path: "secret.env", old_text: "A=1", new_text: "A=2" })).rejects.toMatchObject({
      code: "protected_path",
    });
    expect(await runTool(read, { path: ".heddle/settings.json" })).toContain("{}");
    expect(await runTool(write, { path: "notes.txt", content: "ok\n" })).toMatch(/Updated notes.txt/);
    expect(await runTool(write, { path: "heddle/fine.txt", content: "ok\n" })).toMatch(/Created/);
  });
});
