import type Database from "better-sqlite3";
import { SessionDatabaseError } from "./sqlite-errors.js";

/**
 * Schema migrations, applied in order inside one immediate transaction at open. Never edit a shipped
 * migration: add the next version. `schema_migrations` records what ran, so two processes opening the same
 * file at once apply each migration once.
 */
export const SESSION_MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: "initial",
    sql: `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        title TEXT,
        model_provider TEXT,
        model_id TEXT,
        cwd TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        usage TEXT NOT NULL,
        usage_by_model TEXT NOT NULL,
        head_message_id TEXT,
        parent_session_id TEXT,
        forked_from_message_id TEXT,
        metadata TEXT
      );
      CREATE INDEX sessions_by_updated ON sessions(updated_at DESC, id);
      -- Append-only: a row is inserted once and never updated; parent_id links make a tree per session.
      CREATE TABLE messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        parent_id TEXT,
        role TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (session_id, id)
      );
      CREATE TABLE working_contexts (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        based_on_message_id TEXT NOT NULL,
        strategy TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE TABLE file_checkpoints (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        message_id TEXT NOT NULL,
        message_seq INTEGER NOT NULL,
        path TEXT NOT NULL,
        existed INTEGER NOT NULL,
        content BLOB,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX file_checkpoints_by_session ON file_checkpoints(session_id, seq);
    `,
  },
];

/** The schema version this code writes. */
export const SESSION_SCHEMA_VERSION = SESSION_MIGRATIONS[SESSION_MIGRATIONS.length - 1]!.version;

/** Brings the file's schema up to `SESSION_SCHEMA_VERSION`; refuses a file made by a newer Heddle. */
export function migrate(db: Database.Database, path: string): void {
  db.transaction(() => {
    db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    );
    const row = db.prepare("SELECT MAX(version) AS version FROM schema_migrations").get() as { version: number | null };
    const current = row.version ?? 0;
    if (current > SESSION_SCHEMA_VERSION)
      throw new SessionDatabaseError(
        "database_too_new",
        path,
        `Session database ${path} has schema version ${current}, newer than this Heddle supports (${SESSION_SCHEMA_VERSION}); upgrade @heddle/core.`,
      );
    const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
    for (const migration of SESSION_MIGRATIONS) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    }
    db.pragma(`user_version = ${SESSION_SCHEMA_VERSION}`);
  }).immediate();
}
