import type { FileCheckpoint } from "../../sessions/contract.js";
import { MessageNotFoundError } from "../../sessions/contract.js";
import type { PgClientLike } from "./postgres-pool.js";

// The PostgreSQL store's file checkpoints: the SQL of `saveFileCheckpoint` and `listFileCheckpoints`, run on a
// connection the store holds (inside its transaction, with the session row locked, for a write). `q` is the
// quoted schema.

/** Inserts one checkpoint; one for a message not stored yet sorts after everything written so far. */
export async function insertCheckpoint(client: PgClientLike, q: string, checkpoint: FileCheckpoint): Promise<void> {
  const seq = await client.query(
    `SELECT COALESCE((SELECT seq FROM ${q}.messages WHERE session_id = $1 AND id = $2),
                     (SELECT MAX(seq) FROM ${q}.messages WHERE session_id = $1), 0) AS seq`,
    [checkpoint.sessionId, checkpoint.messageId],
  );
  await client.query(
    `INSERT INTO ${q}.file_checkpoints (session_id, message_id, message_seq, path, existed, content, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      checkpoint.sessionId,
      checkpoint.messageId,
      Number(seq.rows[0].seq),
      checkpoint.path,
      checkpoint.content !== null,
      checkpoint.content === null ? null : Buffer.from(checkpoint.content),
      checkpoint.createdAt,
    ],
  );
}

/** Checkpoints in write order; with `afterMessageId`, only those whose message was appended after it. */
export async function selectCheckpoints(
  client: PgClientLike,
  q: string,
  sessionId: string,
  afterMessageId: string | undefined,
): Promise<FileCheckpoint[]> {
  let after = -1;
  if (afterMessageId !== undefined) {
    const found = await client.query(`SELECT seq FROM ${q}.messages WHERE session_id = $1 AND id = $2`, [
      sessionId,
      afterMessageId,
    ]);
    if (!found.rows[0]) throw new MessageNotFoundError(sessionId, afterMessageId);
    after = Number(found.rows[0].seq);
  }
  const rows = await client.query(
    `SELECT * FROM ${q}.file_checkpoints WHERE session_id = $1 AND message_seq > $2 ORDER BY seq`,
    [sessionId, after],
  );
  return rows.rows.map((r) => ({
    sessionId,
    messageId: r.message_id,
    path: r.path,
    content: r.existed ? new Uint8Array(r.content ?? new Uint8Array(0)) : null,
    createdAt: Number(r.created_at),
  }));
}
