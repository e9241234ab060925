import { existsSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { fileKind, readRegularFileSync } from "@heddle/core/tools";
import { type Conventions, homeDir, userConfigDir } from "./conventions.js";

/**
 * Project instructions: the `AGENTS.md` files (the cross-tool standard) and Claude Code's `CLAUDE.md`, read in one
 * documented order, most general first: the user's own file(s), then each folder from the repository root (the
 * nearest folder above the workspace with `.git`) down to the workspace, `AGENTS.md` before `CLAUDE.md` in a folder.
 * A later file is more specific and wins where they disagree. Files below the workspace are offered when the agent
 * works there (nested-instructions.ts).
 *
 * A repository is not trusted input: a file must be a regular file (a FIFO or device is never opened in a way that
 * blocks), a project file must resolve inside the repository (a symlink to `~/.ssh/id_rsa` is refused, so its
 * contents never reach the model), a file in a folder above the workspace must belong to the user (a stranger's
 * `/tmp/AGENTS.md` is not read), and sizes are bounded: 32 KiB per file, 64 KiB in all (the most general files give
 * way first).
 */

export const MAX_INSTRUCTION_FILE_BYTES = 32 * 1024;
export const MAX_INSTRUCTIONS_BYTES = 64 * 1024;

export interface InstructionFile {
  /** As shown to the person and the model: relative to the workspace, or `~/...` for the user's own. */
  shown: string;
  /** Its real path. */
  file: string;
  scope: "user" | "project";
  text: string;
  /** Its size on disk. */
  bytes: number;
  /** Cut to the per-file or total bound. */
  truncated: boolean;
}

export interface ProjectInstructions {
  files: InstructionFile[];
  /** Files that were not read, or not read whole, each with why (said once at the start and in `/system-prompt`). */
  notes: string[];
}

type Env = { [name: string]: string | undefined };
type Read = { text: string; bytes: number; truncated: boolean } | { problem: string } | undefined;

/** The instruction file names of a folder, in reading order. */
export function instructionNames(conventions: Conventions): string[] {
  return conventions.claude ? ["AGENTS.md", "CLAUDE.md"] : ["AGENTS.md"];
}

/** The nearest folder at or above `workspaceRoot` that holds `.git` (a folder or a worktree's file). */
export function repositoryRoot(workspaceRoot: string): string | undefined {
  for (let dir = workspaceRoot; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Reads every instruction file that applies to the workspace, in order, within the bounds. */
export function loadProjectInstructions(
  workspaceRoot: string,
  conventions: Conventions,
  env: Env = process.env,
): ProjectInstructions {
  const notes: string[] = [];
  if (!conventions.instructions) return { files: [], notes };
  const workspace = realpathSync(workspaceRoot);
  const repo = repositoryRoot(workspace) ?? workspace;
  const candidates: Array<{
    file: string;
    shown: string;
    scope: "user" | "project";
    confine?: string;
    ownedByUser?: boolean;
  }> = [];
  const home = homeDir(env);
  const tilde = (file: string) => (file.startsWith(`${home}${path.sep}`) ? `~${file.slice(home.length)}` : file);
  for (const file of [
    path.join(userConfigDir(env), "AGENTS.md"),
    ...(conventions.claude ? [path.join(home, ".claude", "CLAUDE.md")] : []),
  ])
    candidates.push({ file, shown: tilde(file), scope: "user" });
  const folders: string[] = [];
  for (let dir = workspace; ; dir = path.dirname(dir)) {
    folders.unshift(dir);
    if (dir === repo || path.dirname(dir) === dir) break;
  }
  for (const dir of folders)
    for (const name of instructionNames(conventions)) {
      const file = path.join(dir, name);
      candidates.push({
        file,
        shown: path.relative(workspace, file),
        scope: "project",
        confine: repo,
        ownedByUser: dir !== workspace,
      });
    }

  const read: InstructionFile[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    const result = readInstructionFile(candidate.file, candidate.shown, candidate);
    if (result === undefined) continue;
    if ("problem" in result) {
      notes.push(`${candidate.shown} not read: ${result.problem}`);
      continue;
    }
    const real = realpathSync(candidate.file);
    // CLAUDE.md is often a symlink to (or a copy of) AGENTS.md: it is read once.
    if (seen.has(real) || seen.has(`text:${result.text}`)) continue;
    seen.add(real).add(`text:${result.text}`);
    if (result.truncated) notes.push(`${candidate.shown} is ${result.bytes} bytes: only its first 32 KiB are read`);
    read.push({ shown: candidate.shown, file: real, scope: candidate.scope, ...result });
  }
  return { files: withinBudget(read, notes), notes };
}

/** The files that fit in `MAX_INSTRUCTIONS_BYTES`, the most specific (last) first; the others cut or left out. */
function withinBudget(files: InstructionFile[], notes: string[]): InstructionFile[] {
  let left = MAX_INSTRUCTIONS_BYTES;
  const kept: InstructionFile[] = [];
  for (const file of [...files].reverse()) {
    const size = Buffer.byteLength(file.text);
    if (left <= 0) {
      notes.push(`${file.shown} left out: the instruction files passed 64 KiB in all`);
      continue;
    }
    if (size > left) {
      notes.push(`${file.shown} cut: the instruction files passed 64 KiB in all`);
      kept.unshift({ ...file, text: Buffer.from(file.text).subarray(0, left).toString("utf8"), truncated: true });
      left = 0;
      continue;
    }
    left -= size;
    kept.unshift(file);
  }
  return kept;
}

/**
 * One instruction file, bounded; `undefined` when there is none. `confine`: its real path must be inside this folder.
 * `ownedByUser`: it must belong to the user running heddle-code.
 */
export function readInstructionFile(
  file: string,
  shown: string,
  rules: { confine?: string; ownedByUser?: boolean } = {},
): Read {
  let real: string;
  try {
    real = realpathSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    return { problem: `unreadable (${code})` };
  }
  if (rules.confine !== undefined && !inside(real, realpathSync(rules.confine)))
    return { problem: `it is a link to ${real}, outside ${rules.confine}` };
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(real);
  } catch (error) {
    return { problem: `unreadable (${(error as NodeJS.ErrnoException).code})` };
  }
  if (info.isDirectory()) return undefined;
  if (!info.isFile()) return { problem: `it is ${fileKind(info)}, not a regular file` };
  if (rules.ownedByUser && typeof process.getuid === "function" && info.uid !== process.getuid())
    return { problem: "it belongs to another user" };
  try {
    const bytes = readRegularFileSync(real, shown, MAX_INSTRUCTION_FILE_BYTES);
    const text = bytes.toString("utf8").replace(/\r\n/g, "\n").trim();
    return { text, bytes: info.size, truncated: info.size > MAX_INSTRUCTION_FILE_BYTES };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return {
      problem: code === "not_regular_file" ? "not a regular file" : `unreadable (${code ?? (error as Error).message})`,
    };
  }
}

/** The instructions as the system prompt carries them: one block per file, most general first. */
export function formatInstructions(files: readonly InstructionFile[]): string {
  if (files.length === 0) return "";
  const blocks = files.map(
    (file) =>
      `<instructions file="${file.shown}"${file.scope === "user" ? ' scope="user"' : ""}>\n${file.text}${file.truncated ? "\n[… cut here: the file is longer]" : ""}\n</instructions>`,
  );
  return [
    "# Project instructions",
    "These come from AGENTS.md / CLAUDE.md files: the user's own first, then the repository's from its root down to the workspace. Where they disagree, the later (more specific) file wins, and the user's requests in this conversation win over all of them.",
    ...blocks,
  ].join("\n\n");
}

function inside(candidate: string, base: string): boolean {
  const rel = path.relative(base, candidate);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}
