import { consoleLogger } from "@heddle/shared";
import { resolveSandbox } from "../process/index.js";
import { createWorkspace } from "../workspace/index.js";
import { CLAUDE_BLOCKING_EVENTS, claudeToolNames, fromClaudeToolInput, toClaudePayload } from "./claude-compat.js";
import { loadClaudeHookSettings } from "./claude-settings.js";
import { type HookDecision, HookExecutionError, runCommandHook } from "./command-hook.js";
import { createLoopHooks } from "./engine-loop-hooks.js";
import {
  type FireHookEvent,
  HOOK_EVENTS_FAILING_CLOSED,
  type HookEngine,
  type HookEngineOptions,
  type HookEventInput,
  type HookOutcome,
  type HookPayload,
} from "./engine-types.js";
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
const TOOL_INPUT_EVENTS = new Set<HookEventName>(["PreToolUse", "PermissionRequest"]);

/** One settings source: a file or the settings in code, and whether its hooks run in Claude Code compatibility mode. */
interface SettingsSource {
  settings: HookSettings;
  compat: boolean;
}

type Runner = {
  matcher: string | undefined;
  label: string;
  compat: boolean;
  run(payload: HookPayload, signal?: AbortSignal): Promise<HookDecision>;
};

/**
 * Command hooks from `.heddle/settings.json`, Claude Code's `.claude/settings.json` and `.claude/settings.local.json`
 * (with `claudeSettings`) and settings in code, adapted to the one hook model (`AgentHooks`): hooks written in code
 * are plain `AgentHooks`, and a PreToolUse `ask` goes to the host's `requestToolApproval` through the loop's one
 * approval path. Hooks of an event run one after another in that order; a PreToolUse rewrite is seen by the next
 * hook, and a deny ends the chain. A source with `claudeCompat` (the `.claude` files always) runs its hooks in
 * Claude Code compatibility mode (`claude-compat.ts`). Settings are read once, here.
 */
export function createHookEngine(options: HookEngineOptions): HookEngine {
  const workspace = createWorkspace(options.workspaceRoot);
  const root = workspace.root;
  const logger = options.logger ?? consoleLogger;
  const sources: SettingsSource[] = [];
  const fromFile = options.loadSettingsFile === false ? undefined : loadHookSettingsFile(root);
  if (fromFile) sources.push({ settings: fromFile, compat: fromFile.claudeCompat === true });
  if (options.claudeSettings) {
    const claude = loadClaudeHookSettings(root);
    for (const note of claude.notes) logger[note.level](note.message);
    for (const source of claude.sources) sources.push({ settings: source.settings, compat: true });
  }
  if (options.settings) {
    const fromCode = parseHookSettings(options.settings, "the settings passed to createHookEngine");
    sources.push({ settings: fromCode, compat: fromCode.claudeCompat === true });
  }
  const settings = mergeSettings(sources.map((source) => source.settings));
  const passEnv = [...(settings.passEnv ?? []), ...(options.passEnv ?? [])];
  const env = {
    ...hookEnvironment(process.env, passEnv),
    HEDDLE_PROJECT_DIR: root,
    CLAUDE_PROJECT_DIR: root,
    ...options.env,
  };
  const sandbox = options.sandbox ? resolveSandbox(root, options.sandbox) : undefined;
  const onError = options.onError ?? ((error: HookExecutionError) => logger.warn(error.message));

  const commandRunner =
    (event: HookEventName, hook: CommandHookConfig, compat: boolean) =>
    async (payload: HookPayload, signal?: AbortSignal): Promise<HookDecision> => {
      const refusal = options.refuseCommand?.(event, hook);
      if (refusal !== undefined) throw new HookExecutionError(event, hook.command, `was not run: ${refusal}`);
      return runCommandHook({
        event,
        hook,
        payload,
        cwd: root,
        env,
        plainStdoutIsContext: PLAIN_STDOUT_IS_CONTEXT.has(event),
        compat,
        ...(signal && { signal }),
        ...(sandbox && { sandbox }),
      });
    };

  const runners = (event: HookEventName): Runner[] => {
    const list: Runner[] = [];
    for (const source of sources) {
      for (const group of source.settings.hooks?.[event] ?? []) {
        for (const hook of group.hooks)
          list.push({
            matcher: group.matcher,
            label: hook.command,
            compat: source.compat,
            run: commandRunner(event, hook, source.compat),
          });
      }
    }
    return list;
  };

  const transcriptPath = (sessionId: string | undefined) =>
    typeof options.transcriptPath === "function" ? options.transcriptPath(sessionId) : options.transcriptPath;

  const fire: FireHookEvent = async (event, input = {}, toolResult) => {
    const { signal, ...fields } = input;
    const sessionId = (fields.session_id as string | undefined) ?? options.sessionId;
    const transcript = transcriptPath(sessionId);
    const payload: HookPayload = {
      ...(options.sessionId !== undefined && { session_id: options.sessionId }),
      ...(transcript !== undefined && { transcript_path: transcript }),
      ...(options.permissionMode !== undefined && { permission_mode: options.permissionMode }),
      ...fields,
      cwd: root,
      hook_event_name: event,
    };
    const field = MATCH_FIELD[event];
    const outcome: HookOutcome = { errors: [] };
    const contexts: string[] = [];
    let compatAllowed = false;
    for (const runner of runners(event)) {
      const view = runner.compat ? (toClaudePayload(event, payload, root, toolResult) as HookPayload) : payload;
      if (field && !subjectsOf(field, payload, runner.compat).some((subject) => matchesHook(runner.matcher, subject)))
        continue;
      let decision: HookDecision;
      try {
        decision = await runner.run(view, signal);
      } catch (error) {
        const failure =
          error instanceof HookExecutionError
            ? error
            : new HookExecutionError(event, runner.label, `threw: ${(error as Error)?.message ?? String(error)}`);
        outcome.errors.push(failure);
        onError(failure);
        // Claude Code treats a hook that cannot decide as a non-blocking error: the call goes on.
        if (HOOK_EVENTS_FAILING_CLOSED.has(event) && !runner.compat) {
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
      if (runner.compat) decision = fromClaudeDecision(event, decision, payload, root, logger);
      if (decision.systemMessage) logger.info(`${event} hook: ${decision.systemMessage}`);
      if (decision.additionalContext) contexts.push(decision.additionalContext);
      if (decision.updatedToolOutput !== undefined) outcome.updatedToolOutput = decision.updatedToolOutput;
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
      if (decision.decision === "allow" && runner.compat) compatAllowed = true;
      if (decision.decision === "ask" || (decision.decision === "allow" && outcome.decision === undefined)) {
        outcome.decision = decision.decision;
        if (decision.reason) outcome.reason = decision.reason;
      }
    }
    if (contexts.length > 0) outcome.additionalContext = contexts.join("\n\n");
    if (compatAllowed && outcome.decision === "allow") outcome.bypassApproval = true;
    return outcome;
  };

  const run = (event: HookEventName, input?: HookEventInput) => fire(event, input);
  const loop = createLoopHooks({
    fire,
    sessionId: options.sessionId,
    hasStopHooks: Boolean(settings.hooks?.Stop?.length),
    hasSubagentStopHooks: Boolean(settings.hooks?.SubagentStop?.length),
  });

  return {
    agentHooks: loop.agentHooks,
    ...(loop.completionGuard && { completionGuard: loop.completionGuard }),
    ...(loop.subagentGuard && { subagentGuard: loop.subagentGuard }),
    hookApproved: loop.hookApproved,
    settings,
    run,
    sessionStart: (input) => run("SessionStart", input),
    userPromptSubmit: (input) => run("UserPromptSubmit", input),
    preCompact: (input) => run("PreCompact", input),
    subagentStart: (input) => run("SubagentStart", input),
    // The sub-agent's guard already fired it when the sub-agent ended its turn: not twice.
    subagentStop: async (input) =>
      loop.subagentStopFired(input?.agent_id) ? { errors: [] } : run("SubagentStop", input),
    sessionEnd: (input) => run("SessionEnd", input),
  };
}

/** The names a matcher is tested against: a tool's Claude Code names (all its aliases) in compatibility mode. */
function subjectsOf(field: keyof HookPayload, payload: HookPayload, compat: boolean): Array<string | undefined> {
  const value = payload[field];
  const subject = typeof value === "string" ? value : undefined;
  if (compat && field === "tool_name" && subject !== undefined) return [...claudeToolNames(subject)];
  return [subject];
}

/**
 * A compatibility-mode hook's answer in Heddle's terms: a rewritten input back in Heddle's field names, and a block
 * at an event where Claude Code cannot block only shown to the person.
 */
function fromClaudeDecision(
  event: HookEventName,
  decision: HookDecision,
  payload: HookPayload,
  root: string,
  logger: { info(message: string): void },
): HookDecision {
  const result = { ...decision };
  if (result.updatedInput !== undefined && TOOL_INPUT_EVENTS.has(event) && typeof payload.tool_name === "string")
    result.updatedInput = fromClaudeToolInput(payload.tool_name, result.updatedInput, root);
  if (result.decision === "deny" && !CLAUDE_BLOCKING_EVENTS.has(event)) {
    if (result.reason) logger.info(`${event} hook: ${result.reason}`);
    delete result.decision;
    delete result.reason;
  }
  return result;
}

function mergeSettings(all: HookSettings[]): HookSettings {
  const hooks: NonNullable<HookSettings["hooks"]> = {};
  const passEnv = all.flatMap((settings) => settings.passEnv ?? []);
  for (const settings of all) {
    for (const event of HOOK_EVENTS) {
      const groups = settings.hooks?.[event];
      if (groups) hooks[event] = [...(hooks[event] ?? []), ...groups];
    }
  }
  return passEnv.length > 0 ? { hooks, passEnv } : { hooks };
}
