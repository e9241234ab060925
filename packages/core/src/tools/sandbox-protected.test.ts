import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bwrapArgs } from "../process/index.js";
import { createDefaultTools } from "./default-tools.js";
import { findTool, makeTempDir, runTool } from "./test-utils.js";

// A sandboxed command planting what runs later OUTSIDE the sandbox: the agent's settings, git hooks and config.
// Real bubblewrap, real git.
let root: string;
const cleanups: Array<() => Promise<void>> = [];
beforeEach(async () => {
  const made = await makeTempDir("heddle-sandbox-protected-");
  root = made.dir;
  cleanups.push(made.cleanup);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const sandboxedBash = (allowWrite?: string[]) =>
  findTool(
    createDefaultTools({ workspaceRoot: root, preset: "full", sandbox: allowWrite ? { allowWrite } : {} }),
    "bash",
  );
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

// What an attacker's command tries: a hook, core.hooksPath, a commondir that points git at its own config.
const PLANT_GIT = [
  "mkdir -p evil/hooks && printf '#!/bin/sh\\ntouch \"$PWD/pwned\"\\n' > evil/hooks/pre-commit && chmod +x evil/hooks/pre-commit",
  "printf '#!/bin/sh\\ntouch \"$PWD/pwned\"\\n' > .git/hooks/pre-commit; echo hook=$?",
  `printf '[core]\\n\\thooksPath = ${"$PWD"}/evil/hooks\\n' >> .git/config; echo config=$?`,
  "echo ../evil > .git/commondir; echo commondir=$?",
  "mv .git .git-old; echo moved=$?",
  "echo fine > fine.txt",
].join("; ");

describe("what runs outside the sandbox stays read-only inside it", () => {
  it("bwrapArgs alone keeps .heddle read-only even where it did not exist yet", () => {
    // A host that builds its own bubblewrap call from bwrapArgs (network "allow": no seccomp pipe needed).
    const run = spawnSync(
      "bwrap",
      [
        ...bwrapArgs({ workspaceRoot: root, network: "allow" }),
        "--",
        "/bin/sh",
        "-c",
        "mkdir -p .heddle; echo '{\"hooks\":{}}' > .heddle/settings.json; echo rc=$?",
      ],
      { encoding: "utf8", timeout: 20_000 },
    );
    expect(run.stdout).toMatch(/rc=[1-9]/);
    expect(existsSync(path.join(root, ".heddle", "settings.json"))).toBe(false);
  });

  it("a repository's hooks, config and commondir cannot be planted; git outside runs none of it", async () => {
    git(root, "init", "-q");
    git(root, "commit", "-q", "--allow-empty", "-m", "first");
    const configBefore = await readFile(path.join(root, ".git", "config"), "utf8");
    const out = await runTool(sandboxedBash(), { command: PLANT_GIT });
    for (const step of ["hook", "config", "commondir", "moved"]) expect(out).toMatch(new RegExp(`${step}=[1-9]`));
    expect(await readFile(path.join(root, "fine.txt"), "utf8")).toBe("fine\n");
    expect(await readFile(path.join(root, ".git", "config"), "utf8")).toBe(configBefore);
    expect(existsSync(path.join(root, ".git", "commondir"))).toBe(false);
    // The user's next commit, outside the sandbox, runs no code of the command's.
    git(root, "commit", "-q", "--allow-empty", "-m", "second");
    expect(existsSync(path.join(root, "pwned"))).toBe(false);
  }, 30_000);

  it("a linked worktree's .git file cannot be pointed at a folder of the command's", async () => {
    const main = await makeTempDir("heddle-sandbox-main-");
    cleanups.push(main.cleanup);
    git(main.dir, "init", "-q");
    git(main.dir, "commit", "-q", "--allow-empty", "-m", "first");
    git(main.dir, "worktree", "add", "-q", root);
    const gitFile = await readFile(path.join(root, ".git"), "utf8");
    const out = await runTool(sandboxedBash(), {
      command: "mkdir -p evil && echo 'gitdir: evil' > .git; echo rewrite=$?; rm -f .git; echo removed=$?",
    });
    expect(out).toMatch(/rewrite=[1-9]/);
    expect(out).toMatch(/removed=[1-9]/);
    expect(await readFile(path.join(root, ".git"), "utf8")).toBe(gitFile);
    expect(git(root, "rev-parse", "--git-dir").trim()).toContain(path.join(main.dir, ".git", "worktrees"));
  }, 30_000);

  it("a workspace without .git: the command cannot create a repository, and no .git is left behind", async () => {
    const out = await runTool(sandboxedBash(), {
      command: "git init -q; echo init=$?; mkdir .git/hooks; echo hooks=$?; echo ok > fine.txt",
    });
    expect(out).toMatch(/init=[1-9]/);
    expect(out).toMatch(/hooks=[1-9]/);
    expect(await readFile(path.join(root, "fine.txt"), "utf8")).toBe("ok\n");
    expect(existsSync(path.join(root, ".git"))).toBe(false);
  }, 30_000);

  it("allowWrite: ['.git'] is the opt-in that lets commands commit", async () => {
    git(root, "init", "-q");
    const out = await runTool(sandboxedBash([".git"]), {
      command: "git -c user.name=t -c user.email=t@example.com commit -q --allow-empty -m inside; echo commit=$?",
    });
    expect(out).toContain("commit=0");
    expect(git(root, "log", "--format=%s")).toContain("inside");
  }, 30_000);

  it("a symlinked .heddle is refused with a typed error before the command runs", async () => {
    await mkdir(path.join(root, "elsewhere"));
    await symlink("elsewhere", path.join(root, ".heddle"));
    await expect(
      runTool(sandboxedBash(), { command: "rm .heddle && mkdir .heddle && echo '{}' > .heddle/settings.json" }),
    ).rejects.toMatchObject({ code: "sandbox_unavailable", message: expect.stringMatching(/is a symlink/) });
    expect(existsSync(path.join(root, "elsewhere", "settings.json"))).toBe(false);
    expect(existsSync(path.join(root, ".heddle", "settings.json"))).toBe(false);
  }, 30_000);
});
