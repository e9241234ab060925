// The SQLite backends (a session store, a team mailbox and a team roster on one kind of file). better-sqlite3, a
// native module, loads when the first of them opens a database (./driver.ts), not when this file is imported.
export { type DatabaseFileErrorCode, SessionDatabaseError, sqliteFileProblem } from "./sqlite-errors.js";
export { SqliteTeamMailbox, type SqliteTeamMailboxOptions } from "./sqlite-mailbox.js";
export { SqliteTeamRoster, type SqliteTeamRosterOptions } from "./sqlite-roster.js";
export type { UnreadableRow } from "./sqlite-rows.js";
export { SESSION_MIGRATIONS, SESSION_SCHEMA_VERSION } from "./sqlite-schema.js";
export { defaultSessionDbPath, SqliteSessionStore, type SqliteSessionStoreOptions } from "./sqlite-store.js";
