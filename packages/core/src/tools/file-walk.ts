import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { glob } from "tinyglobby";
import type { Workspace } from "../workspace/index.js";
import { ToolInputError, WorkspaceEscapeError } from "../workspace/index.js";
import { readRegularFile } from "./regular-file.js";

/** Folders no listing or search ever walks into. */
export const ALWAYS_IGNORED = ["**/.git/**", "**/node_modules/**"];

/** Files under `dir` (a real path inside the workspace) matching `pattern`, minus `.gitignore`d ones. */
export interface WalkOptions {
  dir: string;
  /** A glob relative to `dir`; default every file. */
  pattern?: string;
}

/** Paths relative to the workspace root with `/` separators, sorted. */
export async function walkWorkspaceFiles(workspace: Workspace, options: WalkOptions): Promise<string[]> {
  const pattern = options.pattern ?? "**/*";
  checkPattern(workspace, pattern);
  const found = await glob(pattern, {
    cwd: options.dir,
    dot: true,
    onlyFiles: true,
    // Symlinks are not walked: one could lead out of the workspace.
    followSymbolicLinks: false,
    ignore: ALWAYS_IGNORED,
  });
  const isIgnored = await loadGitignore(workspace);
  const files: string[] = [];
  for (const relToDir of found) {
    const rel = workspace.display(path.join(options.dir, relToDir));
    if (rel.startsWith("../") || rel === "..") continue;
    if (!isIgnored(rel)) files.push(rel);
  }
  return files.sort();
}

function checkPattern(workspace: Workspace, pattern: string): void {
  if (pattern.length === 0) throw new ToolInputError("invalid_pattern", "The glob pattern is empty.");
  if (path.isAbsolute(pattern) || pattern.split(/[\\/]/).includes("..")) {
    throw new WorkspaceEscapeError(pattern, workspace.root, "glob patterns must stay inside the folder searched");
  }
}

/**
 * Every `.gitignore` in the workspace, applied the way git does: each file's rules are relative to its folder,
 * and a deeper file may re-include (`!pattern`) what a shallower one ignored.
 */
export async function loadGitignore(workspace: Workspace): Promise<(relPath: string) => boolean> {
  const ignoreFiles = await glob("**/.gitignore", {
    cwd: workspace.root,
    dot: true,
    followSymbolicLinks: false,
    ignore: ALWAYS_IGNORED,
  });
  const rules: Array<{ base: string; matcher: Ignore }> = [];
  for (const file of ignoreFiles) {
    // A .gitignore that is a FIFO or a device would block the read: only a regular file counts.
    const text = await readRegularFile(path.join(workspace.root, file), file, 1024 * 1024)
      .then((bytes) => bytes.toString("utf8"))
      .catch(() => "");
    const base = path.posix.dirname(file.split(path.sep).join("/"));
    rules.push({ base: base === "." ? "" : `${base}/`, matcher: ignore().add(text) });
  }
  rules.sort((a, b) => a.base.length - b.base.length);
  return (relPath) => {
    let ignored = false;
    for (const { base, matcher } of rules) {
      if (!relPath.startsWith(base)) continue;
      const result = matcher.test(relPath.slice(base.length));
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  };
}
