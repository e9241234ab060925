export { createMemorySessionData, type MemorySessionData, MemorySessionStore } from "../backends/memory/index.js";
export {
  type PgClientLike,
  type PgPoolLike,
  PostgresSessionStore,
  type PostgresSessionStoreOptions,
} from "../backends/postgres/index.js";
export {
  type DatabaseFileErrorCode,
  defaultSessionDbPath,
  SessionDatabaseError,
  SqliteSessionStore,
  type SqliteSessionStoreOptions,
  type UnreadableRow,
} from "../backends/sqlite/index.js";
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
export { pairToolMessages } from "./repair.js";
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
