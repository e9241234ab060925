import { consoleLogger, type Logger } from "@heddle/shared";
import { migrateSchema, openPgPool, type PgPoolLike } from "./postgres-pool.js";

/** What a `PostgresConnection` needs: the store's own options, and the schema it migrates. */
export interface PostgresConnectionOptions {
  connectionString?: string;
  pool?: PgPoolLike;
  maxConnections?: number;
  logger?: Logger;
  schema: string;
  /** `schema`, quoted. */
  q: string;
}

/**
 * The PostgreSQL store's pool over its life: opened (and the schema migrated) on first use, opened again on the next
 * call when that failed (a database down at start, a failover), and ended on `close()` only when the store opened
 * it. Losses of idle connections in the store's own pool are reported through `logger.warn`; without a listener,
 * `pg` would end the process.
 */
export class PostgresConnection {
  readonly #options: PostgresConnectionOptions;
  #pool: Promise<PgPoolLike> | undefined;

  constructor(options: PostgresConnectionOptions) {
    this.#options = options;
  }

  /** The migrated pool, opened on first use. */
  pool(): Promise<PgPoolLike> {
    if (!this.#pool) {
      const opening = this.#open();
      this.#pool = opening;
      // A database that is down at first use fails this call only: the next one tries again.
      opening.catch(() => {
        if (this.#pool === opening) this.#pool = undefined;
      });
    }
    return this.#pool;
  }

  /** Ends the pool when the store opened it; a pool the host passed in stays open. */
  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    if (pool && !this.#options.pool) await (await pool.catch(() => undefined))?.end();
  }

  async #open(): Promise<PgPoolLike> {
    const { pool: given, connectionString, maxConnections, schema, q } = this.#options;
    const pool = given ?? (await openPgPool(connectionString!, maxConnections ?? 10, (error) => this.#lost(error)));
    try {
      await migrateSchema(pool, schema, q);
    } catch (error) {
      if (!given) await pool.end().catch(() => {});
      throw error;
    }
    return pool;
  }

  /** A connection of the store's own pool was dropped by the server while idle; the pool already discarded it. */
  #lost(error: Error): void {
    (this.#options.logger ?? consoleLogger).warn(
      `PostgresSessionStore (schema ${this.#options.schema}): the server closed a pooled connection ` +
        `(${error.message}); the next call opens a new one.`,
    );
  }
}
