// What a session store backend (backends/<name>/) builds on: the store interfaces, their errors and the helpers a
// store shares with the runtime. Nothing here reaches a runtime or a backend, so a backend imports this file, never
// sessions/index.ts (which re-exports the backends).
export {
  type DatabaseFileErrorCode,
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
export { assertStorableMessage, modelKey } from "./store.js";
