import type Database from "better-sqlite3";

export interface MessageRow {
  seq: number;
  id: string;
  parent_id: string | null;
  data: string;
}

// The path from a message to its root, child first; `depth` orders it.
const PATH_CTE = `
  WITH RECURSIVE path(seq, id, parent_id, data, depth) AS (
    SELECT seq, id, parent_id, data, 0 FROM messages WHERE session_id = @sessionId AND id = @head
    UNION ALL
    SELECT m.seq, m.id, m.parent_id, m.data, path.depth + 1
      FROM messages m JOIN path ON m.session_id = @sessionId AND m.id = path.parent_id
  )`;

/** Every statement the SQLite store runs, prepared once per connection. */
export function prepare(db: Database.Database): Record<string, Database.Statement> {
  return {
    getSession: db.prepare("SELECT * FROM sessions WHERE id = ?"),
    getHead: db.prepare("SELECT head_message_id FROM sessions WHERE id = ?"),
    listSessions: db.prepare("SELECT * FROM sessions ORDER BY updated_at DESC, id LIMIT ? OFFSET ?"),
    insertSession: db.prepare(
      `INSERT INTO sessions (id, title, model_provider, model_id, cwd, created_at, updated_at, usage, usage_by_model,
        head_message_id, parent_session_id, forked_from_message_id, metadata)
       VALUES (@id, @title, @model_provider, @model_id, @cwd, @created_at, @updated_at, @usage, @usage_by_model,
        @head_message_id, @parent_session_id, @forked_from_message_id, @metadata)`,
    ),
    updateSession: db.prepare(
      `UPDATE sessions SET title = @title, model_provider = @model_provider, model_id = @model_id, cwd = @cwd,
        metadata = @metadata, updated_at = @updated_at WHERE id = @id`,
    ),
    deleteSession: db.prepare("DELETE FROM sessions WHERE id = ?"),
    hasMessage: db.prepare("SELECT 1 FROM messages WHERE session_id = ? AND id = ?"),
    getMessage: db.prepare("SELECT seq, id, parent_id, data FROM messages WHERE session_id = ? AND id = ?"),
    insertMessage: db.prepare(
      "INSERT INTO messages (session_id, id, parent_id, role, created_at, data) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    setHead: db.prepare("UPDATE sessions SET head_message_id = ?, updated_at = ? WHERE id = ?"),
    history: db.prepare(`${PATH_CTE} SELECT id, data FROM path ORDER BY depth DESC`),
    copyPath: db.prepare(
      `${PATH_CTE} INSERT INTO messages (session_id, id, parent_id, role, created_at, data)
        SELECT @forkId, p.id, p.parent_id, m.role, m.created_at, p.data
          FROM path p JOIN messages m ON m.seq = p.seq ORDER BY p.depth DESC`,
    ),
    setUsage: db.prepare("UPDATE sessions SET usage = ?, usage_by_model = ?, updated_at = ? WHERE id = ?"),
    deleteWorking: db.prepare("DELETE FROM working_contexts WHERE session_id = ?"),
    upsertWorking: db.prepare(
      `INSERT INTO working_contexts (session_id, based_on_message_id, strategy, created_at, data) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(session_id) DO UPDATE SET based_on_message_id = excluded.based_on_message_id,
         strategy = excluded.strategy, created_at = excluded.created_at, data = excluded.data`,
    ),
    getWorking: db.prepare("SELECT * FROM working_contexts WHERE session_id = ?"),
    maxSeq: db.prepare("SELECT MAX(seq) AS seq FROM messages WHERE session_id = ?"),
    insertCheckpoint: db.prepare(
      `INSERT INTO file_checkpoints (session_id, message_id, message_seq, path, existed, content, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    listCheckpoints: db.prepare("SELECT * FROM file_checkpoints WHERE session_id = ? AND message_seq > ? ORDER BY seq"),
  };
}
