import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import {
  type AgentMessage,
  type AgentUsage,
  addUsage,
  consoleLogger,
  createId,
  emptyUsage,
  type ModelRef,
} from "@heddle/shared";
import type Database from "better-sqlite3";
import {
  assertStorableMessage,
  type CreateSessionRecordInput,
  type FileCheckpoint,
  InvalidSessionInputError,
  type ListSessionsOptions,
  MessageNotFoundError,
  modelKey,
  pairToolMessages,
  SessionConflictError,
  SessionExistsError,
  SessionNotFoundError,
  type SessionRecord,
  type SessionRecordPatch,
  type SessionStore,
  SessionStoreClosedError,
  type StoredMessage,
  type WorkingContext,
} from "../../sessions/contract.js";
import { type SessionRow, sessionRow, toRecord } from "../sql/index.js";
import { openSqliteDatabase } from "./driver.js";
import { databaseError } from "./sqlite-errors.js";
import type { SqliteSessionStoreOptions } from "./sqlite-options.js";
import { RowReader, type UnreadableRow } from "./sqlite-rows.js";
import { migrate } from "./sqlite-schema.js";
import { insertCheckpoint, readCheckpoints, readWorkingContext } from "./sqlite-side-tables.js";
import { type MessageRow, prepare } from "./sqlite-statements.js";

export { defaultSessionDbPath, type SqliteSessionStoreOptions } from "./sqlite-options.js";

/**
 * The embedded default `SessionStore`, on better-sqlite3: WAL, a busy timeout so processes share one file, a
 * versioned schema, and one small immediate transaction per write. Messages are rows that are inserted once
 * and never rewritten. A file it cannot use is a `SessionDatabaseError` naming it; a row it cannot read is
 * skipped and reported (`unreadableRows`), and the rest of the session loads.
 */
export class SqliteSessionStore implements SessionStore {
  readonly path: string;
  #db: Database.Database | undefined;
  readonly #stmts: ReturnType<typeof prepare>;
  readonly #rows: RowReader;

  constructor(options: SqliteSessionStoreOptions) {
    if (!options || typeof options.path !== "string" || options.path === "")
      throw new InvalidSessionInputError("SqliteSessionStore: options.path must be a file path (or ':memory:').");
    this.path = options.path;
    this.#rows = new RowReader(options.path, options.logger ?? consoleLogger, options.onUnreadableRow);
    let db: Database.Database | undefined;
    try {
      if (options.path !== ":memory:") mkdirSync(dirname(resolve(options.path)), { recursive: true });
      db = openSqliteDatabase(options.path);
      // The busy timeout comes first so that switching to WAL waits for another process instead of failing.
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      db.pragma("journal_mode = WAL");
      db.pragma(`synchronous = ${options.synchronous ?? "FULL"}`);
      db.pragma("foreign_keys = ON");
      migrate(db, options.path);
      this.#stmts = prepare(db);
    } catch (error) {
      db?.close();
      throw databaseError(error, options.path);
    }
    this.#db = db;
  }

  /** The rows skipped since this store opened because they could not be read (each reported once). */
  unreadableRows(): UnreadableRow[] {
    return [...this.#rows.unreadable];
  }

  async createSession(input: CreateSessionRecordInput = {}): Promise<SessionRecord> {
    return this.#guard(() => {
      const db = this.#open();
      const id = input.id ?? createId("ses");
      const now = Date.now();
      return db
        .transaction(() => {
          if (this.#stmts.getSession.get(id)) throw new SessionExistsError(id);
          this.#stmts.insertSession.run(
            sessionRow(id, now, {
              title: input.title ?? null,
              model_provider: input.model?.provider ?? null,
              model_id: input.model?.id ?? null,
              cwd: input.cwd ?? null,
              metadata: input.metadata ? JSON.stringify(input.metadata) : null,
            }),
          );
          return this.#record(this.#stmts.getSession.get(id) as SessionRow);
        })
        .immediate();
    });
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    return this.#guard(() => {
      this.#open();
      const row = this.#stmts.getSession.get(sessionId) as SessionRow | undefined;
      return row && this.#record(row);
    });
  }

  async listSessions(options: ListSessionsOptions = {}): Promise<SessionRecord[]> {
    return this.#guard(() => {
      this.#open();
      const rows = this.#stmts.listSessions.all(options.limit ?? -1, options.offset ?? 0) as SessionRow[];
      return rows.map((row) => this.#record(row));
    });
  }

  async updateSession(sessionId: string, patch: SessionRecordPatch): Promise<SessionRecord> {
    return this.#guard(() => {
      const db = this.#open();
      return db
        .transaction(() => {
          const row = this.#row(sessionId);
          this.#stmts.updateSession.run({
            id: sessionId,
            title: patch.title ?? row.title,
            model_provider: patch.model ? patch.model.provider : row.model_provider,
            model_id: patch.model ? patch.model.id : row.model_id,
            cwd: patch.cwd ?? row.cwd,
            metadata: patch.metadata ? JSON.stringify(patch.metadata) : row.metadata,
            updated_at: Date.now(),
          });
          return this.#record(this.#row(sessionId));
        })
        .immediate();
    });
  }

  async deleteSession(sessionId: string): Promise<boolean> {
    return this.#guard(() => {
      this.#open();
      return this.#stmts.deleteSession.run(sessionId).changes > 0;
    });
  }

  async appendMessage(
    sessionId: string,
    message: AgentMessage,
    options: { parentId?: string | null } = {},
  ): Promise<StoredMessage> {
    return this.#guard(() => {
      const db = this.#open();
      assertStorableMessage(message);
      const data = JSON.stringify(message);
      // Immediate: the head is read under the write lock, so two writers never both branch from the same head.
      return db
        .transaction(() => {
          const head = this.#stmts.getHead.get(sessionId) as { head_message_id: string | null } | undefined;
          if (!head) throw new SessionNotFoundError(sessionId);
          const parentId = options.parentId === undefined ? head.head_message_id : options.parentId;
          if (parentId !== null && !this.#stmts.hasMessage.get(sessionId, parentId))
            throw new MessageNotFoundError(sessionId, parentId);
          // Under the write lock: a parent that is no longer the head means another writer got here first.
          if (parentId !== head.head_message_id)
            throw new SessionConflictError(sessionId, parentId, head.head_message_id);
          let info: Database.RunResult;
          try {
            info = this.#stmts.insertMessage.run(
              sessionId,
              message.id,
              parentId,
              message.role,
              message.createdAt ?? Date.now(),
              data,
            );
          } catch (error) {
            // The UNIQUE (session_id, id) index is the duplicate check: no extra lookup per append.
            if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE")
              throw new InvalidSessionInputError(
                `appendMessage: session "${sessionId}" already has a message "${message.id}".`,
              );
            throw error;
          }
          this.#stmts.setHead.run(message.id, Date.now(), sessionId);
          return { sessionId, message: JSON.parse(data) as AgentMessage, parentId, seq: Number(info.lastInsertRowid) };
        })
        .immediate();
    });
  }

  async getMessage(sessionId: string, messageId: string): Promise<StoredMessage | undefined> {
    return this.#guard(() => {
      this.#open();
      this.#row(sessionId);
      const row = this.#stmts.getMessage.get(sessionId, messageId) as MessageRow | undefined;
      if (!row) return undefined;
      const message = this.#rows.parse<AgentMessage | undefined>(row.data, undefined, {
        table: "messages",
        sessionId,
        messageId,
      });
      return message && { sessionId, message, parentId: row.parent_id, seq: row.seq };
    });
  }

  async getHistory(sessionId: string, options: { headMessageId?: string | null } = {}): Promise<AgentMessage[]> {
    return this.#guard(() => {
      const db = this.#open();
      // One read transaction: the head and the rows come from the same snapshot even while another process writes.
      return db.transaction(() => {
        const row = this.#row(sessionId);
        const head = options.headMessageId === undefined ? row.head_message_id : options.headMessageId;
        if (head === null) return [];
        const rows = this.#stmts.history.all({ sessionId, head }) as Array<{ id: string; data: string }>;
        if (rows.length === 0) throw new MessageNotFoundError(sessionId, head);
        const messages: AgentMessage[] = [];
        for (const r of rows) {
          const message = this.#rows.parse<AgentMessage | undefined>(r.data, undefined, {
            table: "messages",
            sessionId,
            messageId: r.id,
          });
          if (message) messages.push(message);
        }
        // A skipped message may have split a tool call from its result: keep the rest valid for the next request.
        return messages.length === rows.length ? messages : pairToolMessages(messages);
      })();
    });
  }

  async forkSession(
    sessionId: string,
    atMessageId: string,
    input: CreateSessionRecordInput = {},
  ): Promise<SessionRecord> {
    return this.#guard(() => {
      const db = this.#open();
      return db
        .transaction(() => {
          const source = this.#row(sessionId);
          if (!this.#stmts.hasMessage.get(sessionId, atMessageId))
            throw new MessageNotFoundError(sessionId, atMessageId);
          const id = input.id ?? createId("ses");
          if (this.#stmts.getSession.get(id)) throw new SessionExistsError(id);
          const now = Date.now();
          this.#stmts.insertSession.run(
            sessionRow(id, now, {
              title: input.title ?? source.title,
              model_provider: input.model ? input.model.provider : source.model_provider,
              model_id: input.model ? input.model.id : source.model_id,
              cwd: input.cwd ?? source.cwd,
              metadata: input.metadata ? JSON.stringify(input.metadata) : source.metadata,
              head_message_id: atMessageId,
              parent_session_id: sessionId,
              forked_from_message_id: atMessageId,
            }),
          );
          // The fork owns a copy of its path, so deleting the source never breaks it.
          this.#stmts.copyPath.run({ sessionId, head: atMessageId, forkId: id });
          return this.#record(this.#row(id));
        })
        .immediate();
    });
  }

  async setHead(sessionId: string, messageId: string | null): Promise<SessionRecord> {
    return this.#guard(() => {
      const db = this.#open();
      return db
        .transaction(() => {
          this.#row(sessionId);
          if (messageId !== null && !this.#stmts.hasMessage.get(sessionId, messageId))
            throw new MessageNotFoundError(sessionId, messageId);
          this.#stmts.setHead.run(messageId, Date.now(), sessionId);
          return this.#record(this.#row(sessionId));
        })
        .immediate();
    });
  }

  async saveWorkingContext(sessionId: string, context: WorkingContext | null): Promise<void> {
    return this.#guard(() => {
      const db = this.#open();
      db.transaction(() => {
        this.#row(sessionId);
        if (context === null) {
          this.#stmts.deleteWorking.run(sessionId);
          return;
        }
        if (!this.#stmts.hasMessage.get(sessionId, context.basedOnMessageId))
          throw new MessageNotFoundError(sessionId, context.basedOnMessageId);
        this.#stmts.upsertWorking.run(
          sessionId,
          context.basedOnMessageId,
          context.strategy,
          context.createdAt,
          JSON.stringify(context.messages),
        );
      }).immediate();
    });
  }

  async getWorkingContext(sessionId: string): Promise<WorkingContext | undefined> {
    return this.#guard(() => {
      this.#open();
      this.#row(sessionId);
      return readWorkingContext(this.#stmts, this.#rows, sessionId);
    });
  }

  async addUsage(sessionId: string, model: ModelRef | undefined, usage: Partial<AgentUsage>): Promise<SessionRecord> {
    return this.#guard(() => {
      const db = this.#open();
      return db
        .transaction(() => {
          const row = this.#row(sessionId);
          const record = this.#record(row);
          const byModel: Record<string, AgentUsage> = record.usageByModel;
          const key = modelKey(model);
          byModel[key] = addUsage(byModel[key] ?? emptyUsage(), usage);
          const total = addUsage(record.usage, usage);
          this.#stmts.setUsage.run(JSON.stringify(total), JSON.stringify(byModel), Date.now(), sessionId);
          return this.#record(this.#row(sessionId));
        })
        .immediate();
    });
  }

  async saveFileCheckpoint(checkpoint: FileCheckpoint): Promise<void> {
    return this.#guard(() => {
      const db = this.#open();
      db.transaction(() => {
        this.#row(checkpoint.sessionId);
        insertCheckpoint(this.#stmts, checkpoint);
      }).immediate();
    });
  }

  async listFileCheckpoints(sessionId: string, options: { afterMessageId?: string } = {}): Promise<FileCheckpoint[]> {
    return this.#guard(() => {
      this.#open();
      this.#row(sessionId);
      return readCheckpoints(this.#stmts, sessionId, options.afterMessageId);
    });
  }

  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    db?.close();
  }

  // Every call runs here: SQLite's errors about the file become a SessionDatabaseError naming it.
  #guard<T>(body: () => T): Promise<T> {
    try {
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(databaseError(error, this.path));
    }
  }

  #record(row: SessionRow): SessionRecord {
    return toRecord(row, (text, fallback) =>
      this.#rows.parse(text, fallback, { table: "sessions", sessionId: row.id }),
    );
  }

  #open(): Database.Database {
    if (!this.#db) throw new SessionStoreClosedError();
    return this.#db;
  }

  #row(sessionId: string): SessionRow {
    const row = this.#stmts.getSession.get(sessionId) as SessionRow | undefined;
    if (!row) throw new SessionNotFoundError(sessionId);
    return row;
  }
}
