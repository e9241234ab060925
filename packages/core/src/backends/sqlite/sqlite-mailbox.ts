import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createId } from "@heddle/shared";
import type Database from "better-sqlite3";
import {
  abortReason,
  checkAgentId,
  checkSendInput,
  MailboxWaiters,
  mailboxMaxMessageBytes,
  type SendTeamMessageInput,
  TeamDatabaseError,
  TeamError,
  type TeamMailbox,
  type TeamMailboxMessage,
  type TeamMessageKind,
} from "../../teams/contract.js";
import { openSqliteDatabase } from "./driver.js";
import { sqliteFileProblem } from "./sqlite-errors.js";

export interface SqliteTeamMailboxOptions {
  /** The database file (the sessions file works: the mailbox keeps to its own tables); `:memory:` for tests. */
  path: string;
  /** How long a writer waits for another process's lock before failing (ms, default 5000). */
  busyTimeoutMs?: number;
  /**
   * How often a pending `wait` checks the file for messages that other processes wrote (ms, default 200). Sends
   * from this process wake waiters at once; the check is one `PRAGMA data_version` while nothing changed.
   */
  pollIntervalMs?: number;
  /** As in `SqliteSessionStore`: `FULL` (default) survives a power cut, `NORMAL` a crash. */
  synchronous?: "NORMAL" | "FULL";
  /** The largest message `send` stores, in UTF-8 bytes of its text and ids (default 2 MiB). */
  maxMessageBytes?: number;
}

/** Mailbox schema versions, recorded in its own table so it shares a file with the session store. */
const MAILBOX_MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE team_messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        team_id TEXT,
        from_agent TEXT NOT NULL,
        to_agent TEXT NOT NULL,
        kind TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        read_at INTEGER
      );
      CREATE INDEX team_messages_unread ON team_messages(to_agent, read_at, seq);
    `,
  },
];
const MAILBOX_SCHEMA_VERSION = MAILBOX_MIGRATIONS[MAILBOX_MIGRATIONS.length - 1]!.version;

interface MessageRow {
  seq: number;
  id: string;
  team_id: string | null;
  from_agent: string;
  to_agent: string;
  kind: string;
  text: string;
  created_at: number;
  read_at: number | null;
}

function toMessage(row: MessageRow): TeamMailboxMessage {
  return {
    id: row.id,
    ...(row.team_id !== null && { teamId: row.team_id }),
    from: row.from_agent,
    to: row.to_agent,
    kind: row.kind as TeamMessageKind,
    text: row.text,
    createdAt: row.created_at,
    ...(row.read_at !== null && { readAt: row.read_at }),
  };
}

// Mailboxes of this process by file, so a send through one wakes the waits of every other on the same file.
const openMailboxes = new Map<string, Set<SqliteTeamMailbox>>();

/**
 * A durable `TeamMailbox` on better-sqlite3 (WAL, busy timeout): several processes may share one file. `dequeue`
 * and `markRead` are single immediate transactions, so two readers never take the same message.
 */
export class SqliteTeamMailbox implements TeamMailbox {
  readonly path: string;
  readonly #key: string;
  #db: Database.Database | undefined;
  readonly #stmts: ReturnType<typeof prepare>;
  readonly #waiters = new MailboxWaiters();
  readonly #pollIntervalMs: number;
  readonly #maxMessageBytes: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #dataVersion = -1;

  constructor(options: SqliteTeamMailboxOptions) {
    if (!options || typeof options.path !== "string" || options.path === "")
      throw new TeamError("team_invalid_input", "SqliteTeamMailbox: options.path must be a file path (or ':memory:').");
    this.path = options.path;
    this.#key = options.path === ":memory:" ? `:memory:${createId("db")}` : resolve(options.path);
    this.#pollIntervalMs = Math.max(10, options.pollIntervalMs ?? 200);
    this.#maxMessageBytes = mailboxMaxMessageBytes(options.maxMessageBytes, "SqliteTeamMailbox");
    let db: Database.Database | undefined;
    try {
      if (options.path !== ":memory:") mkdirSync(dirname(resolve(options.path)), { recursive: true });
      db = openSqliteDatabase(options.path);
      // The busy timeout first, so switching to WAL waits for another process instead of failing.
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      db.pragma("journal_mode = WAL");
      db.pragma(`synchronous = ${options.synchronous ?? "FULL"}`);
      migrate(db, options.path);
      this.#stmts = prepare(db);
    } catch (error) {
      db?.close();
      throw fileError(error, options.path);
    }
    this.#db = db;
    const siblings = openMailboxes.get(this.#key) ?? new Set();
    siblings.add(this);
    openMailboxes.set(this.#key, siblings);
  }

  send(input: SendTeamMessageInput): Promise<TeamMailboxMessage> {
    return this.#guard(() => {
      this.#open();
      const checked = checkSendInput(input, this.#maxMessageBytes);
      const message: TeamMailboxMessage = { id: createId("msg"), ...checked, createdAt: Date.now() };
      this.#stmts.insert.run({
        id: message.id,
        team_id: message.teamId ?? null,
        from_agent: message.from,
        to_agent: message.to,
        kind: message.kind,
        text: message.text,
        created_at: message.createdAt,
      });
      for (const mailbox of openMailboxes.get(this.#key) ?? []) mailbox.#waiters.wake(message.to);
      return message;
    });
  }

  dequeue(agentId: string): Promise<TeamMailboxMessage | undefined> {
    return this.#guard(() => {
      const db = this.#open();
      checkAgentId(agentId, "dequeue: agentId");
      // IMMEDIATE takes the write lock before the read: another process cannot take the same row in between.
      return db
        .transaction(() => {
          const row = this.#stmts.oldestUnread.get(agentId) as MessageRow | undefined;
          if (!row) return undefined;
          const readAt = Date.now();
          this.#stmts.markRead.run(readAt, row.seq);
          return toMessage({ ...row, read_at: readAt });
        })
        .immediate();
    });
  }

  peek(agentId: string): Promise<TeamMailboxMessage | undefined> {
    return this.#guard(() => {
      this.#open();
      checkAgentId(agentId, "peek: agentId");
      const row = this.#stmts.oldestUnread.get(agentId) as MessageRow | undefined;
      return row && toMessage(row);
    });
  }

  list(agentId: string): Promise<TeamMailboxMessage[]> {
    return this.#guard(() => {
      this.#open();
      checkAgentId(agentId, "list: agentId");
      return (this.#stmts.allUnread.all(agentId) as MessageRow[]).map(toMessage);
    });
  }

  markRead(agentId: string, messageId: string): Promise<boolean> {
    return this.#guard(() => {
      this.#open();
      checkAgentId(agentId, "markRead: agentId");
      return this.#stmts.markReadById.run(Date.now(), messageId, agentId).changes === 1;
    });
  }

  clear(agentId: string): Promise<number> {
    return this.#guard(() => {
      this.#open();
      checkAgentId(agentId, "clear: agentId");
      return this.#stmts.clear.run(agentId).changes;
    });
  }

  /** Waits of this instance not yet settled; the poll timer runs only while there is one. */
  get waiting(): number {
    return this.#waiters.size;
  }

  /** True while this instance polls the file for other processes' sends. */
  get polling(): boolean {
    return this.#timer !== undefined;
  }

  async wait(agentId: string, signal?: AbortSignal): Promise<void> {
    this.#open();
    checkAgentId(agentId, "wait: agentId");
    if (signal?.aborted) throw abortReason(signal);
    // The check and the registration happen in one tick: a send in between (from any mailbox on this file in this
    // process) would otherwise wake no one, and the wait would sleep until the next poll.
    let unread: unknown;
    try {
      unread = this.#stmts.hasUnread.get(agentId);
    } catch (error) {
      throw fileError(error, this.path);
    }
    if (unread) return;
    const waiting = this.#waiters.add(agentId, signal);
    this.#startPolling();
    try {
      await waiting;
    } finally {
      if (this.#waiters.size === 0) this.#stopPolling();
    }
  }

  async close(): Promise<void> {
    const db = this.#db;
    if (!db) return;
    this.#db = undefined;
    this.#stopPolling();
    this.#waiters.rejectAll(new TeamError("team_mailbox_closed", "The team mailbox was closed while waiting."));
    const siblings = openMailboxes.get(this.#key);
    siblings?.delete(this);
    if (siblings?.size === 0) openMailboxes.delete(this.#key);
    db.close();
  }

  // Other processes' sends are seen here: a cheap data_version check, then one query per waiting agent.
  #startPolling(): void {
    if (this.#timer) return;
    this.#dataVersion = -1;
    this.#timer = setInterval(() => this.#poll(), this.#pollIntervalMs);
  }

  #stopPolling(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #poll(): void {
    const db = this.#db;
    if (!db) {
      this.#stopPolling();
      return;
    }
    try {
      const version = db.pragma("data_version", { simple: true }) as number;
      if (version === this.#dataVersion) return;
      this.#dataVersion = version;
      for (const agentId of this.#waiters.agents()) if (this.#stmts.hasUnread.get(agentId)) this.#waiters.wake(agentId);
    } catch {
      // A busy or briefly locked file: the next tick tries again.
      this.#dataVersion = -1;
    }
  }

  // Every call runs here: SQLite's errors about the file (a lock held past busyTimeoutMs, a read-only or damaged
  // file) become a TeamDatabaseError naming it.
  #guard<T>(body: () => T): Promise<T> {
    try {
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(fileError(error, this.path));
    }
  }

  #open(): Database.Database {
    if (!this.#db) throw new TeamError("team_mailbox_closed", `The team mailbox on ${this.path} is closed.`);
    return this.#db;
  }
}

/** SQLite's (and the file system's) errors about the file, as a `TeamDatabaseError` naming it; others unchanged. */
function fileError(error: unknown, path: string): unknown {
  if (error instanceof TeamError) return error;
  const problem = sqliteFileProblem(error, path, "team mailbox database");
  return problem ? new TeamDatabaseError(problem.code, path, problem.message, error) : error;
}

function prepare(db: Database.Database) {
  return {
    insert: db.prepare(
      `INSERT INTO team_messages (id, team_id, from_agent, to_agent, kind, text, created_at)
       VALUES (@id, @team_id, @from_agent, @to_agent, @kind, @text, @created_at)`,
    ),
    oldestUnread: db.prepare("SELECT * FROM team_messages WHERE to_agent = ? AND read_at IS NULL ORDER BY seq LIMIT 1"),
    allUnread: db.prepare("SELECT * FROM team_messages WHERE to_agent = ? AND read_at IS NULL ORDER BY seq"),
    hasUnread: db.prepare("SELECT 1 FROM team_messages WHERE to_agent = ? AND read_at IS NULL LIMIT 1"),
    markRead: db.prepare("UPDATE team_messages SET read_at = ? WHERE seq = ?"),
    markReadById: db.prepare("UPDATE team_messages SET read_at = ? WHERE id = ? AND to_agent = ? AND read_at IS NULL"),
    clear: db.prepare("DELETE FROM team_messages WHERE to_agent = ?"),
  };
}

function migrate(db: Database.Database, path: string): void {
  db.transaction(() => {
    db.exec(
      "CREATE TABLE IF NOT EXISTS team_mailbox_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)",
    );
    const row = db.prepare("SELECT MAX(version) AS version FROM team_mailbox_migrations").get() as {
      version: number | null;
    };
    const current = row.version ?? 0;
    if (current > MAILBOX_SCHEMA_VERSION)
      throw new TeamError(
        "team_invalid_input",
        `Team mailbox in ${path} has schema version ${current}, newer than this Heddle supports (${MAILBOX_SCHEMA_VERSION}); upgrade @heddle/core.`,
      );
    const record = db.prepare("INSERT INTO team_mailbox_migrations (version, applied_at) VALUES (?, ?)");
    for (const migration of MAILBOX_MIGRATIONS) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      record.run(migration.version, Date.now());
    }
  }).immediate();
}
