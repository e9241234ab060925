import { accessSync, constants, existsSync } from "node:fs";
import { dirname } from "node:path";
import { type DatabaseFileErrorCode, SessionStoreError, type SessionStoreErrorCode } from "../../sessions/contract.js";

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

export type { DatabaseFileErrorCode };

/**
 * What is wrong with the SQLite database file at `path`, read from SQLite's (or the file system's) error: a code and
 * a message that names the file (`subject` says what it holds, e.g. "session database") and what to do. `undefined`
 * when the error is not about the file. Shared by the SQLite session store and the SQLite team mailbox, which often
 * open the same file.
 */
export function sqliteFileProblem(
  error: unknown,
  path: string,
  subject: string,
): { code: DatabaseFileErrorCode; message: string } | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return undefined;
  const detail = (error as Error).message;
  if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT"))
    return {
      code: "database_corrupt",
      message:
        `The ${subject} ${path} is not a readable SQLite database (${detail}). Move it aside (a new one is ` +
        "created in its place) or restore it from a backup.",
    };
  if (
    code.startsWith("SQLITE_READONLY") ||
    code === "EACCES" ||
    code === "EPERM" ||
    code === "EROFS" ||
    // SQLite cannot open a WAL database whose folder is read-only (it must create -wal and -shm beside it).
    (code === "SQLITE_CANTOPEN" && existsSync(path) && !writable(path))
  )
    return {
      code: "database_read_only",
      message:
        `The ${subject} ${path} cannot be written (${detail}). Check the permissions of the file and its ` +
        "folder (SQLite writes -wal and -shm files beside it), or use a store on a writable disk.",
    };
  if (code.startsWith("SQLITE_"))
    return { code: "database_unavailable", message: `The ${subject} ${path} could not be used (${code}: ${detail}).` };
  return undefined;
}

/**
 * SQLite's (and the file system's) errors about the database file, as a `SessionDatabaseError` naming it. Errors
 * the store raises on purpose, and anything else, pass through unchanged.
 */
export function databaseError(error: unknown, path: string): unknown {
  if (error instanceof SessionStoreError) return error;
  const problem = sqliteFileProblem(error, path, "session database");
  return problem ? new SessionDatabaseError(problem.code, path, problem.message, error) : error;
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
