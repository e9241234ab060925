import { createHash } from "node:crypto";
import { lstatSync, statSync } from "node:fs";
import path from "node:path";
import { fileKind, readRegularFileSync } from "@heddle/core/tools";
import { type NamedPath, pathsInArgument, pathsInShellCommand } from "./command-paths.js";

/** The project files that make a folder run commands, relative to the folder. */
export const PROJECT_CONFIG_FILES = [".heddle/settings.json", ".heddle/mcp.json"] as const;
/** Claude Code's settings files, whose hooks heddle-code runs too unless Claude Code's files are turned off. */
export const CLAUDE_CONFIG_FILES = [".claude/settings.json", ".claude/settings.local.json"] as const;

/** The config files a folder's trust covers: Heddle's, and Claude Code's unless `claude` is false. */
export function projectConfigFiles(options: { claude?: boolean } = {}): string[] {
  return [...PROJECT_CONFIG_FILES, ...(options.claude === false ? [] : CLAUDE_CONFIG_FILES)];
}

/** A referenced file larger than this is not read: the folder is then asked about each time. */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

/** What folder trust is about: the config files and every workspace file their commands run, hashed together. */
export interface ProjectConfigState {
  /** sha256 over the config files' and the referenced files' paths and full contents (absent files count too). */
  hash: string;
  /** The config files that exist (relative to the folder). */
  configFiles: string[];
  /** Workspace files the hooks' and MCP servers' commands name, hashed with the config (absolute paths). */
  referencedFiles: string[];
  /** Workspace paths the commands name that cannot be hashed, each with why: never trusted for good. */
  unhashable: string[];
  /** Config files that are not regular files (a FIFO, a socket, ...): never read, nothing of them runs. */
  refused: string[];
}

/**
 * Reads the folder's config files (never blocking on a special file) and the workspace files their commands name,
 * and hashes all of it. Any byte of any of them changing (a same-length edit too) changes the hash.
 */
export function projectConfigState(folder: string, options: { claude?: boolean } = {}): ProjectConfigState {
  const hash = createHash("sha256");
  const state: ProjectConfigState = { hash: "", configFiles: [], referencedFiles: [], unhashable: [], refused: [] };
  const parsed: { [file: string]: unknown } = {};
  for (const file of projectConfigFiles(options)) {
    const read = readForHash(path.join(folder, file));
    if (read.content) {
      state.configFiles.push(file);
      hash.update(`config\0${file}\0${read.content.length}\0`).update(read.content);
      parsed[file] = parseJson(read.content);
    } else if (read.missing) {
      // An absent Claude Code file adds nothing: a folder trusted before they were read keeps its hash.
      if ((PROJECT_CONFIG_FILES as readonly string[]).includes(file)) hash.update(`config\0${file}\0absent\0`);
    } else {
      state.refused.push(`${file} is ${read.problem}`);
      hash.update(`config\0${file}\0refused\0`);
    }
  }
  const named = [
    ...hookCommandPaths(parsed[".heddle/settings.json"], folder),
    ...CLAUDE_CONFIG_FILES.flatMap((file) => hookCommandPaths(parsed[file], folder)),
    ...mcpServerPaths(parsed[".heddle/mcp.json"], folder),
  ];
  const seen = new Set<string>();
  for (const reference of named.sort((a, b) => a.path.localeCompare(b.path))) {
    if (seen.has(reference.path)) continue;
    seen.add(reference.path);
    const shown = path.relative(folder, reference.path);
    if (!reference.exact) {
      state.unhashable.push(`${shown} (names a variable or a pattern)`);
      hash.update(`unhashable\0${shown}\0`);
      continue;
    }
    const read = readForHash(reference.path);
    if (read.content) {
      state.referencedFiles.push(reference.path);
      hash.update(`file\0${shown}\0${read.content.length}\0`).update(read.content);
    } else if (!reference.bare) {
      // A bare word that is no file is just a word (`npm test`); a path that cannot be read cannot be trusted.
      state.unhashable.push(`${shown} (${read.missing ? "does not exist" : read.problem})`);
      hash.update(`unhashable\0${shown}\0`);
    }
  }
  state.hash = hash.digest("hex");
  return state;
}

interface ReadResult {
  content?: Buffer;
  missing?: boolean;
  problem?: string;
}

function readForHash(file: string): ReadResult {
  try {
    const content = readRegularFileSync(file, file, MAX_HASHED_BYTES + 1);
    if (content.length > MAX_HASHED_BYTES) return { problem: "larger than 64 MiB" };
    return { content };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { missing: true };
    if (code === "not_regular_file") return { problem: `${describe(file)}, not a regular file` };
    return { problem: `unreadable: ${code ?? (error as Error).message}` };
  }
}

function describe(file: string): string {
  try {
    return fileKind(statSync(file));
  } catch {
    return fileKind(lstatSync(file));
  }
}

function parseJson(content: Buffer): unknown {
  try {
    return JSON.parse(content.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** Every `command` of every hook in a settings object (Claude Code's shape), run in the folder. */
function hookCommandPaths(settings: unknown, folder: string): NamedPath[] {
  const found: NamedPath[] = [];
  const hooks = (settings as { hooks?: unknown } | undefined)?.hooks;
  if (!hooks || typeof hooks !== "object") return found;
  for (const groups of Object.values(hooks)) {
    for (const group of Array.isArray(groups) ? groups : []) {
      const list = (group as { hooks?: unknown })?.hooks;
      for (const hook of Array.isArray(list) ? list : []) {
        const command = (hook as { command?: unknown })?.command;
        if (typeof command === "string") found.push(...pathsInShellCommand(command, folder));
      }
    }
  }
  return found;
}

/** An MCP server's command, arguments (a `-c` script split as shell) and environment values. */
function mcpServerPaths(config: unknown, folder: string): NamedPath[] {
  const found: NamedPath[] = [];
  const servers = (config as { mcpServers?: unknown } | undefined)?.mcpServers;
  if (!servers || typeof servers !== "object") return found;
  for (const server of Object.values(servers) as Array<{ [key: string]: unknown }>) {
    if (!server || typeof server.command !== "string") continue;
    // A relative cwd is resolved against the config file's folder, as loadMcpConfig does.
    const cwd =
      typeof server.cwd === "string"
        ? path.resolve(folder, ".heddle", server.cwd.replace(/\$\{?(HEDDLE|CLAUDE)_PROJECT_DIR\}?/g, folder))
        : folder;
    const args = Array.isArray(server.args) ? server.args.filter((a): a is string => typeof a === "string") : [];
    for (const [i, arg] of [server.command, ...args].entries()) {
      found.push(...pathsInArgument(arg, folder, cwd));
      if (i > 0 && /^-\w*c$/.test([server.command, ...args][i - 1] ?? "")) {
        found.push(...pathsInShellCommand(arg, folder, cwd));
      }
    }
    const env = server.env && typeof server.env === "object" ? Object.values(server.env) : [];
    for (const value of env) if (typeof value === "string") found.push(...pathsInShellCommand(value, folder, cwd));
  }
  return found;
}
