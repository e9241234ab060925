import { lstatSync, mkdirSync, readFileSync, realpathSync, rmdirSync } from "node:fs";
import path from "node:path";
import { SandboxUnavailableError } from "./sandbox-error.js";

/**
 * What stays read-only inside the sandbox's writable folders because it runs later OUTSIDE the sandbox:
 *
 * - the agent's own folder `.heddle/` (settings, hooks, MCP servers, sessions). It is created when missing, so a
 *   command cannot create `.heddle/settings.json` in a folder that did not exist when the sandbox was set up;
 * - the workspace's git metadata. A hook in `.git/hooks`, `core.hooksPath` or `core.fsmonitor` in `.git/config`,
 *   a `.git/commondir` that points git at another folder's config: each runs its command the next time the user
 *   runs git. Listing the dangerous files is not enough (`commondir` need not exist beforehand), so all of `.git`
 *   is read-only, like the folder it points to when `.git` is a file (a linked worktree) and that folder is
 *   writable. A workspace without `.git` gets an empty read-only one for the command's lifetime, so the command
 *   cannot create a repository whose hooks the user would run (`holdGitPlaceholder`). Listing `.git` in
 *   `allowWrite` lets commands commit, and gives up this protection.
 *
 * Both must be real folders (or `.git` a real file), not symlinks: a bind mount covers a symlink's target, and the
 * command could replace the link itself. A symlink is refused with `SandboxUnavailableError`.
 */
export const AGENT_FOLDER_NAME = ".heddle";
const GIT = ".git";

/** The agent's folder, created when missing; refused when it is a symlink or not a folder. */
export function ensureAgentFolder(workspaceRoot: string): string {
  const folder = path.join(workspaceRoot, AGENT_FOLDER_NAME);
  const kind = entryKind(folder);
  if (kind === "missing") mkdirSync(folder, { recursive: true });
  else if (kind !== "dir") throw refusal(folder, kind);
  return folder;
}

/**
 * The git paths to mount read-only: `.git` itself, and for a `.git` file the folders it names (its `gitdir:` and
 * that folder's `commondir`) that lie inside a writable root. Empty when `.git` is missing or writable by choice.
 */
export function gitMetadataPaths(workspaceRoot: string, writableRoots: readonly string[]): string[] {
  const dotGit = path.join(workspaceRoot, GIT);
  if (writableRoots.some((root) => root === dotGit)) return [];
  const kind = entryKind(dotGit);
  if (kind === "missing") return [];
  if (kind === "symlink" || kind === "other") throw refusal(dotGit, kind);
  const found = [dotGit];
  let gitDir = dotGit;
  if (kind === "file") {
    const named = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"))?.[1];
    if (!named) return found;
    gitDir = realOrSelf(path.resolve(workspaceRoot, named));
    found.push(gitDir);
  }
  const common = readIfFile(path.join(gitDir, "commondir"))?.trim();
  if (common) found.push(realOrSelf(path.resolve(gitDir, common)));
  const writable = (target: string) => writableRoots.some((root) => inside(target, root));
  return [...new Set(found.filter((target) => target === dotGit || writable(target)))];
}

// Placeholders this process made, and how many commands use each: the last one out removes it.
const placeholders = new Map<string, number>();

/**
 * When the workspace has no `.git`, creates an empty one to mount read-only while a command runs; returns the
 * function that removes it again once no command of this process needs it (only if still empty: a repository the
 * user made meanwhile stays). A crash leaves the empty folder, which git ignores.
 */
export function holdGitPlaceholder(workspaceRoot: string, writableRoots: readonly string[]): () => void {
  const dotGit = path.join(workspaceRoot, GIT);
  const held = placeholders.get(dotGit);
  if (held === undefined) {
    if (writableRoots.includes(dotGit) || entryKind(dotGit) !== "missing") return () => {};
    mkdirSync(dotGit);
  }
  placeholders.set(dotGit, (held ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (placeholders.get(dotGit) ?? 1) - 1;
    if (left > 0) {
      placeholders.set(dotGit, left);
      return;
    }
    placeholders.delete(dotGit);
    try {
      rmdirSync(dotGit);
    } catch {
      // Not empty (the user ran git init meanwhile) or gone: leave it.
    }
  };
}

type EntryKind = "missing" | "dir" | "file" | "symlink" | "other";

function entryKind(target: string): EntryKind {
  try {
    const info = lstatSync(target);
    if (info.isSymbolicLink()) return "symlink";
    if (info.isDirectory()) return "dir";
    return info.isFile() ? "file" : "other";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw error;
  }
}

function refusal(target: string, kind: EntryKind): SandboxUnavailableError {
  return new SandboxUnavailableError(
    `The sandbox cannot keep ${target} read-only: it is ${kind === "symlink" ? "a symlink" : "not a regular folder or file"}, ` +
      "and the command could replace it. Make it a real folder (or remove it) to run sandboxed commands here.",
  );
}

function readIfFile(file: string): string | undefined {
  try {
    return lstatSync(file).isFile() ? readFileSync(file, "utf8") : undefined;
  } catch {
    return undefined;
  }
}

function realOrSelf(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    return target;
  }
}

function inside(candidate: string, base: string): boolean {
  const rel = path.relative(base, candidate);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}
