import {
  type AfterToolContext,
  type AfterToolResult,
  type AgentHooks,
  type BeforeToolContext,
  type BeforeToolResult,
  consoleLogger,
  type Logger,
  toolOutputText,
} from "@heddle/shared";
import { resolveSandbox, type SandboxOptions } from "../process/index.js";
import { createWorkspace } from "../workspace/index.js";
import { type HookDecision, HookExecutionError, runCommandHook } from "./command-hook.js";
import { hookEnvironment } from "./hook-env.js";
import {
  type CommandHookConfig,
  HOOK_EVENTS,
  type HookEventName,
  type HookSettings,
  loadHookSettingsFile,
  matchesHook,
  parseHookSettings,
} from "./settings.js";

/** What every hook gets on stdin (snake_case, as Claude Code's hooks read it), plus the event's own fields. */
export interface HookPayload {
  session_id?: string;
  cwd: string;
  hook_event_name: HookEventName;
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
  /** PostToolUse: the result's text. */
  tool_response?: string;
  /** PostToolUseFailure: the error's text. */
  error?: string;
  /** UserPromptSubmit. */
  prompt?: string;
  /** SessionStart: `startup` / `resume` / ...; SessionEnd and Stop: why. */
  source?: string;
  reason?: string;
  /** PreCompact: `manual` or `auto`. */
  trigger?: string;
  /** Subagent events. */
  agent_id?: string;
  agent_type?: string;
  [key: string]: unknown;
}

/** What the hooks of one event decided together. */
export interface HookOutcome {
  /** `deny` wins over `ask`, `ask` over `allow`. */
  decision?: "allow" | "deny" | "ask";
  reason?: string;
  /** The input after every hook's rewrite (PreToolUse). */
  updatedInput?: unknown;
  /** Every hook's added context, joined. */
  additionalContext?: string;
  stop?: boolean;
  /** Hooks that failed and were ignored. */
  errors: HookExecutionError[];
}

export interface HookEngineOptions {
  workspaceRoot: string;
  /** Settings in code; they run in addition to `.heddle/settings.json`, after it. */
  settings?: HookSettings;
  /** Read `.heddle/settings.json` under the workspace (default true). */
  loadSettingsFile?: boolean;
  sessionId?: string;
  /** Told about each failed hook (default: `logger.warn`). The run goes on. */
  onError?(error: HookExecutionError): void;
  /** Where a failed hook is reported when there is no `onError` (default: `consoleLogger` from `@heddle/shared`). */
  logger?: Logger;
  /**
   * Extra variables for hook commands. They get this process's environment minus secret-looking names
   * (`*_API_KEY`, `*_TOKEN`, ...: `isSecretEnvName`) unless `passEnv` names them, plus `HEDDLE_PROJECT_DIR`
   * and these.
   */
  env?: { [name: string]: string };
  /** Variables passed to hooks even though their names look secret (added to the settings' `passEnv`). */
  passEnv?: string[];
  /** Run command hooks under bubblewrap, like `createDefaultTools({sandbox})` runs bash. */
  sandbox?: SandboxOptions;
  /**
   * Asked right before each command hook runs: a reason not to run it now, or `undefined` to run it. A host that
   * trusted the folder's hooks by a content hash re-checks it here, so a script changed mid-session (by a bash
   * call) does not run unasked. A refused hook is a failed hook (`hook_failed`): PreToolUse then denies the call.
   */
  refuseCommand?(event: HookEventName, hook: CommandHookConfig): string | undefined;
}

/**
 * Events whose hooks gate something: when one of their hooks cannot decide (it crashes, times out, prints bad
 * JSON, throws), the engine denies rather than lets the action through. Every other event reports the failure
 * and goes on (a PostToolUse hook cannot undo a call; a Stop or SessionStart hook gates nothing).
 */
export const HOOK_EVENTS_FAILING_CLOSED: ReadonlySet<HookEventName> = new Set<HookEventName>(["PreToolUse"]);

/** Fields of a fired event besides the ones the engine fills in. */
export type HookEventInput = Omit<HookPayload, "hook_event_name" | "cwd"> & { signal?: AbortSignal };

/** The hook engine: `agentHooks` for the loop, and one method per session-level event. */
export interface HookEngine {
  /** PreToolUse → beforeTool, PostToolUse/PostToolUseFailure → afterTool, Stop → afterRun. */
  readonly agentHooks: AgentHooks;
  /** The merged settings (file first, then code). */
  readonly settings: HookSettings;
  /** Fires any event and combines the answers. */
  run(event: HookEventName, input?: HookEventInput): Promise<HookOutcome>;
  sessionStart(input?: HookEventInput): Promise<HookOutcome>;
  /** `decision: "deny"` means the prompt is blocked; `additionalContext` goes with it to the model. */
  userPromptSubmit(input: HookEventInput & { prompt: string }): Promise<HookOutcome>;
  preCompact(input?: HookEventInput): Promise<HookOutcome>;
  subagentStart(input?: HookEventInput): Promise<HookOutcome>;
  subagentStop(input?: HookEventInput): Promise<HookOutcome>;
  sessionEnd(input?: HookEventInput): Promise<HookOutcome>;
}

/** Which payload field a matcher is tested against, per event. */
const MATCH_FIELD: { [E in HookEventName]?: keyof HookPayload } = {
  PreToolUse: "tool_name",
  PostToolUse: "tool_name",
  PostToolUseFailure: "tool_name",
  SessionStart: "source",
  PreCompact: "trigger",
  SubagentStart: "agent_type",
  SubagentStop: "agent_type",
  PermissionRequest: "tool_name",
  Notification: "notification_type",
  Setup: "trigger",
};

const PLAIN_STDOUT_IS_CONTEXT = new Set<HookEventName>(["SessionStart", "UserPromptSubmit"]);

type Runner = {
  matcher: string | undefined;
  label: string;
  run(payload: HookPayload, signal?: AbortSignal): Promise<HookDecision>;
};

/**
 * Command hooks from `.heddle/settings.json` and from settings in code, for the ten events, adapted to the one hook
 * model (`AgentHooks`): hooks written in code are plain `AgentHooks`, and a PreToolUse `ask` goes to the host's
 * `requestToolApproval` through the loop's one approval path.
 * Hooks of an event run one after another in order (file, then code settings); a PreToolUse rewrite is
 * seen by the next hook, and a deny ends the chain. Settings are read once, here.
 */
export function createHookEngine(options: HookEngineOptions): HookEngine {
  const workspace = createWorkspace(options.workspaceRoot);
  const fromFile = options.loadSettingsFile === false ? undefined : loadHookSettingsFile(workspace.root);
  const fromCode = options.settings
    ? parseHookSettings(options.settings, "the settings passed to createHookEngine")
    : undefined;
  const settings = mergeSettings(fromFile, fromCode);
  const passEnv = [...(settings.passEnv ?? []), ...(options.passEnv ?? [])];
  const env = { ...hookEnvironment(process.env, passEnv), HEDDLE_PROJECT_DIR: workspace.root, ...options.env };
  const sandbox = options.sandbox ? resolveSandbox(workspace.root, options.sandbox) : undefined;
  const logger = options.logger ?? consoleLogger;
  const onError = options.onError ?? ((error: HookExecutionError) => logger.warn(error.message));

  const runners = (event: HookEventName): Runner[] => {
    const list: Runner[] = [];
    for (const group of settings.hooks?.[event] ?? []) {
      for (const hook of group.hooks)
        list.push({ matcher: group.matcher, label: hook.command, run: commandRunner(event, hook) });
    }
    return list;
  };

  const commandRunner =
    (event: HookEventName, hook: CommandHookConfig) =>
    async (payload: HookPayload, signal?: AbortSignal): Promise<HookDecision> => {
      const refusal = options.refuseCommand?.(event, hook);
      if (refusal !== undefined) throw new HookExecutionError(event, hook.command, `was not run: ${refusal}`);
      return runCommandHook({
        event,
        hook,
        payload,
        cwd: workspace.root,
        env,
        plainStdoutIsContext: PLAIN_STDOUT_IS_CONTEXT.has(event),
        ...(signal && { signal }),
        ...(sandbox && { sandbox }),
      });
    };

  const run = async (event: HookEventName, input: HookEventInput = {}): Promise<HookOutcome> => {
    const { signal, ...fields } = input;
    const payload: HookPayload = {
      ...(options.sessionId !== undefined && { session_id: options.sessionId }),
      ...fields,
      cwd: workspace.root,
      hook_event_name: event,
    };
    const field = MATCH_FIELD[event];
    const subject = field ? (payload[field] as string | undefined) : undefined;
    const outcome: HookOutcome = { errors: [] };
    const contexts: string[] = [];
    for (const runner of runners(event)) {
      if (field && !matchesHook(runner.matcher, subject)) continue;
      let decision: HookDecision;
      try {
        decision = await runner.run(payload, signal);
      } catch (error) {
        const failure =
          error instanceof HookExecutionError
            ? error
            : new HookExecutionError(event, runner.label, `threw: ${(error as Error)?.message ?? String(error)}`);
        outcome.errors.push(failure);
        onError(failure);
        if (HOOK_EVENTS_FAILING_CLOSED.has(event)) {
          outcome.decision = "deny";
          outcome.reason = `${event} hook ${JSON.stringify(runner.label)} could not decide (${failure.message}); denied.`;
          break;
        }
        continue;
      }
      if (signal?.aborted && HOOK_EVENTS_FAILING_CLOSED.has(event)) {
        outcome.decision = "deny";
        outcome.reason = `${event} hooks were aborted before they decided; denied.`;
        break;
      }
      if (decision.additionalContext) contexts.push(decision.additionalContext);
      if (decision.updatedInput !== undefined) {
        outcome.updatedInput = decision.updatedInput;
        payload.tool_input = decision.updatedInput;
      }
      if (decision.stop) {
        outcome.stop = true;
        if (decision.reason) outcome.reason = decision.reason;
      }
      if (decision.decision === "deny") {
        outcome.decision = "deny";
        outcome.reason = decision.reason ?? `Denied by a ${event} hook.`;
        break;
      }
      if (decision.decision === "ask" || (decision.decision === "allow" && outcome.decision === undefined)) {
        outcome.decision = decision.decision;
        if (decision.reason) outcome.reason = decision.reason;
      }
    }
    if (contexts.length > 0) outcome.additionalContext = contexts.join("\n\n");
    return outcome;
  };

  const beforeTool = async (ctx: BeforeToolContext): Promise<BeforeToolResult | void> => {
    const outcome = await run("PreToolUse", {
      ...(ctx.sessionId !== undefined && options.sessionId === undefined && { session_id: ctx.sessionId }),
      tool_name: ctx.toolCall.toolName,
      tool_input: ctx.input,
      tool_use_id: ctx.toolCall.toolCallId,
      signal: ctx.signal,
    });
    const result: BeforeToolResult = {};
    if (outcome.additionalContext) result.appendContext = outcome.additionalContext;
    if (outcome.stop) return { ...result, stop: true, reason: outcome.reason ?? "Stopped by a PreToolUse hook." };
    const input = outcome.updatedInput;
    if (outcome.decision === "deny") return { ...result, skip: true, reason: outcome.reason! };
    // One approval path: the loop asks the host's requestToolApproval (with this reason), whatever the policy.
    if (outcome.decision === "ask")
      Object.assign(result, { ask: true, reason: outcome.reason ?? "a PreToolUse hook asked" });
    if (input !== undefined) result.input = input;
    return Object.keys(result).length > 0 ? result : undefined;
  };

  const afterTool = async (ctx: AfterToolContext): Promise<AfterToolResult | void> => {
    const failed = ctx.result.isError === true;
    const text = toolOutputText(ctx.result.output);
    const outcome = await run(failed ? "PostToolUseFailure" : "PostToolUse", {
      ...(ctx.sessionId !== undefined && options.sessionId === undefined && { session_id: ctx.sessionId }),
      tool_name: ctx.toolCall.toolName,
      tool_input: ctx.input,
      tool_use_id: ctx.toolCall.toolCallId,
      ...(failed ? { error: text } : { tool_response: text }),
      signal: ctx.signal,
    });
    // After the fact a deny cannot undo the call: its reason goes to the model, as Claude Code does with "block".
    const context = [outcome.decision === "deny" ? outcome.reason : undefined, outcome.additionalContext].filter(
      Boolean,
    );
    const result: AfterToolResult = {};
    if (context.length > 0) result.appendContext = context.join("\n\n");
    if (outcome.stop) Object.assign(result, { stop: true, reason: outcome.reason ?? "Stopped by a PostToolUse hook." });
    return Object.keys(result).length > 0 ? result : undefined;
  };

  const agentHooks: AgentHooks = {
    beforeTool,
    afterTool,
    afterRun: async (ctx) => {
      await run("Stop", {
        ...(ctx.sessionId !== undefined && options.sessionId === undefined && { session_id: ctx.sessionId }),
        reason: ctx.result.reason,
        status: ctx.result.status,
        output_text: ctx.result.outputText,
      });
    },
  };

  return {
    agentHooks,
    settings,
    run,
    sessionStart: (input) => run("SessionStart", input),
    userPromptSubmit: (input) => run("UserPromptSubmit", input),
    preCompact: (input) => run("PreCompact", input),
    subagentStart: (input) => run("SubagentStart", input),
    subagentStop: (input) => run("SubagentStop", input),
    sessionEnd: (input) => run("SessionEnd", input),
  };
}

function mergeSettings(...all: Array<HookSettings | undefined>): HookSettings {
  const hooks: NonNullable<HookSettings["hooks"]> = {};
  const passEnv = all.flatMap((settings) => settings?.passEnv ?? []);
  for (const settings of all) {
    for (const event of HOOK_EVENTS) {
      const groups = settings?.hooks?.[event];
      if (groups) hooks[event] = [...(hooks[event] ?? []), ...groups];
    }
  }
  return passEnv.length > 0 ? { hooks, passEnv } : { hooks };
}
