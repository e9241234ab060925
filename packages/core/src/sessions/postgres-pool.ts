import { SessionStoreError } from "./errors.js";
import { POSTGRES_SESSION_MIGRATIONS, POSTGRES_SESSION_SCHEMA_VERSION } from "./postgres-schema.js";

// The PostgreSQL store's connection work: opening a pool on the optional `pg` package, migrating a schema under an
// advisory lock, and running work in a transaction. Kept apart from the store's SQL.

/** The part of a `pg` client the store uses; a `pg.PoolClient` fits. */
export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  release(error?: Error | boolean): void;
}

/** The part of a `pg.Pool` the store uses. */
export interface PgPoolLike {
  connect(): Promise<PgClientLike>;
  end(): Promise<void>;
}

/** The isolation levels the store uses. */
export type Isolation = "READ COMMITTED" | "REPEATABLE READ";

/** A `pg` pool for `connectionString`; `pg` is loaded here, on first use, with a clear error when it is missing. */
export async function openPgPool(connectionString: string, maxConnections = 10): Promise<PgPoolLike> {
  let pg: { default?: { Pool: new (config: object) => PgPoolLike }; Pool?: new (config: object) => PgPoolLike };
  try {
    pg = await import("pg");
  } catch (error) {
    throw new SessionStoreError(
      "invalid_input",
      `PostgresSessionStore needs the "pg" package: npm install pg (${(error as Error).message})`,
    );
  }
  const Pool = pg.default?.Pool ?? pg.Pool!;
  return new Pool({ connectionString, max: maxConnections });
}

/**
 * Brings `schema` (quoted as `q`) up to the newest migration. One migrator per schema at a time, across every
 * process and host: a transaction-scoped advisory lock, released at COMMIT.
 */
export async function migrateSchema(pool: PgPoolLike, schema: string, q: string): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`heddle.sessions.${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${q}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${q}.schema_migrations
         (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
    );
    const found = await client.query(`SELECT MAX(version) AS version FROM ${q}.schema_migrations`);
    const current = Number(found.rows[0]?.version ?? 0);
    if (current > POSTGRES_SESSION_SCHEMA_VERSION)
      throw new SessionStoreError(
        "invalid_input",
        `Schema ${schema} has session schema version ${current}, newer than this Heddle supports (${POSTGRES_SESSION_SCHEMA_VERSION}); upgrade @heddle/core.`,
      );
    for (const migration of POSTGRES_SESSION_MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query(migration.sql.replaceAll("$SCHEMA", q));
      await client.query(`INSERT INTO ${q}.schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`, [
        migration.version,
        migration.name,
        Date.now(),
      ]);
    }
  });
}

/** Runs `work` in one transaction on one connection; any error rolls it back. */
export async function inTransaction<T>(
  pool: PgPoolLike,
  work: (client: PgClientLike) => Promise<T>,
  isolation: Isolation = "READ COMMITTED",
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Runs `work` on one pooled connection, without a transaction (a single statement needs none). */
export async function withClient<T>(pool: PgPoolLike, work: (client: PgClientLike) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}
