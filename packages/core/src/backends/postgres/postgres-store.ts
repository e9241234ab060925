import {
  type AgentMessage,
  type AgentUsage,
  addUsage,
  createId,
  emptyUsage,
  type Logger,
  type ModelRef,
} from "@heddle/shared";
import {
  InvalidSessionInputError,
  MessageNotFoundError,
  SessionConflictError,
  SessionExistsError,
  SessionNotFoundError,
  SessionStoreClosedError,
} from "../../sessions/contract.js";
import { insertCheckpoint, selectCheckpoints } from "./postgres-checkpoints.js";
import { PostgresConnection } from "./postgres-connection.js";
import { type Isolation, inTransaction, type PgClientLike, type PgPoolLike, withClient } from "./postgres-pool.js";
import { quoteSchema, SCHEMA_NAME } from "./postgres-schema.js";

export type { PgClientLike, PgPoolLike } from "./postgres-pool.js";

import {
  assertStorableMessage,
  type CreateSessionRecordInput,
  type FileCheckpoint,
  type ListSessionsOptions,
  modelKey,
  type SessionRecord,
  type SessionRecordPatch,
  type SessionStore,
  type StoredMessage,
  type WorkingContext,
} from "../../sessions/contract.js";
import { type SessionRow, toRecord } from "../sql/index.js";

export interface PostgresSessionStoreOptions {
  /** A `postgres://` URL; the store opens (and on `close()` ends) its own `pg` pool. */
  connectionString?: string;
  /**
   * A pool the host owns (`new pg.Pool(...)`); `close()` leaves it open. The store adds no listener to it: give it
   * an `error` listener yourself (`pool.on("error", ...)`, as `pg` asks of every pool), or a connection the server
   * drops while idle in it ends your process.
   */
  pool?: PgPoolLike;
  /** The schema that holds the tables, created when missing (default `heddle`). */
  schema?: string;
  /** Most connections the store's own pool opens (default 10). */
  maxConnections?: number;
  /** Where the store's own pool reports a connection the server dropped while idle (default `consoleLogger`). */
  logger?: Logger;
}

/**
 * A `SessionStore` on PostgreSQL (`pg`, an optional peer dependency loaded on first use), for sessions that several
 * processes and hosts share. Schema migrations run once under an advisory lock; each write is one transaction that
 * locks its session's row, so two hosts appending to one session are serialized, never interleaved.
 */
export class PostgresSessionStore implements SessionStore {
  readonly schema: string;
  readonly #q: string;
  readonly #connection: PostgresConnection;
  #closed = false;

  constructor(options: PostgresSessionStoreOptions) {
    if (!options || (!options.connectionString && !options.pool))
      throw new InvalidSessionInputError("PostgresSessionStore: give options.connectionString or options.pool.");
    this.schema = options.schema ?? "heddle";
    if (!SCHEMA_NAME.test(this.schema))
      throw new InvalidSessionInputError(
        `PostgresSessionStore: schema must match [A-Za-z_][A-Za-z0-9_]* (got ${JSON.stringify(this.schema)}).`,
      );
    this.#q = quoteSchema(this.schema);
    this.#connection = new PostgresConnection({ ...options, schema: this.schema, q: this.#q });
  }

  async createSession(input: CreateSessionRecordInput = {}): Promise<SessionRecord> {
    const id = input.id ?? createId("ses");
    const now = Date.now();
    return this.#tx(async (c) => {
      const inserted = await c.query(
        `INSERT INTO ${this.#q}.sessions (id, title, model_provider, model_id, cwd, created_at, updated_at, usage,
           usage_by_model, head_message_id, parent_session_id, forked_from_message_id, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $6, $7, '{}', NULL, NULL, NULL, $8)
         ON CONFLICT (id) DO NOTHING RETURNING *`,
        [
          id,
          input.title ?? null,
          input.model?.provider ?? null,
          input.model?.id ?? null,
          input.cwd ?? null,
          now,
          JSON.stringify(emptyUsage()),
          input.metadata ? JSON.stringify(input.metadata) : null,
        ],
      );
      if (inserted.rowCount === 0) throw new SessionExistsError(id);
      return toRecord(row(inserted.rows[0]));
    });
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    return this.#read(async (c) => {
      const found = await c.query(`SELECT * FROM ${this.#q}.sessions WHERE id = $1`, [sessionId]);
      return found.rows[0] && toRecord(row(found.rows[0]));
    });
  }

  async listSessions(options: ListSessionsOptions = {}): Promise<SessionRecord[]> {
    return this.#read(async (c) => {
      const found = await c.query(`SELECT * FROM ${this.#q}.sessions ORDER BY updated_at DESC, id LIMIT $1 OFFSET $2`, [
        options.limit ?? null,
        options.offset ?? 0,
      ]);
      return found.rows.map((r) => toRecord(row(r)));
    });
  }

  async updateSession(sessionId: string, patch: SessionRecordPatch): Promise<SessionRecord> {
    return this.#tx(async (c) => {
      const current = await this.#lock(c, sessionId);
      const updated = await c.query(
        `UPDATE ${this.#q}.sessions SET title = $2, model_provider = $3, model_id = $4, cwd = $5, metadata = $6,
           updated_at = $7 WHERE id = $1 RETURNING *`,
        [
          sessionId,
          patch.title ?? current.title,
          patch.model ? patch.model.provider : current.model_provider,
          patch.model ? patch.model.id : current.model_id,
          patch.cwd ?? current.cwd,
          patch.metadata ? JSON.stringify(patch.metadata) : current.metadata,
          Date.now(),
        ],
      );
      return toRecord(row(updated.rows[0]));
    });
  }

  async deleteSession(sessionId: string): Promise<boolean> {
    return this.#tx(async (c) => {
      const deleted = await c.query(`DELETE FROM ${this.#q}.sessions WHERE id = $1`, [sessionId]);
      return (deleted.rowCount ?? 0) > 0;
    });
  }

  async appendMessage(
    sessionId: string,
    message: AgentMessage,
    options: { parentId?: string | null } = {},
  ): Promise<StoredMessage> {
    this.#assertOpen();
    assertStorableMessage(message);
    const data = JSON.stringify(message);
    return this.#tx(async (c) => {
      // The session row is locked: the head is read and moved by one writer at a time, on every host.
      const session = await this.#lock(c, sessionId);
      const parentId = options.parentId === undefined ? session.head_message_id : options.parentId;
      if (parentId !== null && !(await this.#hasMessage(c, sessionId, parentId)))
        throw new MessageNotFoundError(sessionId, parentId);
      // Another writer (another host) extended the session first: refuse instead of branching silently.
      if (parentId !== session.head_message_id)
        throw new SessionConflictError(sessionId, parentId, session.head_message_id);
      const inserted = await c.query(
        `INSERT INTO ${this.#q}.messages (session_id, id, parent_id, role, created_at, data)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (session_id, id) DO NOTHING RETURNING seq`,
        [sessionId, message.id, parentId, message.role, message.createdAt ?? Date.now(), data],
      );
      if (inserted.rowCount === 0)
        throw new InvalidSessionInputError(
          `appendMessage: session "${sessionId}" already has a message "${message.id}".`,
        );
      await c.query(`UPDATE ${this.#q}.sessions SET head_message_id = $2, updated_at = $3 WHERE id = $1`, [
        sessionId,
        message.id,
        Date.now(),
      ]);
      return { sessionId, message: JSON.parse(data) as AgentMessage, parentId, seq: Number(inserted.rows[0].seq) };
    });
  }

  async getMessage(sessionId: string, messageId: string): Promise<StoredMessage | undefined> {
    return this.#read(async (c) => {
      await this.#session(c, sessionId);
      const found = await c.query(
        `SELECT seq, parent_id, data FROM ${this.#q}.messages WHERE session_id = $1 AND id = $2`,
        [sessionId, messageId],
      );
      const r = found.rows[0];
      return r && { sessionId, message: JSON.parse(r.data), parentId: r.parent_id, seq: Number(r.seq) };
    });
  }

  async getHistory(sessionId: string, options: { headMessageId?: string | null } = {}): Promise<AgentMessage[]> {
    // One REPEATABLE READ transaction: the head and the path come from one snapshot while other hosts write.
    return this.#tx(async (c) => {
      const session = await this.#session(c, sessionId);
      const head = options.headMessageId === undefined ? session.head_message_id : options.headMessageId;
      if (head === null) return [];
      const path = await c.query(`${this.#pathCte()} SELECT data FROM path ORDER BY depth DESC`, [sessionId, head]);
      if (path.rows.length === 0) throw new MessageNotFoundError(sessionId, head);
      return path.rows.map((r) => JSON.parse(r.data) as AgentMessage);
    }, "REPEATABLE READ");
  }

  async forkSession(
    sessionId: string,
    atMessageId: string,
    input: CreateSessionRecordInput = {},
  ): Promise<SessionRecord> {
    return this.#tx(async (c) => {
      const source = await this.#session(c, sessionId);
      if (!(await this.#hasMessage(c, sessionId, atMessageId))) throw new MessageNotFoundError(sessionId, atMessageId);
      const id = input.id ?? createId("ses");
      const now = Date.now();
      const inserted = await c.query(
        `INSERT INTO ${this.#q}.sessions (id, title, model_provider, model_id, cwd, created_at, updated_at, usage,
           usage_by_model, head_message_id, parent_session_id, forked_from_message_id, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $6, $7, '{}', $8, $9, $8, $10) ON CONFLICT (id) DO NOTHING RETURNING id`,
        [
          id,
          input.title ?? source.title,
          input.model ? input.model.provider : source.model_provider,
          input.model ? input.model.id : source.model_id,
          input.cwd ?? source.cwd,
          now,
          JSON.stringify(emptyUsage()),
          atMessageId,
          sessionId,
          input.metadata ? JSON.stringify(input.metadata) : source.metadata,
        ],
      );
      if (inserted.rowCount === 0) throw new SessionExistsError(id);
      // The fork owns a copy of its path, so deleting the source never breaks it.
      await c.query(
        `${this.#pathCte()} INSERT INTO ${this.#q}.messages (session_id, id, parent_id, role, created_at, data)
           SELECT $3, p.id, p.parent_id, m.role, m.created_at, p.data
             FROM path p JOIN ${this.#q}.messages m ON m.seq = p.seq ORDER BY p.depth DESC`,
        [sessionId, atMessageId, id],
      );
      return toRecord(await this.#session(c, id));
    });
  }

  async setHead(sessionId: string, messageId: string | null): Promise<SessionRecord> {
    return this.#tx(async (c) => {
      await this.#lock(c, sessionId);
      if (messageId !== null && !(await this.#hasMessage(c, sessionId, messageId)))
        throw new MessageNotFoundError(sessionId, messageId);
      const updated = await c.query(
        `UPDATE ${this.#q}.sessions SET head_message_id = $2, updated_at = $3 WHERE id = $1 RETURNING *`,
        [sessionId, messageId, Date.now()],
      );
      return toRecord(row(updated.rows[0]));
    });
  }

  async saveWorkingContext(sessionId: string, context: WorkingContext | null): Promise<void> {
    await this.#tx(async (c) => {
      await this.#lock(c, sessionId);
      if (context === null) {
        await c.query(`DELETE FROM ${this.#q}.working_contexts WHERE session_id = $1`, [sessionId]);
        return;
      }
      if (!(await this.#hasMessage(c, sessionId, context.basedOnMessageId)))
        throw new MessageNotFoundError(sessionId, context.basedOnMessageId);
      await c.query(
        `INSERT INTO ${this.#q}.working_contexts (session_id, based_on_message_id, strategy, created_at, data)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (session_id) DO UPDATE SET based_on_message_id = excluded.based_on_message_id,
           strategy = excluded.strategy, created_at = excluded.created_at, data = excluded.data`,
        [sessionId, context.basedOnMessageId, context.strategy, context.createdAt, JSON.stringify(context.messages)],
      );
    });
  }

  async getWorkingContext(sessionId: string): Promise<WorkingContext | undefined> {
    return this.#read(async (c) => {
      await this.#session(c, sessionId);
      const found = await c.query(`SELECT * FROM ${this.#q}.working_contexts WHERE session_id = $1`, [sessionId]);
      const r = found.rows[0];
      return (
        r && {
          messages: JSON.parse(r.data),
          basedOnMessageId: r.based_on_message_id,
          strategy: r.strategy,
          createdAt: Number(r.created_at),
        }
      );
    });
  }

  async addUsage(sessionId: string, model: ModelRef | undefined, usage: Partial<AgentUsage>): Promise<SessionRecord> {
    return this.#tx(async (c) => {
      const current = await this.#lock(c, sessionId);
      const byModel = JSON.parse(current.usage_by_model) as Record<string, AgentUsage>;
      const key = modelKey(model);
      byModel[key] = addUsage(byModel[key] ?? emptyUsage(), usage);
      const total = addUsage(JSON.parse(current.usage), usage);
      const updated = await c.query(
        `UPDATE ${this.#q}.sessions SET usage = $2, usage_by_model = $3, updated_at = $4 WHERE id = $1 RETURNING *`,
        [sessionId, JSON.stringify(total), JSON.stringify(byModel), Date.now()],
      );
      return toRecord(row(updated.rows[0]));
    });
  }

  async saveFileCheckpoint(checkpoint: FileCheckpoint): Promise<void> {
    await this.#tx(async (c) => {
      await this.#lock(c, checkpoint.sessionId);
      await insertCheckpoint(c, this.#q, checkpoint);
    });
  }

  async listFileCheckpoints(sessionId: string, options: { afterMessageId?: string } = {}): Promise<FileCheckpoint[]> {
    return this.#read(async (c) => {
      await this.#session(c, sessionId);
      return selectCheckpoints(c, this.#q, sessionId, options.afterMessageId);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#connection.close();
  }

  // ───────────── connection, transactions, migrations ─────────────

  #assertOpen(): void {
    if (this.#closed) throw new SessionStoreClosedError();
  }

  #connect(): Promise<PgPoolLike> {
    this.#assertOpen();
    return this.#connection.pool();
  }

  /** Runs `work` in one transaction on one connection; any error rolls it back. */
  async #tx<T>(work: (client: PgClientLike) => Promise<T>, isolation?: Isolation): Promise<T> {
    return inTransaction(await this.#connect(), work, isolation);
  }

  /** A single read; one statement needs no transaction of its own. */
  async #read<T>(work: (client: PgClientLike) => Promise<T>): Promise<T> {
    return withClient(await this.#connect(), work);
  }

  async #session(client: PgClientLike, sessionId: string): Promise<SessionRow> {
    const found = await client.query(`SELECT * FROM ${this.#q}.sessions WHERE id = $1`, [sessionId]);
    if (!found.rows[0]) throw new SessionNotFoundError(sessionId);
    return row(found.rows[0]);
  }

  /** Reads the session row and locks it until the transaction ends. */
  async #lock(client: PgClientLike, sessionId: string): Promise<SessionRow> {
    const found = await client.query(`SELECT * FROM ${this.#q}.sessions WHERE id = $1 FOR UPDATE`, [sessionId]);
    if (!found.rows[0]) throw new SessionNotFoundError(sessionId);
    return row(found.rows[0]);
  }

  async #hasMessage(client: PgClientLike, sessionId: string, messageId: string): Promise<boolean> {
    const found = await client.query(`SELECT 1 FROM ${this.#q}.messages WHERE session_id = $1 AND id = $2`, [
      sessionId,
      messageId,
    ]);
    return found.rows.length > 0;
  }

  // The path from a message to its root, child first; `depth` orders it. $1 = session, $2 = head.
  #pathCte(): string {
    return `WITH RECURSIVE path(seq, id, parent_id, data, depth) AS (
        SELECT seq, id, parent_id, data, 0 FROM ${this.#q}.messages WHERE session_id = $1 AND id = $2
        UNION ALL
        SELECT m.seq, m.id, m.parent_id, m.data, path.depth + 1
          FROM ${this.#q}.messages m JOIN path ON m.session_id = $1 AND m.id = path.parent_id
      )`;
  }
}

/** A `sessions` row with its BIGINT columns as numbers (pg returns them as strings). */
function row(raw: any): SessionRow {
  return { ...raw, created_at: Number(raw.created_at), updated_at: Number(raw.updated_at) };
}
