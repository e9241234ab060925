/**
 * A session's own hook kinds, in code: `sessionStart`, `userPromptSubmit`, `preCompact`, `sessionEnd`. Command hooks
 * from settings files are one source of them (`commandLifecycleHooks` adapts the engine), so code and commands run
 * through one path with one meaning.
 */
import { mergeHooks } from "@heddle/agents";
import type { AgentHooks, HookAppendContext, HookList, HookStop } from "@heddle/shared";
import type { PreCompactContext, PreCompactResult } from "../compaction/index.js";
import type { HookEngine } from "../hooks/index.js";

type MaybePromise<T> = T | Promise<T>;

/** How the session came to be (or came back, after a compaction), as `sessionStart` sees it in `source`. */
export type SessionStartSource = "startup" | "resume" | "compact";

export interface SessionStartContext {
  sessionId: string;
  source: SessionStartSource;
  signal: AbortSignal;
}
export interface UserPromptSubmitContext {
  sessionId: string;
  /** The user text of the turn's input. */
  prompt: string;
  signal: AbortSignal;
}
/** What `preCompact` sees: the compaction about to run, and the summary instructions the earlier hooks gave. */
export interface PreCompactHookContext extends PreCompactContext {
  trigger: "manual" | "auto";
  instructions?: string;
}
export interface SessionEndContext {
  sessionId: string;
  reason: string;
}

/** A session's hook kinds. Each is a function or an array of them; sets add up with `mergeHooks`. */
export interface SessionLifecycleHooks {
  /** Before the first turn of a created or opened session, and the turn after a compaction; may add context to it. */
  sessionStart?: HookList<(ctx: SessionStartContext) => MaybePromise<HookAppendContext | void>>;
  /** Before every turn: `{stop: true, reason}` blocks the turn (nothing stored, no model call); or add context. */
  userPromptSubmit?: HookList<(ctx: UserPromptSubmitContext) => MaybePromise<(HookStop & HookAppendContext) | void>>;
  /** Before each compaction, after `compaction.onPreCompact`: `{skip: true}` skips it, `instructions` add up. */
  preCompact?: HookList<(ctx: PreCompactHookContext) => MaybePromise<PreCompactResult | void>>;
  /** In `session.close()`. */
  sessionEnd?: HookList<(ctx: SessionEndContext) => MaybePromise<void>>;
}

/** A session's `hooks`: the loop's (`AgentHooks`) and the session's own kinds, in one object. */
export type SessionHookOptions = AgentHooks & SessionLifecycleHooks;

const LIFECYCLE_KINDS = ["sessionStart", "userPromptSubmit", "preCompact", "sessionEnd"] as const;

/** The session's own kinds of `hooks`, each as a list; undefined when there are none. */
export function lifecycleHooksOf(hooks: SessionHookOptions | undefined): SessionLifecycleHooks | undefined {
  if (!hooks || !LIFECYCLE_KINDS.some((kind) => hooks[kind] !== undefined)) return undefined;
  const { sessionStart, userPromptSubmit, preCompact, sessionEnd } = hooks;
  return mergeHooks<SessionLifecycleHooks>({ sessionStart, userPromptSubmit, preCompact, sessionEnd });
}

/** The loop's part of a session's `hooks`: what each turn's agent gets. */
export function agentHooksOf(hooks: SessionHookOptions | undefined): AgentHooks | undefined {
  if (!hooks) return undefined;
  const { sessionStart: _s, userPromptSubmit: _u, preCompact: _p, sessionEnd: _e, ...agentHooks } = hooks;
  return agentHooks;
}

/**
 * The command-hook engine as a source of session hooks: SessionStart (with Setup before a new session's first),
 * UserPromptSubmit (a deny or stop blocks), PreCompact (a deny or stop skips; context instructs the summary) and
 * SessionEnd. The engine may be shared (a team's), so every event names the session.
 */
export function commandLifecycleHooks(engine: HookEngine, sessionId: string): SessionLifecycleHooks {
  const context = (text: string | undefined): HookAppendContext | undefined =>
    text ? { appendContext: text } : undefined;
  return {
    sessionStart: async ({ source, signal }) => {
      // A new session is set up once, before it starts (Claude Code's Setup event, trigger "init").
      if (source === "startup") await engine.run("Setup", { session_id: sessionId, trigger: "init", signal });
      return context((await engine.sessionStart({ session_id: sessionId, source, signal })).additionalContext);
    },
    userPromptSubmit: async ({ prompt, signal }) => {
      const outcome = await engine.userPromptSubmit({ session_id: sessionId, prompt, signal });
      if (outcome.decision === "deny" || outcome.stop)
        return { stop: true, reason: outcome.reason ?? "Blocked by a UserPromptSubmit hook." };
      return context(outcome.additionalContext);
    },
    preCompact: async (ctx) => {
      const outcome = await engine.preCompact({
        session_id: sessionId,
        trigger: ctx.trigger,
        reason: ctx.reason,
        strategy: ctx.strategy,
        estimated_tokens: ctx.estimatedTokens,
        ...(ctx.contextWindow !== undefined && { context_window: ctx.contextWindow }),
        ...(ctx.instructions && { custom_instructions: ctx.instructions }),
      });
      if (outcome.decision === "deny" || outcome.stop) return { skip: true };
      return outcome.additionalContext ? { instructions: outcome.additionalContext } : undefined;
    },
    sessionEnd: async ({ reason }) => {
      await engine.sessionEnd({ session_id: sessionId, reason });
    },
  };
}
