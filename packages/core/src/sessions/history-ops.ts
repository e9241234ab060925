import { previewFileRestore, restoreFileCheckpoints } from "../checkpoints/index.js";
import type { Compactor } from "../compaction/index.js";
import { InvalidSessionInputError, MessageNotFoundError } from "./errors.js";
import type { RewindPreview, RewindResult } from "./session-options.js";
import type { SessionStore } from "./store.js";

/** What the history operations of one session work on. */
export interface HistoryScope {
  store: SessionStore;
  sessionId: string;
  workspaceRoot: string | undefined;
  compactor: Compactor | undefined;
}

/**
 * Moves the head back to `toMessageId` (`null`: before the first message, an empty history); with `{files: true}`,
 * also puts back files changed after it.
 */
export async function rewindHistory(
  scope: HistoryScope,
  toMessageId: string | null,
  options: { files?: boolean },
): Promise<RewindResult> {
  const { store, sessionId, compactor } = scope;
  if (toMessageId !== null && !(await store.getMessage(sessionId, toMessageId)))
    throw new MessageNotFoundError(sessionId, toMessageId);
  const files = options.files ? await restoreFileCheckpoints(restoreOptions(scope, toMessageId)) : [];
  await store.setHead(sessionId, toMessageId);
  // A working context built on messages the rewind removed is stale: the next request starts from the transcript.
  const working = compactor?.working;
  if (compactor && working) {
    const history = await store.getHistory(sessionId);
    if (!history.some((m) => m.id === working.basedOnMessageId)) {
      await store.saveWorkingContext(sessionId, null);
      compactor.working = undefined;
    }
  }
  return { headMessageId: toMessageId, files };
}

/** What `rewindHistory(scope, toMessageId, {files: true})` would change, without changing it. */
export async function previewRewindHistory(scope: HistoryScope, toMessageId: string | null): Promise<RewindPreview> {
  const { store, sessionId } = scope;
  const history = await store.getHistory(sessionId);
  if (toMessageId === null) {
    const files = scope.workspaceRoot ? await previewFileRestore(restoreOptions(scope, null)) : [];
    return { messagesRemoved: history.length, files };
  }
  const index = history.findIndex((m) => m.id === toMessageId);
  const target = await store.getHistory(sessionId, { headMessageId: toMessageId });
  const kept = index >= 0 ? index + 1 : target.filter((m) => history.some((h) => h.id === m.id)).length;
  const files = scope.workspaceRoot ? await previewFileRestore(restoreOptions(scope, toMessageId)) : [];
  return { messagesRemoved: history.length - kept, files };
}

function restoreOptions(scope: HistoryScope, toMessageId: string | null) {
  if (!scope.workspaceRoot)
    throw new InvalidSessionInputError(
      "rewind with files needs the session's workspaceRoot (give it to createSession/openSession)",
    );
  return {
    store: scope.store,
    sessionId: scope.sessionId,
    workspaceRoot: scope.workspaceRoot,
    ...(toMessageId !== null && { afterMessageId: toMessageId }),
  };
}
