import {
  type AgentHooks,
  type AgentRunInput,
  type AgentRunResult,
  type AgentRuntimeEvent,
  createId,
  emptyUsage,
  getMessageText,
  type ModelRef,
  normalizeRunInput,
} from "@heddle/shared";
import type { CompactionOptions, PreCompactContext, PreCompactResult } from "../compaction/index.js";
import type { HookEngine, HookEngineOptions } from "../hooks/index.js";

/** Command hooks of a session: the hook engine's options; the session fills in `workspaceRoot` and `sessionId`. */
export type CommandHookOptions = Omit<HookEngineOptions, "workspaceRoot" | "sessionId">;

/** How the session came to be (or came back, after a compaction), as `SessionStart` reports it in `source`. */
export type SessionStartSource = "startup" | "resume" | "compact";

/** What the hooks decided before a turn: block it, or add context to its first model request. */
export type TurnGate = { blocked: true; reason: string } | { blocked: false; context?: string };

/**
 * The session-level hook events around one `SessionRuntime`: SessionStart once, UserPromptSubmit per turn,
 * PreCompact and SessionEnd. The engine's tool and Stop hooks are added to every turn by the session's host. The
 * engine may be shared (a team's), so every event names this session.
 */
export class SessionHooks {
  readonly engine: HookEngine;
  readonly #sessionId: string;
  #startSource: SessionStartSource | undefined;
  // SessionStart context waits here until a model request carries it (a blocked first turn does not lose it).
  #startContext: string | undefined;

  constructor(engine: HookEngine, source: SessionStartSource, sessionId: string) {
    this.engine = engine;
    this.#startSource = source;
    this.#sessionId = sessionId;
  }

  /** Fires SessionStart (first turn, and the turn after a compaction) and UserPromptSubmit with the prompt's text. */
  async beforeTurn(input: AgentRunInput, signal: AbortSignal): Promise<TurnGate> {
    const source = this.#startSource;
    if (source !== undefined) {
      this.#startSource = undefined;
      // A new session is set up once, before it starts (Claude Code's Setup event, trigger "init").
      if (source === "startup")
        await this.engine.run("Setup", { session_id: this.#sessionId, trigger: "init", signal });
      const start = await this.engine.sessionStart({ session_id: this.#sessionId, source, signal });
      this.#startContext = start.additionalContext;
    }
    const submit = await this.engine.userPromptSubmit({
      session_id: this.#sessionId,
      prompt: promptText(input),
      signal,
    });
    if (submit.decision === "deny" || submit.stop)
      return { blocked: true, reason: submit.reason ?? "Blocked by a UserPromptSubmit hook." };
    const context = [this.#startContext, submit.additionalContext].filter(Boolean).join("\n\n");
    return context ? { blocked: false, context } : { blocked: false };
  }

  /** The turn's context on its first model request (none when there is no context). */
  turnHooks(context: string | undefined): AgentHooks | undefined {
    if (context === undefined) return undefined;
    let pending: string | undefined = context;
    return {
      beforeModel: () => {
        if (pending === undefined) return;
        const appendContext = pending;
        pending = undefined;
        this.#startContext = undefined;
        return { appendContext };
      },
    };
  }

  /** `compaction` with the PreCompact event chained after the host's own `onPreCompact`. */
  compactionOptions(compaction: CompactionOptions | undefined): CompactionOptions {
    const own = compaction?.onPreCompact;
    return {
      ...compaction,
      onPreCompact: async (ctx: PreCompactContext): Promise<PreCompactResult | void> => {
        const mine = await own?.(ctx);
        if (mine?.skip) return mine;
        const outcome = await this.engine.preCompact({
          session_id: this.#sessionId,
          trigger: ctx.reason === "manual" ? "manual" : "auto",
          reason: ctx.reason,
          strategy: ctx.strategy,
          estimated_tokens: ctx.estimatedTokens,
          ...(ctx.contextWindow !== undefined && { context_window: ctx.contextWindow }),
          ...(mine?.instructions && { custom_instructions: mine.instructions }),
        });
        if (outcome.decision === "deny" || outcome.stop) return { skip: true };
        const instructions = [mine?.instructions, outcome.additionalContext].filter(Boolean).join("\n\n");
        return instructions ? { instructions } : undefined;
      },
    };
  }

  /**
   * The working context was compacted: as in Claude Code, `SessionStart` fires again (`source: "compact"`) before
   * the next turn, so a hook can put back what the summary dropped.
   */
  compacted(): void {
    this.#startSource ??= "compact";
  }

  async sessionEnd(reason: string): Promise<void> {
    await this.engine.sessionEnd({ session_id: this.#sessionId, reason });
  }
}

/** The text a UserPromptSubmit hook sees: the user messages' text of the input. */
export function promptText(input: AgentRunInput): string {
  return normalizeRunInput(input)
    .filter((message) => message.role === "user")
    .map(getMessageText)
    .join("\n\n");
}

/** The result of a turn a UserPromptSubmit hook blocked: nothing was stored and no model was called. */
export function blockedTurnResult(reason: string, messages: AgentRunResult["messages"]): AgentRunResult {
  return {
    status: "aborted",
    reason: "hook_stop",
    reasonDetail: reason,
    outputText: "",
    messages,
    newMessages: [],
    usage: emptyUsage(),
    iterations: 0,
    durationMs: 0,
    modelDurationMs: 0,
    toolCalls: 0,
    permissionDenials: [],
  };
}

/** The events of a blocked turn, so a `stream` still ends with `run-finished`. */
export function blockedTurnEvents(
  result: AgentRunResult,
  agentId: string | undefined,
  model: ModelRef,
): AgentRuntimeEvent[] {
  const runId = createId("run");
  const base = { agentId: agentId ?? createId("agent"), runId, iteration: 0 };
  return [
    { ...base, id: `${runId}.1`, type: "run-started", tools: [], model },
    { ...base, id: `${runId}.2`, type: "run-finished", result },
  ];
}
