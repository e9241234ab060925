/** A file's content before a tool changed it. `content: null` means the file did not exist. */
export interface FileCheckpoint {
  sessionId: string;
  /** The message (an assistant message with the tool call) the change belongs to. */
  messageId: string;
  path: string;
  content: Uint8Array | null;
  createdAt: number;
}

/** The part of a session store that keeps file checkpoints (what `rewind(id, {files: true})` restores). */
export interface CheckpointStore {
  saveFileCheckpoint(checkpoint: FileCheckpoint): Promise<void>;
  /**
   * Checkpoints in write order; with `afterMessageId`, only those whose message was appended after it
   * (what a rewind to that message must undo).
   */
  listFileCheckpoints(sessionId: string, options?: { afterMessageId?: string }): Promise<FileCheckpoint[]>;
}
