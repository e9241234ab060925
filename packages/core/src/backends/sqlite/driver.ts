import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { MissingDependencyError } from "@heddle/shared";
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
    // Loaded from its real folder: under pnpm the package is a symlink, and its own dependency (`bindings`) is found
    // only beside the real folder. Node resolves symlinks itself, but a host whose loader does not (a bundled CLI
    // was seen to) would fail with "Cannot find module 'bindings'".
    const require = createRequire(import.meta.url);
    return require(realpathSync.native(require.resolve("better-sqlite3"))) as typeof Database;
  } catch (error) {
    throw new MissingDependencyError("better-sqlite3", "SQLite storage (sessions, mailboxes, rosters)", {
      cause: error,
    });
  }
}
