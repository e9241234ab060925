import { join, resolve } from "node:path";
import type { Logger } from "@heddle/shared";
import type { UnreadableRow } from "./sqlite-rows.js";

export interface SqliteSessionStoreOptions {
  /** The database file; created with its folder when missing. Use `defaultSessionDbPath(root)` for the default. */
  path: string;
  /**
   * `FULL` (default) makes each committed message survive a power cut; `NORMAL` survives a process crash or
   * kill (WAL) but may lose the last commits on power loss, and is faster on slow disks.
   */
  synchronous?: "NORMAL" | "FULL";
  /** How long a writer waits for another process's write lock before failing (ms, default 5000). */
  busyTimeoutMs?: number;
  /** Where unreadable rows are reported (default `consoleLogger`). */
  logger?: Logger;
  /** Called once per unreadable row (invalid JSON, ...): the row is skipped and the rest of the session loads. */
  onUnreadableRow?(row: UnreadableRow): void;
}

/** `.heddle/sessions.db` under the workspace root: where sessions live unless the host says otherwise. */
export function defaultSessionDbPath(workspaceRoot: string): string {
  return join(resolve(workspaceRoot), ".heddle", "sessions.db");
}
