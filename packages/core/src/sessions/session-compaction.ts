import type { AgentMessage } from "@heddle/shared";
import { Compactor, type ManualCompactionResult } from "../compaction/index.js";
import type { SessionEvent } from "./session-events.js";
import type { SessionHooks } from "./session-hooks.js";
import type { SessionOptions } from "./session-options.js";
import type { SessionStore, WorkingContext } from "./store.js";

/** What the compaction of one session needs from it. */
export interface SessionCompactionDeps {
  sessionId: string;
  store: SessionStore;
  options: SessionOptions;
  working: WorkingContext | undefined;
  hooks: SessionHooks | undefined;
  /** Resolves when every message queued so far is stored (a working context never refers to an unsaved one). */
  flushWrites(): Promise<void>;
  emit(event: SessionEvent): void;
}

/** The session's compactor, or none with `compaction: false`. `PreCompact` command hooks run before each one. */
export function createSessionCompactor(deps: SessionCompactionDeps): Compactor | undefined {
  const { sessionId, store, options, hooks } = deps;
  const compaction = options.compaction;
  if (compaction === false) return undefined;
  return new Compactor(
    hooks ? hooks.compactionOptions(compaction) : (compaction ?? {}),
    {
      sessionId,
      ...(options.model && { model: options.model }),
      save: async (context) => {
        await deps.flushWrites();
        await store.saveWorkingContext(sessionId, context);
      },
      emit: (event) => {
        if (event.type === "compaction-finished" && event.error === undefined) hooks?.compacted();
        deps.emit({ ...event, sessionId });
      },
    },
    deps.working,
  );
}

/** `session.compact()`: compacts the stored history now, whatever its size. */
export async function compactHistory(
  compactor: Compactor,
  history: AgentMessage[],
  systemPrompt: string | undefined,
  signal: AbortSignal,
): Promise<ManualCompactionResult> {
  return compactor.compactNow(history, { ...(systemPrompt !== undefined && { systemPrompt }), signal });
}
