import { randomBytes } from "node:crypto";
import { realpathSync, statSync } from "node:fs";
import { chmod, lstat, readlink, realpath, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { ProtectedPathError, ToolConfigError, ToolInputError, WorkspaceEscapeError } from "./errors.js";

/** A workspace root that every file tool resolves its paths against. */
export interface Workspace {
  /** The root after following symlinks. */
  readonly root: string;
  /**
   * The real absolute path of `input` (relative to the root, or absolute), following every symlink, including
   * those of a path that does not exist yet. Throws `WorkspaceEscapeError` when it lands outside the root.
   */
  resolve(input: string): Promise<string>;
  /**
   * `resolve`, then refuses (`ProtectedPathError`) a path in the agent's own folder (`.heddle/`) or in one of the
   * workspace's `protectedPaths`. What write_file and edit_file use.
   */
  resolveWritable(input: string): Promise<string>;
  /** A real path inside the root, shown relative to it (`.` for the root itself), with `/` separators. */
  display(realPath: string): string;
}

export interface WorkspaceOptions {
  /**
   * Paths (relative to the root, or absolute) that file tools may read but never write, on top of `.heddle/`,
   * which is always protected.
   */
  protectedPaths?: readonly string[];
}

/** The agent's own folder under a workspace: settings, hooks, sessions, MCP config. */
export const AGENT_FOLDER = ".heddle";

const MAX_LINK_HOPS = 40;

/** Opens a workspace at `root`, which must be an existing directory. */
export function createWorkspace(root: string, options: WorkspaceOptions = {}): Workspace {
  if (typeof root !== "string" || root.length === 0) {
    throw new ToolConfigError("workspaceRoot must be a non-empty path to an existing directory.");
  }
  let realRoot: string | undefined;
  try {
    realRoot = realpathSync(path.resolve(root));
    if (!statSync(realRoot).isDirectory()) realRoot = undefined;
  } catch {
    realRoot = undefined;
  }
  if (realRoot === undefined) {
    throw new ToolConfigError(`workspaceRoot ${JSON.stringify(root)} is not an existing directory.`);
  }
  const lexicalRoot = path.resolve(root);

  const inside = (candidate: string, base: string): boolean => {
    // path.relative, not startsWith: "/ws-evil" starts like "/ws" but is a sibling.
    const rel = path.relative(base, candidate);
    return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
  };

  const guarded = [AGENT_FOLDER, ...(options.protectedPaths ?? [])].map((given) => {
    if (typeof given !== "string" || given.length === 0 || given.includes("\0")) {
      throw new ToolConfigError(`protectedPaths holds an invalid path: ${JSON.stringify(given)}.`);
    }
    return path.resolve(realRoot, given);
  });
  // A protected path that is (or runs through) a symlink is guarded under its real path as well as its own.
  const protectedReal = async (): Promise<string[]> => {
    const all = new Set<string>();
    for (const lexical of guarded) {
      all.add(lexical);
      all.add(await realpathDeep(lexical).catch(() => lexical));
    }
    return [...all];
  };

  const workspace: Workspace = {
    root: realRoot,
    async resolveWritable(input) {
      const real = await workspace.resolve(input);
      // Compared without case: on a case-insensitive disk (macOS, Windows) `.HEDDLE` is the same folder, and on
      // Linux refusing a look-alike costs nothing.
      const target = real.toLowerCase();
      for (const guard of await protectedReal()) {
        if (inside(target, guard.toLowerCase())) throw new ProtectedPathError(input, guard);
      }
      return real;
    },
    async resolve(input) {
      if (typeof input !== "string" || input.length === 0) {
        throw new ToolInputError("invalid_path", "The path is empty: give a path relative to the workspace root.");
      }
      if (input.includes("\0")) throw new ToolInputError("invalid_path", "The path contains a NUL byte.");
      if (input === "~" || input.startsWith("~/")) {
        throw new WorkspaceEscapeError(input, realRoot, "home-directory paths are not expanded");
      }
      // An absolute path may name the root as given (a symlinked root such as /tmp on macOS) or as its real path.
      const candidate = path.isAbsolute(input) ? path.resolve(input) : path.resolve(realRoot, input);
      if (!inside(candidate, realRoot) && !inside(candidate, lexicalRoot)) {
        throw new WorkspaceEscapeError(input, realRoot);
      }
      let real: string;
      try {
        real = await realpathDeep(candidate);
      } catch (error) {
        if (error instanceof ToolInputError) throw error;
        // A symlink loop (ELOOP), a name too long, a folder we may not enter: refused, with a code.
        const code = (error as NodeJS.ErrnoException)?.code ?? "error";
        throw new ToolInputError("invalid_path", `The path ${JSON.stringify(input)} cannot be resolved (${code}).`);
      }
      if (!inside(real, realRoot)) {
        throw new WorkspaceEscapeError(input, realRoot, `it resolves to ${real} through a symlink`);
      }
      return real;
    },
    display(realPath) {
      const rel = path.relative(realRoot, realPath);
      return rel === "" ? "." : rel.split(path.sep).join("/");
    },
  };
  return workspace;
}

/**
 * realpath for a path that may not exist yet: the real path of its deepest existing ancestor plus the rest.
 * A dangling symlink on the way is followed by hand, since writing through it would create its target.
 */
async function realpathDeep(target: string, hops = 0): Promise<string> {
  if (hops > MAX_LINK_HOPS) throw new ToolInputError("invalid_path", `Too many symlinks while resolving ${target}.`);
  const tail: string[] = [];
  let current = target;
  for (;;) {
    try {
      const real = await realpath(current);
      return tail.length === 0 ? real : path.join(real, ...tail.reverse());
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    const link = await lstat(current).catch(() => undefined);
    if (link?.isSymbolicLink()) {
      const pointed = path.resolve(path.dirname(current), await readlink(current));
      return realpathDeep(tail.length === 0 ? pointed : path.join(pointed, ...tail.reverse()), hops + 1);
    }
    const parent = path.dirname(current);
    if (parent === current) return target;
    tail.push(path.basename(current));
    current = parent;
  }
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Writes a file atomically: a temp file in the same folder, then a rename, so a reader or a crash never sees
 * half a file. An existing file keeps its mode.
 */
export async function writeFileAtomic(realPath: string, data: string | Uint8Array): Promise<void> {
  const existing = await stat(realPath).catch(() => undefined);
  if (existing?.isDirectory()) {
    throw new ToolInputError("is_directory", `${realPath} is a directory, not a file.`);
  }
  const temp = path.join(path.dirname(realPath), `.${path.basename(realPath)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeFile(temp, data);
    // chmod rather than writeFile's mode option, which the umask would trim.
    if (existing) await chmod(temp, existing.mode & 0o7777);
    await rename(temp, realPath);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}
