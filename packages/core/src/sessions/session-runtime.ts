import { AgentRuntime } from "@heddle/agents";
import type {
  AgentHooks,
  AgentMessage,
  AgentRunInput,
  AgentRunResult,
  AgentRuntimeConfig,
  AgentRuntimeEvent,
  AgentTool,
  ModelRef,
  PrepareTurnContext,
  PrepareTurnResult,
} from "@heddle/shared";
import {
  FileCheckpointer,
  type FileRestoreChange,
  previewFileRestore,
  restoreFileCheckpoints,
} from "../checkpoints/index.js";
import { type CompactionOptions, Compactor, type ManualCompactionResult } from "../compaction/compactor.js";
import { createSafetyHooks, mergeHooks, type SafetyOptions } from "../safety/safety.js";
import { FILE_CHECKPOINTER_METADATA_KEY } from "../tools/write-file.js";
import {
  InvalidSessionInputError,
  MessageNotFoundError,
  SessionStoreClosedError,
  SessionStoreError,
} from "./errors.js";
import type { SessionEvent, SessionListener, SessionUsage } from "./session-events.js";
import {
  blockedTurnEvents,
  blockedTurnResult,
  type CommandHookOptions,
  type SessionHooks,
  type TurnGate,
} from "./session-hooks.js";
import { type SessionRunStream, streamTurn } from "./session-stream.js";
import type { SessionStore, WorkingContext } from "./store.js";

/** Options of `createSession` / `openSession`: the agent's config (minus what the session owns) and the session's. */
/** A session's tools: a fixed array, or a function called at the start of every turn (MCP servers and plugins
 * add and remove tools while a session lives). */
export type SessionTools = AgentTool[] | ((ctx: { sessionId: string }) => AgentTool[] | Promise<AgentTool[]>);

export interface SessionOptions extends Omit<AgentRuntimeConfig, "initialMessages" | "sessionId" | "tools"> {
  /** The tools of each turn: an array, or a function called at the start of each turn. */
  tools?: SessionTools;
  /** Where the session lives. Without it, a `SqliteSessionStore` at `.heddle/sessions.db` under `workspaceRoot`. */
  store?: SessionStore;
  /** The session id: chosen by `createSession` when absent; required by `openSession`. */
  id?: string;
  title?: string;
  /** The workspace the session works in: recorded as its `cwd`, and the root for file rewind. */
  workspaceRoot?: string;
  /** Loop detection and the failure circuit breaker: on by default. */
  safety?: SafetyOptions;
  /** Compaction of the working context: on by default (summarizing, at 0.85 of the context window). */
  compaction?: false | CompactionOptions;
  /**
   * Command hooks (`.heddle/settings.json` under `workspaceRoot`, plus settings and functions in code). Off unless
   * given: a library must not run commands a cloned repository's settings file names just because it was opened.
   */
  commandHooks?: CommandHookOptions;
}

/** What `rewind` did. */
export interface RewindResult {
  headMessageId: string;
  /** Files put back (only with `{files: true}`). */
  files: FileRestoreChange[];
}

/** What a rewind would do, without doing it. */
export interface RewindPreview {
  /** Messages that leave the visible history. */
  messagesRemoved: number;
  files: FileRestoreChange[];
}

/** A store write failed during a turn: the run was aborted so nothing unsaved piles up. */
export class SessionWriteError extends SessionStoreError {
  constructor(cause: unknown) {
    super("write_failed", `Writing to the session store failed: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = "SessionWriteError";
    this.cause = cause;
  }
}

export type { SessionRunStream } from "./session-stream.js";

export interface SessionInternals {
  store: SessionStore;
  ownsStore: boolean;
  options: SessionOptions;
  working?: WorkingContext;
  /** The hook engine's session events, when `commandHooks` is on. */
  hooks?: SessionHooks;
  reopen(id: string): Promise<SessionRuntime>;
}

/**
 * A conversation kept across turns and restarts. Each `send` builds a fresh `AgentRuntime` seeded with the whole
 * history from the store, and every message the runtime adds is written as it is added.
 */
export class SessionRuntime {
  readonly id: string;
  readonly store: SessionStore;
  readonly #internals: SessionInternals;
  readonly #listeners = new Set<SessionListener>();
  readonly #compactor: Compactor | undefined;
  #agent: AgentRuntime | undefined;
  #running = false;
  #inflight: Promise<unknown> = Promise.resolve();
  #closed = false;
  #abortReason: string | undefined;
  // Aborts what runs outside the agent: UserPromptSubmit/SessionStart hooks and a manual compaction.
  #turnController: AbortController | undefined;
  #writes: Promise<void> = Promise.resolve();
  #writeError: unknown;
  #lastMessageId: string | null = null;

  constructor(id: string, internals: SessionInternals) {
    this.id = id;
    this.store = internals.store;
    this.#internals = internals;
    const compaction = internals.options.compaction;
    if (compaction !== false)
      this.#compactor = new Compactor(
        internals.hooks ? internals.hooks.compactionOptions(compaction) : (compaction ?? {}),
        {
          sessionId: id,
          ...(internals.options.model && { model: internals.options.model }),
          save: async (context) => {
            await this.#writes;
            await this.store.saveWorkingContext(this.id, context);
          },
          emit: (event) => this.#emit({ ...event, sessionId: this.id }),
        },
        internals.working,
      );
  }

  /** True while a turn runs. */
  get running(): boolean {
    return this.#running;
  }

  /** Listens to every event of every turn; returns the function that stops listening. */
  subscribe(listener: SessionListener): () => void {
    if (typeof listener !== "function") throw new InvalidSessionInputError("subscribe: listener must be a function");
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
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
        "invalid_input",
        `send(): session ${this.id} is already running a turn; await it or abort() it`,
      );
    this.#running = true;
    this.#abortReason = undefined;
    this.#turnController = new AbortController();
    try {
      let gate: TurnGate = { blocked: false };
      if (this.#internals.hooks) gate = await this.#internals.hooks.beforeTurn(input, this.#turnController.signal);
      const history = await this.store.getHistory(this.id);
      if (gate.blocked) return this.#blocked(gate.reason, history);
      this.#lastMessageId = history.at(-1)?.id ?? null;
      const tools = await this.#tools();
      const agent = new AgentRuntime({ ...this.#agentConfig(history, gate.context), ...(tools && { tools }) });
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
      await this.#writes;
      if (this.#writeError !== undefined) {
        const error = this.#writeError;
        this.#writeError = undefined;
        throw new SessionWriteError(error);
      }
      return result;
    } finally {
      this.#running = false;
      this.#turnController = undefined;
    }
  }

  // A blocked prompt is not stored and no model is called; listeners still see the run end.
  #blocked(reason: string, history: AgentMessage[]): AgentRunResult {
    const result = blockedTurnResult(reason, history);
    for (const event of blockedTurnEvents(result, this.#internals.options.agentId))
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

  /** Moves the head back to `toMessageId`; with `{files: true}`, also puts back files changed after it. */
  async rewind(toMessageId: string, options: { files?: boolean } = {}): Promise<RewindResult> {
    this.#assertIdle("rewind");
    if (!(await this.store.getMessage(this.id, toMessageId))) throw new MessageNotFoundError(this.id, toMessageId);
    const files = options.files ? await restoreFileCheckpoints(this.#restoreOptions(toMessageId)) : [];
    await this.store.setHead(this.id, toMessageId);
    const working = this.#compactor?.working;
    if (working) {
      const history = await this.store.getHistory(this.id);
      if (!history.some((m) => m.id === working.basedOnMessageId)) {
        await this.store.saveWorkingContext(this.id, null);
        this.#compactor!.working = undefined;
      }
    }
    return { headMessageId: toMessageId, files };
  }

  /** What `rewind(toMessageId, {files: true})` would change. */
  async previewRewind(toMessageId: string): Promise<RewindPreview> {
    this.#assertOpen();
    const history = await this.store.getHistory(this.id);
    const index = history.findIndex((m) => m.id === toMessageId);
    const target = await this.store.getHistory(this.id, { headMessageId: toMessageId });
    const kept = index >= 0 ? index + 1 : target.filter((m) => history.some((h) => h.id === m.id)).length;
    const files = this.#internals.options.workspaceRoot
      ? await previewFileRestore(this.#restoreOptions(toMessageId))
      : [];
    return { messagesRemoved: history.length - kept, files };
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
        const systemPrompt = this.#internals.options.systemPrompt;
        return await compactor.compactNow(history, {
          ...(systemPrompt !== undefined && { systemPrompt }),
          signal: controller.signal,
        });
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
    await this.#writes;
    this.#closed = true;
    try {
      await this.#internals.hooks?.sessionEnd("close");
    } finally {
      this.#listeners.clear();
      if (this.#internals.ownsStore) await this.store.close();
    }
  }

  #restoreOptions(toMessageId: string) {
    const workspaceRoot = this.#internals.options.workspaceRoot;
    if (!workspaceRoot)
      throw new InvalidSessionInputError(
        "rewind with files needs the session's workspaceRoot (give it to createSession/openSession)",
      );
    return { store: this.store, sessionId: this.id, workspaceRoot, afterMessageId: toMessageId };
  }

  #agentConfig(history: AgentMessage[], hookContext: string | undefined): AgentRuntimeConfig {
    const {
      store: _s,
      id: _i,
      title: _t,
      workspaceRoot: _w,
      safety,
      compaction: _c,
      commandHooks: _h,
      hooks,
      prepareTurn,
      tools: _tools,
      ...config
    } = this.#internals.options;
    // A tool never runs before the assistant message that called it is durably stored.
    const flush: AgentHooks = { beforeTool: async () => void (await this.#writes) };
    const safetyHooks = createSafetyHooks(safety ?? {}, {
      onLoopSignal: (signal) => this.#emit({ type: "loop-warning", ...signal, sessionId: this.id }),
      onCircuitBreaker: (signal) => this.#emit({ type: "circuit-breaker", ...signal, sessionId: this.id }),
    });
    const compactor = this.#compactor;
    const project =
      compactor || prepareTurn
        ? async (ctx: PrepareTurnContext): Promise<PrepareTurnResult | void> => {
            const compacted = compactor ? await compactor.prepareTurn(ctx) : undefined;
            if (!prepareTurn) return compacted;
            const own = await prepareTurn.call(config, { ...ctx, messages: compacted?.messages ?? ctx.messages });
            return { ...compacted, ...own };
          }
        : undefined;
    // With a workspace, every write_file/edit_file of this session is checkpointed (unless its tool has its own
    // checkpointer), so rewind({files: true}) works without the host wiring a FileCheckpointer.
    const checkpointer = this.#checkpointer();
    return {
      ...config,
      sessionId: this.id,
      initialMessages: history,
      ...(checkpointer && { metadata: { ...config.metadata, [FILE_CHECKPOINTER_METADATA_KEY]: checkpointer } }),
      hooks: mergeHooks(
        flush,
        checkpointer?.hooks,
        hooks,
        ...safetyHooks,
        this.#internals.hooks?.turnHooks(hookContext),
      ),
      ...(project && { prepareTurn: project }),
    };
  }

  async #tools(): Promise<AgentTool[] | undefined> {
    const tools = this.#internals.options.tools;
    if (typeof tools !== "function") return tools;
    const resolved = await tools({ sessionId: this.id });
    if (!Array.isArray(resolved))
      throw new InvalidSessionInputError("tools(): the session's tools function must return an array of tools");
    return resolved;
  }

  #fileCheckpointer: FileCheckpointer | undefined;
  #checkpointer(): FileCheckpointer | undefined {
    const workspaceRoot = this.#internals.options.workspaceRoot;
    if (!workspaceRoot) return undefined;
    this.#fileCheckpointer ??= new FileCheckpointer({ store: this.store, sessionId: this.id, workspaceRoot });
    return this.#fileCheckpointer;
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
      this.#enqueue(async () => void (await this.store.addUsage(this.id, this.#modelRef(), delta)));
    }
    this.#emit({ ...event, sessionId: this.id });
  }

  #save(message: AgentMessage): void {
    const parentId = this.#lastMessageId;
    this.#lastMessageId = message.id;
    this.#enqueue(async () => {
      const stored = await this.store.appendMessage(this.id, message, { parentId });
      this.#emit({ type: "session-saved", sessionId: this.id, messageId: message.id, seq: stored.seq });
    });
  }

  // Writes run one after another, in the order the runtime added the messages; the first failure stops the turn.
  #enqueue(task: () => Promise<void>): void {
    this.#writes = this.#writes.then(async () => {
      if (this.#writeError !== undefined) return;
      try {
        await task();
      } catch (error) {
        this.#writeError = error;
        this.#agent?.abort(`the session store failed: ${(error as Error)?.message ?? String(error)}`);
      }
    });
  }

  #emit(event: SessionEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        globalThis.console?.error?.("[heddle] a session listener threw (the session goes on):", error);
      }
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new SessionStoreClosedError(`session ${this.id}`);
  }

  #assertIdle(method: string): void {
    this.#assertOpen();
    if (this.#running) throw new SessionStoreError("invalid_input", `${method}(): not allowed while a turn is running`);
  }
}
