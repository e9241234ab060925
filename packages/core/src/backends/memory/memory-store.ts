import { type AgentMessage, type AgentUsage, addUsage, createId, emptyUsage, type ModelRef } from "@heddle/shared";
import {
  assertStorableMessage,
  type CreateSessionRecordInput,
  type FileCheckpoint,
  InvalidSessionInputError,
  type ListSessionsOptions,
  MessageNotFoundError,
  modelKey,
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

interface MemorySession {
  record: SessionRecord;
  messages: Map<string, StoredMessage>;
  working?: WorkingContext;
  checkpoints: Array<FileCheckpoint & { messageSeq: number }>;
}

/** The data behind a `MemorySessionStore`; pass the same object to two stores to share (or "reopen") it. */
export interface MemorySessionData {
  sessions: Map<string, MemorySession>;
  seq: number;
}

export function createMemorySessionData(): MemorySessionData {
  return { sessions: new Map(), seq: 0 };
}

/**
 * A `SessionStore` in memory: for tests and short-lived hosts. Values are copied in and out, so a caller
 * mutating a message after `appendMessage` does not change what is stored.
 */
export class MemorySessionStore implements SessionStore {
  readonly #data: MemorySessionData;
  #closed = false;

  constructor(options: { data?: MemorySessionData } = {}) {
    this.#data = options.data ?? createMemorySessionData();
  }

  async createSession(input: CreateSessionRecordInput = {}): Promise<SessionRecord> {
    this.#open();
    const id = input.id ?? createId("ses");
    if (this.#data.sessions.has(id)) throw new SessionExistsError(id);
    const now = Date.now();
    const record: SessionRecord = {
      id,
      createdAt: now,
      updatedAt: now,
      usage: emptyUsage(),
      usageByModel: {},
      headMessageId: null,
      ...(input.title !== undefined && { title: input.title }),
      ...(input.model && { model: { ...input.model } }),
      ...(input.cwd !== undefined && { cwd: input.cwd }),
      ...(input.metadata && { metadata: structuredClone(input.metadata) }),
    };
    this.#data.sessions.set(id, { record, messages: new Map(), checkpoints: [] });
    return structuredClone(record);
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    this.#open();
    const session = this.#data.sessions.get(sessionId);
    return session && structuredClone(session.record);
  }

  async listSessions(options: ListSessionsOptions = {}): Promise<SessionRecord[]> {
    this.#open();
    const all = [...this.#data.sessions.values()].map((s) => s.record);
    all.sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1));
    const offset = options.offset ?? 0;
    return structuredClone(all.slice(offset, options.limit === undefined ? undefined : offset + options.limit));
  }

  async updateSession(sessionId: string, patch: SessionRecordPatch): Promise<SessionRecord> {
    const session = this.#session(sessionId);
    const record = session.record;
    if (patch.title !== undefined) record.title = patch.title;
    if (patch.model) record.model = { ...patch.model };
    if (patch.cwd !== undefined) record.cwd = patch.cwd;
    if (patch.metadata) record.metadata = structuredClone(patch.metadata);
    record.updatedAt = Date.now();
    return structuredClone(record);
  }

  async deleteSession(sessionId: string): Promise<boolean> {
    this.#open();
    return this.#data.sessions.delete(sessionId);
  }

  async appendMessage(
    sessionId: string,
    message: AgentMessage,
    options: { parentId?: string | null } = {},
  ): Promise<StoredMessage> {
    const session = this.#session(sessionId);
    assertStorableMessage(message);
    if (session.messages.has(message.id))
      throw new InvalidSessionInputError(
        `appendMessage: session "${sessionId}" already has a message "${message.id}".`,
      );
    const parentId = options.parentId === undefined ? session.record.headMessageId : options.parentId;
    if (parentId !== null && !session.messages.has(parentId)) throw new MessageNotFoundError(sessionId, parentId);
    const head = session.record.headMessageId;
    if (parentId !== head) throw new SessionConflictError(sessionId, parentId, head);
    const stored: StoredMessage = { sessionId, message: structuredClone(message), parentId, seq: ++this.#data.seq };
    session.messages.set(message.id, stored);
    session.record.headMessageId = message.id;
    session.record.updatedAt = Date.now();
    return structuredClone(stored);
  }

  async getMessage(sessionId: string, messageId: string): Promise<StoredMessage | undefined> {
    const stored = this.#session(sessionId).messages.get(messageId);
    return stored && structuredClone(stored);
  }

  async getHistory(sessionId: string, options: { headMessageId?: string | null } = {}): Promise<AgentMessage[]> {
    const session = this.#session(sessionId);
    const head = options.headMessageId === undefined ? session.record.headMessageId : options.headMessageId;
    if (head !== null && !session.messages.has(head)) throw new MessageNotFoundError(sessionId, head);
    return structuredClone(pathTo(session, head).map((s) => s.message));
  }

  async forkSession(
    sessionId: string,
    atMessageId: string,
    input: CreateSessionRecordInput = {},
  ): Promise<SessionRecord> {
    const source = this.#session(sessionId);
    if (!source.messages.has(atMessageId)) throw new MessageNotFoundError(sessionId, atMessageId);
    const record = await this.createSession({
      title: source.record.title,
      model: source.record.model,
      cwd: source.record.cwd,
      metadata: source.record.metadata,
      ...input,
    });
    const fork = this.#data.sessions.get(record.id)!;
    for (const stored of pathTo(source, atMessageId)) {
      fork.messages.set(stored.message.id, { ...structuredClone(stored), sessionId: record.id, seq: ++this.#data.seq });
    }
    fork.record.headMessageId = atMessageId;
    fork.record.parentSessionId = sessionId;
    fork.record.forkedFromMessageId = atMessageId;
    return structuredClone(fork.record);
  }

  async setHead(sessionId: string, messageId: string | null): Promise<SessionRecord> {
    const session = this.#session(sessionId);
    if (messageId !== null && !session.messages.has(messageId)) throw new MessageNotFoundError(sessionId, messageId);
    session.record.headMessageId = messageId;
    session.record.updatedAt = Date.now();
    return structuredClone(session.record);
  }

  async saveWorkingContext(sessionId: string, context: WorkingContext | null): Promise<void> {
    const session = this.#session(sessionId);
    if (context === null) {
      session.working = undefined;
      return;
    }
    if (!session.messages.has(context.basedOnMessageId))
      throw new MessageNotFoundError(sessionId, context.basedOnMessageId);
    session.working = structuredClone(context);
  }

  async getWorkingContext(sessionId: string): Promise<WorkingContext | undefined> {
    const working = this.#session(sessionId).working;
    return working && structuredClone(working);
  }

  async addUsage(sessionId: string, model: ModelRef | undefined, usage: Partial<AgentUsage>): Promise<SessionRecord> {
    const record = this.#session(sessionId).record;
    const key = modelKey(model);
    record.usage = addUsage(record.usage, usage);
    record.usageByModel[key] = addUsage(record.usageByModel[key] ?? emptyUsage(), usage);
    record.updatedAt = Date.now();
    return structuredClone(record);
  }

  async saveFileCheckpoint(checkpoint: FileCheckpoint): Promise<void> {
    const session = this.#session(checkpoint.sessionId);
    const messageSeq = session.messages.get(checkpoint.messageId)?.seq ?? this.#data.seq;
    session.checkpoints.push({
      ...checkpoint,
      content: checkpoint.content === null ? null : new Uint8Array(checkpoint.content),
      messageSeq,
    });
  }

  async listFileCheckpoints(sessionId: string, options: { afterMessageId?: string } = {}): Promise<FileCheckpoint[]> {
    const session = this.#session(sessionId);
    let after = -1;
    if (options.afterMessageId !== undefined) {
      const stored = session.messages.get(options.afterMessageId);
      if (!stored) throw new MessageNotFoundError(sessionId, options.afterMessageId);
      after = stored.seq;
    }
    return session.checkpoints
      .filter((c) => c.messageSeq > after)
      .map(({ messageSeq: _seq, ...c }) => ({ ...c, content: c.content === null ? null : new Uint8Array(c.content) }));
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #open(): void {
    if (this.#closed) throw new SessionStoreClosedError();
  }

  #session(sessionId: string): MemorySession {
    this.#open();
    const session = this.#data.sessions.get(sessionId);
    if (!session) throw new SessionNotFoundError(sessionId);
    return session;
  }
}

function pathTo(session: MemorySession, head: string | null): StoredMessage[] {
  const path: StoredMessage[] = [];
  for (let id = head; id !== null; ) {
    const stored = session.messages.get(id)!;
    path.push(stored);
    id = stored.parentId;
  }
  return path.reverse();
}
