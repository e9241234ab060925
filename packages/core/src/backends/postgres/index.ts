// The PostgreSQL session store. `pg` loads when a store opens its pool from a URL (./postgres-pool.ts), not when
// this file is imported.
export {
  type PgClientLike,
  type PgPoolLike,
  PostgresSessionStore,
  type PostgresSessionStoreOptions,
} from "./postgres-store.js";
