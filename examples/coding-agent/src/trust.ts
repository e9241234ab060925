import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { projectConfigState } from "./trust-hash.js";

/**
 * Folder trust: a cloned repository's `.heddle/settings.json` and Claude Code's `.claude/settings.json` and
 * `.claude/settings.local.json` (command hooks) and `.heddle/mcp.json` (MCP servers) run commands with the user's rights, so the host runs them only once the user has trusted the folder.
 * Trust is remembered per folder (its real path) AND per content hash of those files and of every workspace file
 * their commands name (trust-hash.ts), outside the workspace (`$XDG_CONFIG_HOME/heddle/trusted.json`, else
 * `~/.heddle/trusted.json`): a changed byte in any of them asks again. A command that names a workspace path that
 * cannot be hashed is never trusted for good (asked each time), and a config file that is not a regular file (a
 * FIFO) is never read: nothing of it runs.
 */

export { CLAUDE_CONFIG_FILES, PROJECT_CONFIG_FILES, projectConfigFiles, projectConfigState } from "./trust-hash.js";

export interface FolderTrust {
  /** The folder's real path, the key trust is stored under. */
  folder: string;
  /** sha256 over the config files and the files their commands name (absent files count too). */
  hash: string;
  /** The config files that exist. Empty: nothing to trust, nothing runs. */
  configFiles: string[];
  /** Workspace files the hooks and MCP servers run, covered by the hash (absolute paths). */
  referencedFiles: string[];
  /** Named workspace paths that cannot be hashed, with why: the folder cannot be trusted for good. */
  unhashable: string[];
  /** Config files that are special files (a FIFO, ...): refused, even with --trust. */
  refused: string[];
  /** The stored trust matches this hash, and everything could be hashed. */
  trusted: boolean;
  /** The folder was trusted before, with other contents. */
  changed: boolean;
}

interface TrustStore {
  version: 1;
  folders: { [realPath: string]: { hash: string; trustedAt: string } };
}

/** Where trust is stored: `$XDG_CONFIG_HOME/heddle/trusted.json`, else `~/.heddle/trusted.json`. */
export function trustStoreFile(env: { [name: string]: string | undefined } = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "heddle", "trusted.json");
  return path.join(env.HOME || homedir(), ".heddle", "trusted.json");
}

/** The hash and the present config files of a folder (see `projectConfigState` for all it covers). */
export function projectConfigHash(folder: string): { hash: string; configFiles: string[] } {
  const { hash, configFiles } = projectConfigState(folder);
  return { hash, configFiles };
}

function readStore(file: string): TrustStore {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as TrustStore;
    if (parsed && typeof parsed.folders === "object" && parsed.folders !== null) return parsed;
  } catch {
    // Missing or unreadable: nothing is trusted.
  }
  return { version: 1, folders: {} };
}

/** Whether `folder` is trusted with its current config files and the files their commands run. */
export function checkFolderTrust(
  folder: string,
  storeFile = trustStoreFile(),
  options: { claude?: boolean } = {},
): FolderTrust {
  const real = realpathSync(folder);
  const state = projectConfigState(real, options);
  const stored = readStore(storeFile).folders[real];
  const checkable = state.unhashable.length === 0 && state.refused.length === 0;
  return {
    folder: real,
    ...state,
    trusted: checkable && stored?.hash === state.hash,
    changed: !!stored && stored.hash !== state.hash,
  };
}

/** Remembers that the user trusts `folder` with the config files whose hash is `hash`. */
export function trustFolder(folder: string, hash: string, storeFile = trustStoreFile()): void {
  const store = readStore(storeFile);
  store.folders[realpathSync(folder)] = { hash, trustedAt: new Date().toISOString() };
  mkdirSync(path.dirname(storeFile), { recursive: true, mode: 0o700 });
  const temp = `${storeFile}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, storeFile);
}

export interface ResolveTrustOptions {
  folder: string;
  /** `--trust`: trust the folder for this run without asking (not remembered). */
  trustFlag: boolean;
  /** Claude Code's settings files count (default true; false with `--no-claude`). */
  claude?: boolean;
  /** Asks the person; absent when no one is there (print mode, no terminal): the folder is then not trusted. */
  ask?: (question: string) => Promise<string>;
  /** One line for the person (a notice on stderr in print mode). */
  notice(line: string): void;
  storeFile?: string;
}

/**
 * Whether the folder's hooks and MCP servers may run now: yes with `--trust`, when trusted with these exact
 * files, or when the person says yes (remembered); otherwise no, with a one-line notice saying how to trust.
 * A folder without config files has nothing to run: `true`.
 */
export async function resolveFolderTrust(options: ResolveTrustOptions): Promise<boolean> {
  const storeFile = options.storeFile ?? trustStoreFile();
  const trust = checkFolderTrust(options.folder, storeFile, {
    ...(options.claude !== undefined && { claude: options.claude }),
  });
  if (trust.refused.length > 0) {
    // Never read, so nothing of it can run: not even --trust changes that.
    options.notice(
      `heddle-code: not running this folder's hooks and MCP servers: ${trust.refused.join("; ")}. ` +
        "Config files must be regular files.",
    );
    return false;
  }
  if (trust.configFiles.length === 0 || trust.trusted || options.trustFlag) return true;
  const files = trust.configFiles.join(" and ");
  const why =
    trust.unhashable.length > 0
      ? `run ${trust.unhashable.join(", ")}, which cannot be checked for changes, so you are asked each time`
      : trust.changed
        ? "changed since you trusted this folder (or a script they run did)"
        : "can run commands on your machine";
  if (!options.ask) {
    options.notice(
      `heddle-code: not running the hooks and MCP servers of ${files}: this folder is not trusted (${why}). ` +
        "Trust it by answering yes in an interactive session, or pass --trust.",
    );
    return false;
  }
  const answer = await options.ask(
    `${trust.folder}: ${files} ${why} (hooks run with your rights). Trust this folder and run them? [y/N] `,
  );
  if (answer === "y" || answer === "yes") {
    // Remembering a hash that does not cover everything would trust what it missed: yes for this run only.
    if (trust.unhashable.length === 0) trustFolder(trust.folder, trust.hash, storeFile);
    return true;
  }
  options.notice(`Not trusted: the hooks and MCP servers of ${files} stay off (restart to be asked again).`);
  return false;
}
