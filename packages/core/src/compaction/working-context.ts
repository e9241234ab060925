import type { AgentMessage } from "@heddle/shared";

/**
 * The compacted view of a conversation, stored beside the whole transcript. The next turn's model request is
 * `messages` followed by the transcript messages after `basedOnMessageId`.
 */
export interface WorkingContext {
  messages: AgentMessage[];
  /** The transcript message the compacted view covers up to (inclusive). */
  basedOnMessageId: string;
  /** The strategy that produced it (`summarizing`, `truncating`, ...). */
  strategy: string;
  createdAt: number;
}

/** The part of a session store that keeps the compacted working context. */
export interface WorkingContextStore {
  /** Stores (or, with `null`, clears) the compacted working context. */
  saveWorkingContext(sessionId: string, context: WorkingContext | null): Promise<void>;
  getWorkingContext(sessionId: string): Promise<WorkingContext | undefined>;
}
