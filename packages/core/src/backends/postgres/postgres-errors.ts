import { SessionStoreError } from "../../sessions/contract.js";

// What a lost PostgreSQL connection looks like from `pg`, and the typed error the store turns it into. A server that
// drops a connection (`pg_terminate_backend`, a restart, a failover) or cannot be reached is a `database_unavailable`
// error that says whether the write may have happened; SQL errors and the store's own errors pass through.

// SQLSTATE class 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now.
const LOST_SQLSTATE = /^(08...|57P0[123])$/;
const LOST_NODE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
// pg's own errors for a socket that ended or a client that already failed carry no code, only these messages.
const LOST_MESSAGES = /Connection terminated|not queryable|Connection closed|timeout exceeded when trying to connect/i;

/** True when `error` says the connection to the server is gone (or never came), not that a statement failed. */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof SessionStoreError) return false;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (LOST_SQLSTATE.test(code) || LOST_NODE_CODES.has(code))) return true;
  return error instanceof Error && LOST_MESSAGES.test(error.message);
}

/** Where in a call the connection was lost: it decides what the caller may assume about the write. */
export type LossPoint = "connect" | "before-commit" | "commit" | "read";

const OUTCOME: Record<LossPoint, string> = {
  connect: "Nothing was sent, so nothing changed.",
  "before-commit": "The transaction was not committed: nothing of this call was stored.",
  commit: "The connection was lost while committing: the write may or may not be stored; read it back before retrying.",
  read: "Nothing was changed.",
};

/** A `database_unavailable` error for a lost connection (the next call opens a new one), or `error` unchanged. */
export function connectionLossError(error: unknown, point: LossPoint): unknown {
  if (!isConnectionLoss(error)) return error;
  return new SessionStoreError(
    "database_unavailable",
    `PostgresSessionStore: the connection to PostgreSQL was lost (${(error as Error).message}). ${OUTCOME[point]} ` +
      "The next call opens a new connection.",
    { cause: error },
  );
}
