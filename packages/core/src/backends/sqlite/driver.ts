import { createRequire } from "node:module";
import type Database from "better-sqlite3";

let Driver: typeof Database | undefined;

/**
 * Opens the SQLite file at `path` with better-sqlite3. The driver is a native module: it is loaded here, when the
 * first SQLite store, mailbox or roster opens its file, never when `@heddle/core` (or this folder) is imported, so a
 * PostgreSQL or Redis user never loads it. Synchronous, like the constructors that call it.
 */
export function openSqliteDatabase(path: string): Database.Database {
  Driver ??= loadDriver();
  return new Driver(path);
}

function loadDriver(): typeof Database {
  try {
    return createRequire(import.meta.url)("better-sqlite3") as typeof Database;
  } catch (error) {
    throw new Error(
      `SQLite storage needs the "better-sqlite3" package, which did not load (${(error as Error).message}). ` +
        "Install it (npm install better-sqlite3), or keep sessions and teams in memory, PostgreSQL or Redis.",
      { cause: error },
    );
  }
}
