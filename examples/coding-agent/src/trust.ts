import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/**
 * Folder trust: a cloned repository's `.heddle/settings.json` (command hooks) and `.heddle/mcp.json` (MCP
 * servers) run commands with the user's rights, so the host runs them only once the user has trusted the folder.
 * Trust is remembered per folder (its real path) AND per content hash of those files, outside the workspace
 * (`$XDG_CONFIG_HOME/heddle/trusted.json`, else `~/.heddle/trusted.json`): a changed file asks again.
 */

/** The project files that make a folder run commands, relative to the folder. */
export const PROJECT_CONFIG_FILES = [".heddle/settings.json", ".heddle/mcp.json"] as const;

export interface FolderTrust {
  /** The folder's real path, the key trust is stored under. */
  folder: string;
  /** sha256 over the config files' names and contents (absent files count too). */
  hash: string;
  /** The config files that exist. Empty: nothing to trust, nothing runs. */
  configFiles: string[];
  /** The stored trust matches this hash. */
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

/** The hash and the present config files of a folder. */
export function projectConfigHash(folder: string): { hash: string; configFiles: string[] } {
  const hash = createHash("sha256");
  const configFiles: string[] = [];
  for (const file of PROJECT_CONFIG_FILES) {
    let content: Buffer | undefined;
    try {
      content = readFileSync(path.join(folder, file));
      configFiles.push(file);
    } catch {
      content = undefined;
    }
    hash.update(`${file}\0${content ? `present\0${content.length}\0` : "absent\0"}`);
    if (content) hash.update(content);
  }
  return { hash: hash.digest("hex"), configFiles };
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

/** Whether `folder` is trusted with its current config files. */
export function checkFolderTrust(folder: string, storeFile = trustStoreFile()): FolderTrust {
  const real = realpathSync(folder);
  const { hash, configFiles } = projectConfigHash(real);
  const stored = readStore(storeFile).folders[real];
  return { folder: real, hash, configFiles, trusted: stored?.hash === hash, changed: !!stored && stored.hash !== hash };
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
  const trust = checkFolderTrust(options.folder, storeFile);
  if (trust.configFiles.length === 0 || trust.trusted || options.trustFlag) return true;
  const files = trust.configFiles.join(" and ");
  const why = trust.changed ? "changed since you trusted this folder" : "can run commands on your machine";
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
    trustFolder(trust.folder, trust.hash, storeFile);
    return true;
  }
  options.notice(`Not trusted: the hooks and MCP servers of ${files} stay off (restart to be asked again).`);
  return false;
}
