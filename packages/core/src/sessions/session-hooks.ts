import {
  type AgentHooks,
  type AgentRunInput,
  type AgentRunResult,
  type AgentRuntimeEvent,
  createId,
  emptyUsage,
  getMessageText,
  type HookAppendContext,
  type ModelRef,
  normalizeRunInput,
} from "@heddle/shared";
import type { CompactionOptions, PreCompactContext, PreCompactResult } from "../compaction/index.js";
import type { HookEngineOptions } from "../hooks/index.js";
import type { SessionLifecycleHooks, SessionStartSource } from "./session-lifecycle.js";

export type { SessionStartSource } from "./session-lifecycle.js";

/** Command hooks of a session: the hook engine's options; the session fills in `workspaceRoot` and `sessionId`. */
export type CommandHookOptions = Omit<HookEngineOptions, "workspaceRoot" | "sessionId">;

/** What the hooks decided before a turn: block it, or add context to its first model request. */
export type TurnGate = { blocked: true; reason: string } | { blocked: false; context?: string };

/** One kind's hooks as a list, in order. */
function listOf<F>(value: F | F[] | undefined): F[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * The session's own hook kinds around one `SessionRuntime`: sessionStart once (and after a compaction),
 * userPromptSubmit per turn, preCompact and sessionEnd, from code and from command hooks alike (see
 * `session-lifecycle.ts`). The loop's hooks (command hooks' tool and Stop events included) are added to every turn by
 * the session's host.
 */
export class SessionHooks {
  readonly #hooks: SessionLifecycleHooks;
  readonly #sessionId: string;
  #startSource: SessionStartSource | undefined;
  // SessionStart context waits here until a model request carries it (a blocked first turn does not lose it).
  #startContext: string | undefined;

  constructor(hooks: SessionLifecycleHooks, source: SessionStartSource, sessionId: string) {
    this.#hooks = hooks;
    this.#startSource = source;
    this.#sessionId = sessionId;
  }

  /**
   * Runs sessionStart (first turn, and the turn after a compaction; every hook, their contexts joined) and
   * userPromptSubmit with the prompt's text (in order; the first stop blocks the turn and ends the chain).
   */
  async beforeTurn(input: AgentRunInput, signal: AbortSignal): Promise<TurnGate> {
    const sessionId = this.#sessionId;
    const source = this.#startSource;
    if (source !== undefined) {
      this.#startSource = undefined;
      const added: string[] = [];
      for (const hook of listOf(this.#hooks.sessionStart)) addContext(added, await hook({ sessionId, source, signal }));
      this.#startContext = added.join("\n\n") || undefined;
    }
    const added = [this.#startContext ?? ""];
    for (const hook of listOf(this.#hooks.userPromptSubmit)) {
      const value = await hook({ sessionId, prompt: promptText(input), signal });
      if (value && value.stop === true)
        return { blocked: true, reason: value.reason ?? "Blocked by a userPromptSubmit hook." };
      addContext(added, value);
    }
    const context = added.filter(Boolean).join("\n\n");
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

  /**
   * `compaction` with the preCompact hooks chained after the host's own `onPreCompact`: in order, each sees the
   * instructions so far; a skip ends the chain and skips the compaction.
   */
  compactionOptions(compaction: CompactionOptions | undefined): CompactionOptions {
    const own = compaction?.onPreCompact;
    return {
      ...compaction,
      onPreCompact: async (ctx: PreCompactContext): Promise<PreCompactResult | void> => {
        const mine = await own?.(ctx);
        if (mine?.skip) return mine;
        const instructions = mine?.instructions ? [mine.instructions] : [];
        const trigger = ctx.reason === "manual" ? "manual" : "auto";
        for (const hook of listOf(this.#hooks.preCompact)) {
          const joined = instructions.join("\n\n");
          const value = await hook({ ...ctx, trigger, ...(joined && { instructions: joined }) });
          if (value?.skip) return { skip: true };
          if (value?.instructions) instructions.push(value.instructions);
        }
        return instructions.length > 0 ? { instructions: instructions.join("\n\n") } : undefined;
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

  /** Runs every sessionEnd hook. */
  async sessionEnd(reason: string): Promise<void> {
    for (const hook of listOf(this.#hooks.sessionEnd)) await hook({ sessionId: this.#sessionId, reason });
  }
}

function addContext(added: string[], value: HookAppendContext | void): void {
  if (value && typeof value.appendContext === "string" && value.appendContext !== "") added.push(value.appendContext);
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
