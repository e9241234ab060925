import { createHash } from "node:crypto";
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { defaultSessionDbPath, SqliteSessionStore } from "@heddle/core";
import { userDataDir } from "./conventions.js";

/**
 * Where a workspace's sessions live. By default outside the repository, in the user's data folder keyed by the
 * workspace (as other coding agents keep theirs): `$XDG_DATA_HOME/heddle/sessions/<folder name>-<hash of its real
 * path>/sessions.db`, else `~/.local/share/heddle/sessions/...`. So `git status` stays clean and no file tool hands
 * the session database to the model. `--sessions-in-project` (or `HEDDLE_SESSIONS=project`) keeps them in the
 * project's `.heddle/sessions.db`, as before. Transcripts for hooks (`transcript_path`) are kept beside them.
 */
export interface SessionStorage {
  /** The SQLite file. */
  dbPath: string;
  /** Where each session's JSONL transcript is written for hooks. */
  transcriptsDir: string;
  inProject: boolean;
}

type Env = { [name: string]: string | undefined };

/** The folder of a workspace's sessions in the user's data folder. */
export function userSessionsDir(workspaceRoot: string, env: Env = process.env): string {
  const real = realpathSync(workspaceRoot);
  const hash = createHash("sha256").update(real).digest("hex").slice(0, 16);
  const name =
    path
      .basename(real)
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .slice(0, 40) || "root";
  return path.join(userDataDir(env), "sessions", `${name}-${hash}`);
}

export function sessionStorage(workspaceRoot: string, inProject: boolean, env: Env = process.env): SessionStorage {
  if (inProject) {
    const dbPath = defaultSessionDbPath(workspaceRoot);
    return { dbPath, transcriptsDir: path.join(path.dirname(dbPath), "transcripts"), inProject };
  }
  const dir = userSessionsDir(workspaceRoot, env);
  return { dbPath: path.join(dir, "sessions.db"), transcriptsDir: path.join(dir, "transcripts"), inProject };
}

/** Opens the store (making its folder, private to the user, when it is outside the project). */
export function openStore(storage: SessionStorage): SqliteSessionStore {
  if (!storage.inProject) mkdirSync(path.dirname(storage.dbPath), { recursive: true, mode: 0o700 });
  return new SqliteSessionStore({ path: storage.dbPath });
}

/**
 * A project whose sessions were kept in `.heddle/sessions.db` (before sessions moved out): a line saying how to
 * reach them, or `undefined`.
 */
export function legacySessionsNotice(workspaceRoot: string, storage: SessionStorage): string | undefined {
  if (storage.inProject || !existsSync(defaultSessionDbPath(workspaceRoot))) return undefined;
  return "this project has older sessions in .heddle/sessions.db; run with --sessions-in-project to list or resume them";
}
