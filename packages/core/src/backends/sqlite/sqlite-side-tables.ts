import type { FileCheckpoint, WorkingContext } from "../../sessions/contract.js";
import { MessageNotFoundError } from "../../sessions/contract.js";
import type { RowReader } from "./sqlite-rows.js";
import type { MessageRow, prepare } from "./sqlite-statements.js";

// The SQLite store's tables beside the transcript: file checkpoints and the working context.

type Statements = ReturnType<typeof prepare>;

/** Inserts a checkpoint, ordered by its message's place in the transcript. */
export function insertCheckpoint(stmts: Statements, checkpoint: FileCheckpoint): void {
  const message = stmts.getMessage.get(checkpoint.sessionId, checkpoint.messageId) as MessageRow | undefined;
  // A checkpoint for a message not stored yet sorts after everything written so far.
  const messageSeq = message?.seq ?? (stmts.maxSeq.get(checkpoint.sessionId) as { seq: number | null }).seq ?? 0;
  stmts.insertCheckpoint.run(
    checkpoint.sessionId,
    checkpoint.messageId,
    messageSeq,
    checkpoint.path,
    checkpoint.content === null ? 0 : 1,
    checkpoint.content === null ? null : Buffer.from(checkpoint.content),
    checkpoint.createdAt,
  );
}

/** Checkpoints in write order; with `afterMessageId`, those of messages appended after it. */
export function readCheckpoints(stmts: Statements, sessionId: string, afterMessageId?: string): FileCheckpoint[] {
  let after = -1;
  if (afterMessageId !== undefined) {
    const message = stmts.getMessage.get(sessionId, afterMessageId) as MessageRow | undefined;
    if (!message) throw new MessageNotFoundError(sessionId, afterMessageId);
    after = message.seq;
  }
  const rows = stmts.listCheckpoints.all(sessionId, after) as Array<{
    message_id: string;
    path: string;
    existed: number;
    content: Buffer | null;
    created_at: number;
  }>;
  return rows.map((r) => ({
    sessionId,
    messageId: r.message_id,
    path: r.path,
    content: r.existed ? new Uint8Array(r.content ?? new Uint8Array(0)) : null,
    createdAt: r.created_at,
  }));
}

/** The stored working context; an unreadable one is reported and dropped (the next request uses the transcript). */
export function readWorkingContext(stmts: Statements, rows: RowReader, sessionId: string): WorkingContext | undefined {
  const row = stmts.getWorking.get(sessionId) as
    | { based_on_message_id: string; strategy: string; created_at: number; data: string }
    | undefined;
  if (!row) return undefined;
  const messages = rows.parse<WorkingContext["messages"] | undefined>(row.data, undefined, {
    table: "working_contexts",
    sessionId,
  });
  return (
    messages && {
      messages,
      basedOnMessageId: row.based_on_message_id,
      strategy: row.strategy,
      createdAt: row.created_at,
    }
  );
}
