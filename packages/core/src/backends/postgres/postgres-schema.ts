/**
 * The PostgreSQL store's schema and migrations. Every table lives in one schema (default `heddle`), so a host can
 * give each application, or each test run, its own. Never edit a shipped migration: add the next version.
 */

/** A migration: SQL run once, in order, under the schema's advisory lock. `$SCHEMA` is the quoted schema name. */
export const POSTGRES_SESSION_MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: "initial",
    sql: `
      CREATE TABLE $SCHEMA.sessions (
        id TEXT PRIMARY KEY,
        title TEXT,
        model_provider TEXT,
        model_id TEXT,
        cwd TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        usage TEXT NOT NULL,
        usage_by_model TEXT NOT NULL,
        head_message_id TEXT,
        parent_session_id TEXT,
        forked_from_message_id TEXT,
        metadata TEXT
      );
      CREATE INDEX sessions_by_updated ON $SCHEMA.sessions (updated_at DESC, id);
      -- Append-only: a row is inserted once and never updated; parent_id links make a tree per session.
      CREATE TABLE $SCHEMA.messages (
        seq BIGSERIAL PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES $SCHEMA.sessions (id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        parent_id TEXT,
        role TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (session_id, id)
      );
      CREATE TABLE $SCHEMA.working_contexts (
        session_id TEXT PRIMARY KEY REFERENCES $SCHEMA.sessions (id) ON DELETE CASCADE,
        based_on_message_id TEXT NOT NULL,
        strategy TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE TABLE $SCHEMA.file_checkpoints (
        seq BIGSERIAL PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES $SCHEMA.sessions (id) ON DELETE CASCADE,
        message_id TEXT NOT NULL,
        message_seq BIGINT NOT NULL,
        path TEXT NOT NULL,
        existed BOOLEAN NOT NULL,
        content BYTEA,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX file_checkpoints_by_session ON $SCHEMA.file_checkpoints (session_id, seq);
    `,
  },
];

/** The schema version this code writes. */
export const POSTGRES_SESSION_SCHEMA_VERSION =
  POSTGRES_SESSION_MIGRATIONS[POSTGRES_SESSION_MIGRATIONS.length - 1]!.version;

/** Schema names the store accepts: letters, digits and `_`, so nothing can be smuggled into the SQL. */
export const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** A checked schema name as a quoted identifier. */
export function quoteSchema(schema: string): string {
  return `"${schema}"`;
}
