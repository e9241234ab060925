export { createSession, openSession } from "./create-session.js";
export {
  InvalidSessionInputError,
  MessageNotFoundError,
  SessionConflictError,
  SessionExistsError,
  SessionNotFoundError,
  SessionStoreClosedError,
  SessionStoreError,
  type SessionStoreErrorCode,
  SessionWriteError,
} from "./errors.js";
export { createMemorySessionData, type MemorySessionData, MemorySessionStore } from "./memory-store.js";
export {
  type PgClientLike,
  type PgPoolLike,
  PostgresSessionStore,
  type PostgresSessionStoreOptions,
} from "./postgres-store.js";
export { danglingToolCalls, pairToolMessages, repairMessage } from "./repair.js";
export type { SessionEvent, SessionEventType, SessionListener, SessionUsage } from "./session-events.js";
export type { CommandHookOptions, SessionStartSource } from "./session-hooks.js";
export type {
  PreCompactHookContext,
  SessionEndContext,
  SessionHookOptions,
  SessionLifecycleHooks,
  SessionStartContext,
  UserPromptSubmitContext,
} from "./session-lifecycle.js";
export {
  type RewindPreview,
  type RewindResult,
  type SessionOptions,
  type SessionRunStream,
  SessionRuntime,
  type SessionTools,
} from "./session-runtime.js";
export { type DatabaseFileErrorCode, SessionDatabaseError, sqliteFileProblem } from "./sqlite-errors.js";
export type { UnreadableRow } from "./sqlite-rows.js";
export { SESSION_MIGRATIONS, SESSION_SCHEMA_VERSION } from "./sqlite-schema.js";
export { defaultSessionDbPath, SqliteSessionStore, type SqliteSessionStoreOptions } from "./sqlite-store.js";
export type {
  CheckpointStore,
  CreateSessionRecordInput,
  FileCheckpoint,
  ListSessionsOptions,
  SessionRecord,
  SessionRecordPatch,
  SessionStore,
  StoredMessage,
  TranscriptStore,
  UsageStore,
  WorkingContext,
  WorkingContextStore,
} from "./store.js";
export { modelKey } from "./store.js";
