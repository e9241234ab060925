import { HeddleError } from "@heddle/shared";

/** The codes of an SQLite database file that cannot be used. */
export type DatabaseFileErrorCode = "database_corrupt" | "database_read_only" | "database_unavailable";

/** Why a session store refused a call; stable codes a host can switch on. */
export type SessionStoreErrorCode =
  | "store_closed"
  | "session_not_found"
  | "session_exists"
  | "message_not_found"
  | "session_invalid_input"
  | "session_busy"
  | "write_failed"
  | "session_conflict"
  | "database_corrupt"
  | "database_read_only"
  | "database_unavailable"
  | "database_too_new";

/** Every error a `SessionStore` or `SessionRuntime` raises on purpose carries a code (a `HeddleError`). */
export class SessionStoreError extends HeddleError {
  declare readonly code: SessionStoreErrorCode;
  constructor(code: SessionStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "SessionStoreError";
  }
}

/** A call on a store (or session) after `close()`. */
export class SessionStoreClosedError extends SessionStoreError {
  constructor(what = "session store") {
    super("store_closed", `The ${what} is closed; open a new one to keep working.`);
    this.name = "SessionStoreClosedError";
  }
}

/** No session with this id. */
export class SessionNotFoundError extends SessionStoreError {
  readonly sessionId: string;
  constructor(sessionId: string) {
    super("session_not_found", `No session with id "${sessionId}".`);
    this.name = "SessionNotFoundError";
    this.sessionId = sessionId;
  }
}

/** `createSession` with an id that is already taken. */
export class SessionExistsError extends SessionStoreError {
  readonly sessionId: string;
  constructor(sessionId: string) {
    super("session_exists", `A session with id "${sessionId}" already exists; use openSession to resume it.`);
    this.name = "SessionExistsError";
    this.sessionId = sessionId;
  }
}

/** A message id that is not part of the session. */
export class MessageNotFoundError extends SessionStoreError {
  readonly sessionId: string;
  readonly messageId: string;
  constructor(sessionId: string, messageId: string) {
    super("message_not_found", `Session "${sessionId}" has no message with id "${messageId}".`);
    this.name = "MessageNotFoundError";
    this.sessionId = sessionId;
    this.messageId = messageId;
  }
}

/** Input that cannot be stored (a message without an id, a duplicate message id, ...). */
export class InvalidSessionInputError extends SessionStoreError {
  constructor(message: string) {
    super("session_invalid_input", message);
    this.name = "InvalidSessionInputError";
  }
}

/** A store write failed during a turn: the run was aborted so nothing unsaved piles up. */
export class SessionWriteError extends SessionStoreError {
  constructor(cause: unknown) {
    super("write_failed", `Writing to the session store failed: ${(cause as Error)?.message ?? String(cause)}`, {
      cause,
    });
    this.name = "SessionWriteError";
  }
}

/**
 * An append whose parent is no longer the session's head: another writer (a second process, a second handle)
 * extended the session first. Nothing was stored; reopen the session to continue from the new head. Checked inside
 * the store's write, so two writers never silently branch one session.
 */
export class SessionConflictError extends SessionStoreError {
  readonly sessionId: string;
  /** The parent the caller expected to be the head. */
  readonly expectedHeadId: string | null;
  /** The head the store has now. */
  readonly actualHeadId: string | null;
  constructor(sessionId: string, expectedHeadId: string | null, actualHeadId: string | null) {
    super(
      "session_conflict",
      `Session "${sessionId}" was changed by another writer: its head is ${actualHeadId ?? "empty"}, not ` +
        `${expectedHeadId ?? "empty"}. Nothing was stored; reopen the session to continue from its current history.`,
    );
    this.name = "SessionConflictError";
    this.sessionId = sessionId;
    this.expectedHeadId = expectedHeadId;
    this.actualHeadId = actualHeadId;
  }
}
