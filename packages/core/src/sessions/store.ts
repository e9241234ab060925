import type { AgentMessage, AgentUsage, ModelRef } from "@heddle/shared";
import type { CheckpointStore, FileCheckpoint } from "../checkpoints/index.js";
import type { WorkingContext, WorkingContextStore } from "../compaction/index.js";
import { InvalidSessionInputError } from "./errors.js";

export type { CheckpointStore, FileCheckpoint, WorkingContext, WorkingContextStore };

/** A session's metadata. The transcript itself is read with `getHistory`. */
export interface SessionRecord {
  id: string;
  title?: string;
  /** The model the session runs on (the last one used). */
  model?: ModelRef;
  /** The working directory / workspace root the session was started in. */
  cwd?: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
  /** Total usage of every model response in the session. */
  usage: AgentUsage;
  /** Usage split per model, keyed `provider/id`. */
  usageByModel: { [modelKey: string]: AgentUsage };
  /** The last message of the current branch; `null` for an empty session. History is head → root. */
  headMessageId: string | null;
  /** For a fork: the session it was forked from, and at which message. */
  parentSessionId?: string;
  forkedFromMessageId?: string;
  metadata?: { [key: string]: unknown };
}

/** What `createSession` takes; everything is optional. */
export interface CreateSessionRecordInput {
  id?: string;
  title?: string;
  model?: ModelRef;
  cwd?: string;
  metadata?: { [key: string]: unknown };
}

/** The fields `updateSession` may change. */
export interface SessionRecordPatch {
  title?: string;
  model?: ModelRef;
  cwd?: string;
  metadata?: { [key: string]: unknown };
}

/** A stored message with its place in the tree. */
export interface StoredMessage {
  sessionId: string;
  message: AgentMessage;
  /** The message before it on its branch; `null` for a root. */
  parentId: string | null;
  /** Write order within the store (monotonic). */
  seq: number;
}

export interface ListSessionsOptions {
  limit?: number;
  offset?: number;
}

/**
 * The transcript part of a session store: session records and the message tree. Every method is async so a
 * networked store (PostgreSQL, ...) fits the same seam, and no method assumes a single process. A closed store
 * rejects every call with `SessionStoreClosedError`.
 */
export interface TranscriptStore {
  /** Creates a session; an id that exists rejects with `SessionExistsError`. */
  createSession(input?: CreateSessionRecordInput): Promise<SessionRecord>;
  getSession(sessionId: string): Promise<SessionRecord | undefined>;
  /** Sessions, most recently updated first. */
  listSessions(options?: ListSessionsOptions): Promise<SessionRecord[]>;
  updateSession(sessionId: string, patch: SessionRecordPatch): Promise<SessionRecord>;
  /** Deletes the session, its messages, working context and checkpoints. Resolves false when it did not exist. */
  deleteSession(sessionId: string): Promise<boolean>;
  /**
   * Appends one message and makes it the head. `parentId` defaults to the current head; `null` starts a new
   * root. One small write: the transcript is never rewritten. An explicit `parentId` that is no longer the head
   * (another writer extended the session since the caller read it) rejects with `SessionConflictError`, checked
   * inside the write: a session never branches silently. Branching on purpose is `setHead`, then an append.
   */
  appendMessage(
    sessionId: string,
    message: AgentMessage,
    options?: { parentId?: string | null },
  ): Promise<StoredMessage>;
  getMessage(sessionId: string, messageId: string): Promise<StoredMessage | undefined>;
  /** The path from the root to the head (or to `headMessageId`), oldest first. */
  getHistory(sessionId: string, options?: { headMessageId?: string | null }): Promise<AgentMessage[]>;
  /** A new session whose history is the source's path up to `atMessageId` (inclusive). */
  forkSession(sessionId: string, atMessageId: string, input?: CreateSessionRecordInput): Promise<SessionRecord>;
  /** Moves the head (rewind); later appends branch from there. `null` empties the visible history. */
  setHead(sessionId: string, messageId: string | null): Promise<SessionRecord>;
  close(): Promise<void>;
}

/** The usage part of a session store: totals per session and per model, read back with `getSession`. */
export interface UsageStore {
  /** Adds a model response's usage to the session totals and to its model's. */
  addUsage(sessionId: string, model: ModelRef | undefined, usage: Partial<AgentUsage>): Promise<SessionRecord>;
}

/**
 * Where sessions live: the transcript, usage, the compacted working context and file checkpoints. Each part
 * has its own interface and its own conformance suite in `@heddle/core/testing`.
 */
export interface SessionStore extends TranscriptStore, UsageStore, WorkingContextStore, CheckpointStore {}

/** The key of a model in `usageByModel`. */
export function modelKey(model: ModelRef | undefined): string {
  return model ? `${model.provider}/${model.id}` : "unknown";
}

/** Rejects a message a store cannot keep, with the field that is wrong. */
export function assertStorableMessage(message: AgentMessage): void {
  if (!message || typeof message !== "object")
    throw new InvalidSessionInputError("appendMessage: message must be an object.");
  if (typeof message.id !== "string" || message.id === "")
    throw new InvalidSessionInputError("appendMessage: message.id must be a non-empty string.");
  if (message.role !== "user" && message.role !== "assistant" && message.role !== "tool")
    throw new InvalidSessionInputError(
      `appendMessage: message.role must be user, assistant or tool (got ${String(message.role)}).`,
    );
  if (!Array.isArray(message.content))
    throw new InvalidSessionInputError(`appendMessage: message.content of ${message.id} must be an array of parts.`);
}
