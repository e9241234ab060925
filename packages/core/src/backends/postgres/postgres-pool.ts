import { MissingDependencyError } from "@heddle/shared";
import { SessionStoreError } from "../../sessions/contract.js";
import { connectionLossError, isConnectionLoss, type LossPoint } from "./postgres-errors.js";
import { POSTGRES_SESSION_MIGRATIONS, POSTGRES_SESSION_SCHEMA_VERSION } from "./postgres-schema.js";

// The PostgreSQL store's connection work: opening a pool on the optional `pg` package, migrating a schema under an
// advisory lock, and running work in a transaction. Kept apart from the store's SQL.

type ErrorListener = (error: Error) => void;

/** The part of a `pg` client the store uses; a `pg.PoolClient` fits. */
export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  release(error?: Error | boolean): void;
  /** `pg` clients emit `error` when their connection dies; the store listens only while it holds the client. */
  on?(event: "error", listener: ErrorListener): unknown;
  removeListener?(event: "error", listener: ErrorListener): unknown;
}

/** The part of a `pg.Pool` the store uses. */
export interface PgPoolLike {
  connect(): Promise<PgClientLike>;
  end(): Promise<void>;
}

/** The isolation levels the store uses. */
export type Isolation = "READ COMMITTED" | "REPEATABLE READ";

type OwnPool = PgPoolLike & { on(event: "error", listener: ErrorListener): unknown };

/**
 * A `pg` pool for `connectionString`; `pg` is loaded here, on first use, with a clear error when it is missing.
 * `onIdleError` hears of each idle connection the server dropped: without a listener, `pg.Pool` re-throws that
 * error as an uncaught exception, which ends the process. The pool has already discarded the connection then, so
 * the next call simply opens a new one.
 */
export async function openPgPool(
  connectionString: string,
  maxConnections: number,
  onIdleError: ErrorListener,
): Promise<PgPoolLike> {
  let pg: { default?: { Pool: new (config: object) => OwnPool }; Pool?: new (config: object) => OwnPool };
  try {
    pg = await import("pg");
  } catch (error) {
    throw new MissingDependencyError("pg", "PostgresSessionStore", { cause: error });
  }
  const Pool = pg.default?.Pool ?? pg.Pool!;
  const pool = new Pool({ connectionString, max: maxConnections });
  pool.on("error", onIdleError);
  return pool;
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
        "database_too_new",
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

/**
 * Runs `work` in one transaction on one connection; any error rolls it back. A lost connection is a typed
 * `database_unavailable` error that says whether the COMMIT was in flight.
 */
export async function inTransaction<T>(
  pool: PgPoolLike,
  work: (client: PgClientLike) => Promise<T>,
  isolation: Isolation = "READ COMMITTED",
): Promise<T> {
  return withClient(
    pool,
    async (client, setPoint) => {
      try {
        await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
        const result = await work(client);
        setPoint("commit");
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      }
    },
    "before-commit",
  );
}

/**
 * Runs `work` on one pooled connection, without a transaction (a single statement needs none). While the store
 * holds the connection it listens for the connection's `error`: `pg` emits it when the server drops a connection
 * that is in use, and with no listener that ends the process. Only then, and only on the held client: a pool the
 * host owns gets no listener from the store. A broken connection goes back with its error, so the pool drops it.
 */
export async function withClient<T>(
  pool: PgPoolLike,
  work: (client: PgClientLike, setPoint: (point: LossPoint) => void) => Promise<T>,
  start: LossPoint = "read",
): Promise<T> {
  let client: PgClientLike;
  try {
    client = await pool.connect();
  } catch (error) {
    throw connectionLossError(error, "connect");
  }
  let point = start;
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost ??= error;
  };
  client.on?.("error", onError);
  try {
    return await work(client, (next) => {
      point = next;
    });
  } catch (error) {
    if (isConnectionLoss(error)) lost ??= error as Error;
    throw connectionLossError(error, point);
  } finally {
    client.removeListener?.("error", onError);
    client.release(lost);
  }
}
