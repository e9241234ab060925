import type { AgentRuntime } from "@heddle/agents";
import {
  type AgentMessage,
  type AgentRunInput,
  type AgentRunResult,
  type AgentRuntimeEvent,
  consoleLogger,
  type ModelRef,
} from "@heddle/shared";
import type { Compactor, ManualCompactionResult } from "../compaction/index.js";
import type { AgentHost } from "../host/index.js";
import {
  InvalidSessionInputError,
  SessionConflictError,
  SessionStoreClosedError,
  SessionStoreError,
  SessionWriteError,
} from "./errors.js";
import { type HistoryScope, previewRewindHistory, rewindHistory } from "./history-ops.js";
import { compactHistory, createSessionCompactor } from "./session-compaction.js";
import type { SessionEvent, SessionListener, SessionUsage } from "./session-events.js";
import { blockedTurnEvents, blockedTurnResult, type SessionHooks, type TurnGate } from "./session-hooks.js";
import { SessionListeners } from "./session-listeners.js";
import type { RewindPreview, RewindResult, SessionOptions } from "./session-options.js";
import { type SessionRunStream, streamTurn } from "./session-stream.js";
import type { SessionStore, WorkingContext } from "./store.js";
import { turnSpec, turnTools } from "./turn-spec.js";
import { WriteQueue } from "./write-queue.js";

export type { RewindPreview, RewindResult, SessionOptions, SessionTools } from "./session-options.js";
export type { SessionRunStream } from "./session-stream.js";

export interface SessionInternals {
  store: SessionStore;
  ownsStore: boolean;
  options: SessionOptions;
  /** Starts the agent of every turn, under the session's policy. */
  host: AgentHost;
  working?: WorkingContext;
  /** The hook engine's session events, when the host runs command hooks. */
  hooks?: SessionHooks;
  reopen(id: string): Promise<SessionRuntime>;
}

/**
 * A conversation kept across turns and restarts. Each `send` has the session's host start a fresh `AgentRuntime`
 * seeded with the whole history read from the store, and every message the runtime adds is written as it is added.
 * The parts live apart: the host and its policy (`host/`, `session-host.ts`), what a turn adds to it
 * (`turn-spec.ts`), the write queue (`write-queue.ts`), fork/rewind (`history-ops.ts`), compaction
 * (`session-compaction.ts`) and the listeners (`session-listeners.ts`).
 */
export class SessionRuntime {
  readonly id: string;
  readonly store: SessionStore;
  readonly #internals: SessionInternals;
  readonly #listeners: SessionListeners;
  readonly #compactor: Compactor | undefined;
  readonly #writes: WriteQueue;
  #agent: AgentRuntime | undefined;
  #running = false;
  #inflight: Promise<unknown> = Promise.resolve();
  #closed = false;
  #abortReason: string | undefined;
  // Aborts what runs outside the agent: UserPromptSubmit/SessionStart hooks and a manual compaction.
  #turnController: AbortController | undefined;
  #lastMessageId: string | null = null;

  constructor(id: string, internals: SessionInternals) {
    this.id = id;
    this.store = internals.store;
    this.#internals = internals;
    this.#listeners = new SessionListeners(internals.options.logger ?? consoleLogger);
    this.#writes = new WriteQueue((error) =>
      this.#agent?.abort(`the session store failed: ${(error as Error)?.message ?? String(error)}`),
    );
    this.#compactor = createSessionCompactor({
      sessionId: id,
      store: this.store,
      options: internals.options,
      working: internals.working,
      hooks: internals.hooks,
      flushWrites: () => this.#writes.settled(),
      emit: (event) => this.#emit(event),
    });
  }

  /** The host every turn's agent starts from: pass it as a child's `host` to run a teammate under this policy. */
  get host(): AgentHost {
    return this.#internals.host;
  }

  /** True while a turn runs. */
  get running(): boolean {
    return this.#running;
  }

  /** Listens to every event of every turn; returns the function that stops listening. */
  subscribe(listener: SessionListener): () => void {
    if (typeof listener !== "function") throw new InvalidSessionInputError("subscribe: listener must be a function");
    return this.#listeners.add(listener);
  }

  /** Sends user input and runs the agent until it stops; resolves with the run's result. */
  send(input: AgentRunInput): Promise<AgentRunResult> {
    const wasRunning = this.#running;
    const turn = this.#send(input);
    // A refused second call must not replace the running turn that close() waits for.
    if (!wasRunning) this.#inflight = turn.catch(() => {});
    return turn;
  }

  async #send(input: AgentRunInput): Promise<AgentRunResult> {
    this.#assertOpen();
    if (this.#running)
      throw new SessionStoreError(
        "session_busy",
        `send(): session ${this.id} is already running a turn; await it or abort() it`,
      );
    this.#running = true;
    this.#abortReason = undefined;
    this.#turnController = new AbortController();
    try {
      let gate: TurnGate = { blocked: false };
      if (this.#internals.hooks) gate = await this.#internals.hooks.beforeTurn(input, this.#turnController.signal);
      // The head is read first: new messages link to the stored head even when the history skipped an unreadable
      // row, and a writer that moves it in between turns this turn's first write into a conflict, never a branch.
      const head = (await this.store.getSession(this.id))?.headMessageId ?? null;
      const history = await this.store.getHistory(this.id);
      if (gate.blocked) return this.#blocked(gate.reason, history);
      this.#lastMessageId = head;
      const tools = turnTools(this.#internals.options.tools, this.id);
      const agent = this.#internals.host.createAgent(
        turnSpec({
          sessionId: this.id,
          options: this.#internals.options,
          history,
          tools,
          hookContext: this.#internals.hooks?.turnHooks(gate.context),
          flushWrites: () => this.#writes.settled(),
          emit: (event) => this.#emit(event),
          compactor: this.#compactor,
        }),
      );
      const unsubscribe = agent.subscribe((event) => this.#onAgentEvent(event));
      this.#agent = agent;
      if (this.#abortReason !== undefined) agent.abort(this.#abortReason);
      let result: AgentRunResult;
      try {
        result = await agent.run(input);
      } finally {
        unsubscribe();
        this.#agent = undefined;
      }
      await this.#writes.settled();
      const failed = this.#writes.takeError();
      // A conflict is its own clear failure (another writer extended the session): the host can reopen and retry.
      if (failed)
        throw failed.error instanceof SessionConflictError ? failed.error : new SessionWriteError(failed.error);
      return result;
    } finally {
      this.#running = false;
      this.#turnController = undefined;
    }
  }

  // A blocked prompt is not stored and no model is called; listeners still see the run end.
  #blocked(reason: string, history: AgentMessage[]): AgentRunResult {
    const result = blockedTurnResult(reason, history);
    const model = this.#modelRef() ?? { provider: "unknown", id: "unknown" };
    for (const event of blockedTurnEvents(result, this.#internals.options.agentId, model))
      this.#emit({ ...event, sessionId: this.id });
    return result;
  }

  /** Like `send`, as an async iterable of session events; `result` resolves with the run's result. */
  stream(input: AgentRunInput): SessionRunStream {
    return streamTurn(this, input);
  }

  /** Aborts the running turn (no-op when idle); what was written stays written. */
  abort(reason = "aborted by the host"): void {
    if (!this.#running) return;
    this.#abortReason = reason;
    this.#turnController?.abort(reason);
    this.#agent?.abort(reason);
  }

  /** The visible history: the path from the root to the head. */
  async history(): Promise<AgentMessage[]> {
    this.#assertOpen();
    return this.store.getHistory(this.id);
  }

  /** A new session whose history is this one's up to `atMessageId`; same options, same store. */
  async fork(atMessageId: string, options: { id?: string; title?: string } = {}): Promise<SessionRuntime> {
    this.#assertOpen();
    const record = await this.store.forkSession(this.id, atMessageId, options);
    return this.#internals.reopen(record.id);
  }

  /**
   * Moves the head back to `toMessageId`, or with `null` to before the first message (the first turn undone too);
   * with `{files: true}`, also puts back files changed after it.
   */
  async rewind(toMessageId: string | null, options: { files?: boolean } = {}): Promise<RewindResult> {
    this.#assertIdle("rewind");
    return rewindHistory(this.#historyScope(), toMessageId, options);
  }

  /** What `rewind(toMessageId, {files: true})` would change. */
  async previewRewind(toMessageId: string | null): Promise<RewindPreview> {
    this.#assertOpen();
    return previewRewindHistory(this.#historyScope(), toMessageId);
  }

  /**
   * Compacts the working context now, whatever its size (the `PreCompact` hook point still runs and may skip it).
   * The stored transcript stays whole; the next request starts from the compacted context.
   */
  compact(): Promise<ManualCompactionResult> {
    const compactor = this.#compactor;
    try {
      this.#assertIdle("compact");
      if (!compactor)
        throw new InvalidSessionInputError("compact(): compaction is off for this session (compaction: false)");
    } catch (error) {
      return Promise.reject(error);
    }
    this.#running = true;
    const controller = new AbortController();
    this.#turnController = controller;
    const run = (async () => {
      try {
        const history = await this.store.getHistory(this.id);
        return await compactHistory(compactor, history, this.#internals.options.systemPrompt, controller.signal);
      } finally {
        this.#running = false;
        this.#turnController = undefined;
      }
    })();
    this.#inflight = run.catch(() => {});
    return run;
  }

  /** Tokens and cost of the whole session, and per model. */
  async usage(): Promise<SessionUsage> {
    this.#assertOpen();
    const record = await this.store.getSession(this.id);
    if (!record) throw new SessionStoreError("session_not_found", `Session "${this.id}" was deleted from its store.`);
    return { total: record.usage, byModel: record.usageByModel };
  }

  /** Aborts a running turn, waits for its writes, and closes the store only if the session opened it. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.abort("the session is closing");
    await this.#inflight;
    await this.#writes.settled();
    this.#closed = true;
    try {
      await this.#internals.hooks?.sessionEnd("close");
    } finally {
      this.#listeners.clear();
      if (this.#internals.ownsStore) await this.store.close();
    }
  }

  #historyScope(): HistoryScope {
    return {
      store: this.store,
      sessionId: this.id,
      workspaceRoot: this.#internals.options.workspaceRoot,
      compactor: this.#compactor,
    };
  }

  #modelRef(): ModelRef | undefined {
    const { model, providerId, modelId } = this.#internals.options;
    if (model) return { provider: model.provider, id: model.modelId };
    return providerId && modelId ? { provider: providerId, id: modelId } : undefined;
  }

  #onAgentEvent(event: AgentRuntimeEvent): void {
    if (event.type === "message-added") this.#save(event.message);
    else if (event.type === "usage-updated") {
      const delta = event.delta;
      this.#writes.enqueue(async () => void (await this.store.addUsage(this.id, this.#modelRef(), delta)));
    }
    this.#emit({ ...event, sessionId: this.id });
  }

  #save(message: AgentMessage): void {
    const parentId = this.#lastMessageId;
    this.#lastMessageId = message.id;
    this.#writes.enqueue(async () => {
      const stored = await this.store.appendMessage(this.id, message, { parentId });
      this.#emit({ type: "session-saved", sessionId: this.id, messageId: message.id, seq: stored.seq });
    });
  }

  #emit(event: SessionEvent): void {
    this.#listeners.emit(event);
  }

  #assertOpen(): void {
    if (this.#closed) throw new SessionStoreClosedError(`session ${this.id}`);
  }

  #assertIdle(method: string): void {
    this.#assertOpen();
    if (this.#running) throw new SessionStoreError("session_busy", `${method}(): not allowed while a turn is running`);
  }
}
