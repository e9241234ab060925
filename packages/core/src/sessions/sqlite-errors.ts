import { accessSync, constants, existsSync } from "node:fs";
import { dirname } from "node:path";
import { SessionStoreError, type SessionStoreErrorCode } from "./errors.js";

/**
 * The session database file cannot be used: it is not a database or is damaged (`database_corrupt`), cannot be
 * written (`database_read_only`), or cannot be opened or read for another reason (`database_unavailable`). The
 * message names the file and says what to do; `sqliteCode` keeps SQLite's own code.
 */
export class SessionDatabaseError extends SessionStoreError {
  readonly path: string;
  readonly sqliteCode: string | undefined;
  constructor(code: SessionStoreErrorCode, path: string, message: string, cause?: unknown) {
    super(code, message, { cause });
    this.name = "SessionDatabaseError";
    this.path = path;
    this.sqliteCode = (cause as { code?: unknown } | undefined)?.code as string | undefined;
  }
}

/**
 * SQLite's (and the file system's) errors about the database file, as a `SessionDatabaseError` naming it. Errors
 * the store raises on purpose, and anything else, pass through unchanged.
 */
export function databaseError(error: unknown, path: string): unknown {
  if (error instanceof SessionStoreError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return error;
  const detail = (error as Error).message;
  if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT"))
    return new SessionDatabaseError(
      "database_corrupt",
      path,
      `The session database ${path} is not a readable SQLite database (${detail}). Move it aside (a new one is ` +
        "created in its place) or restore it from a backup.",
      error,
    );
  if (
    code.startsWith("SQLITE_READONLY") ||
    code === "EACCES" ||
    code === "EPERM" ||
    code === "EROFS" ||
    // SQLite cannot open a WAL database whose folder is read-only (it must create -wal and -shm beside it).
    (code === "SQLITE_CANTOPEN" && existsSync(path) && !writable(path))
  )
    return new SessionDatabaseError(
      "database_read_only",
      path,
      `The session database ${path} cannot be written (${detail}). Check the permissions of the file and its ` +
        "folder (SQLite writes -wal and -shm files beside it), or use a store on a writable disk.",
      error,
    );
  if (code.startsWith("SQLITE_"))
    return new SessionDatabaseError(
      "database_unavailable",
      path,
      `The session database ${path} could not be used (${code}: ${detail}).`,
      error,
    );
  return error;
}

/** Whether this process may write the file and its folder (a read-only mount says no even to root). */
function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    accessSync(dirname(path), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
