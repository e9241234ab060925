import { mkdir, realpath, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { isHeddleError } from "@heddle/shared";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../tools/test-utils.js";
import { createWorkspace, type Workspace } from "./workspace.js";

// Property tests: whatever path a model sends, the workspace either resolves it to a real path inside its root
// or refuses it with a typed error. Never a path outside, never an untyped crash.
let parent: string;
let root: string;
let cleanup: () => Promise<void>;
let workspace: Workspace;

beforeAll(async () => {
  const temp = await makeTempDir("heddle-prop-");
  cleanup = temp.cleanup;
  parent = await realpath(temp.dir);
  root = path.join(parent, "ws");
  await mkdir(path.join(root, "sub", "deep"), { recursive: true });
  await mkdir(path.join(root, ".heddle"));
  await mkdir(path.join(parent, "ws-evil"));
  await writeFile(path.join(parent, "ws-evil", "secret"), "x");
  await writeFile(path.join(root, "sub", "file.txt"), "x");
  await symlink(path.join(parent, "ws-evil"), path.join(root, "out"));
  await symlink("../ws-evil/new", path.join(root, "dangling"));
  await symlink("/etc", path.join(root, "etc"));
  await symlink("sub/deep", path.join(root, "in"));
  await symlink(".heddle", path.join(root, "cfg"));
  await symlink("loop2", path.join(root, "loop1"));
  await symlink("loop1", path.join(root, "loop2"));
  workspace = createWorkspace(root);
});
afterAll(() => cleanup());

const segment = fc.oneof(
  fc.constantFrom("..", ".", "", "sub", "deep", "file.txt", "out", "dangling", "etc", "in", "cfg", "loop1"),
  fc.constantFrom("ws-evil", "ws", "ws-evil/secret", ".heddle", ".HEDDLE", "~", "\0", "a\0b", "..."),
  fc.constantFrom("é", "日本", "🙂", "\u202e", "ﬁ", "a\\b", " ", "\n"),
  fc.string({ maxLength: 12 }),
  fc.string({ minLength: 200, maxLength: 300 }),
);
const hostilePath = fc
  .tuple(
    fc.constantFrom("", "/", "./", "~/", "PARENT/", "ROOT/", "ROOT-evil/", "//"),
    fc.array(segment, { minLength: 0, maxLength: 8 }),
    fc.constantFrom("/", "//", "/./"),
  )
  .map(([prefix, parts, separator]) => prefix.replace("PARENT", parent).replace("ROOT", root) + parts.join(separator));

const inside = (real: string) => real === root || real.startsWith(`${root}${path.sep}`);

describe("workspace path resolution on hostile paths", () => {
  it("resolves inside the root or refuses with a HeddleError", async () => {
    await fc.assert(
      fc.asyncProperty(hostilePath, async (given) => {
        let real: string;
        try {
          real = await workspace.resolve(given);
        } catch (error) {
          expect(isHeddleError(error), `${JSON.stringify(given)}: ${String(error)}`).toBe(true);
          return;
        }
        expect(inside(real), `${JSON.stringify(given)} -> ${real}`).toBe(true);
      }),
      { numRuns: Number(process.env.HEDDLE_PROPERTY_RUNS ?? 400) },
    );
  }, 60_000);

  it("resolveWritable never returns a path in .heddle/", async () => {
    const guard = path.join(root, ".heddle").toLowerCase();
    await fc.assert(
      fc.asyncProperty(hostilePath, async (given) => {
        let real: string;
        try {
          real = await workspace.resolveWritable(given);
        } catch (error) {
          expect(isHeddleError(error), `${JSON.stringify(given)}: ${String(error)}`).toBe(true);
          return;
        }
        expect(inside(real)).toBe(true);
        const lower = real.toLowerCase();
        expect(lower === guard || lower.startsWith(`${guard}/`), `${JSON.stringify(given)} -> ${real}`).toBe(false);
      }),
      { numRuns: Number(process.env.HEDDLE_PROPERTY_RUNS ?? 400) },
    );
  }, 60_000);

  it("known escapes are refused", async () => {
    for (const given of ["../ws-evil/secret", `${root}-evil/secret`, "out/secret", "dangling", "etc/passwd", "~/x"]) {
      await expect(workspace.resolve(given), given).rejects.toMatchObject({ code: "workspace_escape" });
    }
    await expect(workspace.resolve("a\0b")).rejects.toMatchObject({ code: "invalid_path" });
    // Found by the property above: a symlink loop was an untyped ELOOP.
    await expect(workspace.resolve("loop1/x")).rejects.toMatchObject({ code: "invalid_path" });
  });
});
