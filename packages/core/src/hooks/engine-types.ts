import type { AgentHooks, CompletionGuardContext, Logger, ToolResultPart } from "@heddle/shared";
import type { SandboxOptions } from "../process/index.js";
import type { HookExecutionError } from "./command-hook.js";
import type { CommandHookConfig, HookEventName, HookSettings } from "./settings.js";

/** What every hook gets on stdin (snake_case, as Claude Code's hooks read it), plus the event's own fields. */
export interface HookPayload {
  session_id?: string;
  /** The host's transcript file (`transcriptPath`), when it keeps one. */
  transcript_path?: string;
  cwd: string;
  /** In Claude Code's words (`permissionMode`), when the host says. */
  permission_mode?: string;
  hook_event_name: HookEventName;
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
  /** PostToolUse: the result's text (an object in Claude Code compatibility mode). */
  tool_response?: unknown;
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
  /**
   * A Claude Code compatibility-mode PreToolUse hook allowed the call (and none asked or denied): it runs without
   * asking the person, as in Claude Code. A Heddle-mode `allow` only means "no objection".
   */
  bypassApproval?: boolean;
  /** PostToolUse: the output the model gets instead of the tool's (a hook's `updatedMCPToolOutput`). */
  updatedToolOutput?: unknown;
}

export interface HookEngineOptions {
  workspaceRoot: string;
  /** Settings in code; they run in addition to the settings files, after them. */
  settings?: HookSettings;
  /** Read `.heddle/settings.json` under the workspace (default true). */
  loadSettingsFile?: boolean;
  /**
   * Also read Claude Code's `.claude/settings.json` and `.claude/settings.local.json` under the workspace, after
   * `.heddle/settings.json`, in Claude Code compatibility mode (default false; heddle-code turns it on). They load
   * leniently: an event or hook type Heddle does not run is noted and skipped, never an error.
   */
  claudeSettings?: boolean;
  sessionId?: string;
  /**
   * `transcript_path` in every payload: a file the host keeps the conversation in (heddle-code writes one JSON line
   * per message, in Claude Code's line shape), or a function of the session id giving it.
   */
  transcriptPath?: string | ((sessionId: string | undefined) => string | undefined);
  /**
   * `permission_mode` in every payload, in Claude Code's words: `default`, `plan`, `acceptEdits`, `dontAsk` or
   * `bypassPermissions` (heddle-code: `plan` for the read-only preset, `acceptEdits` for edit, `bypassPermissions`
   * for full or `--yes`).
   */
  permissionMode?: string;
  /** Told about each failed hook (default: `logger.warn`). The run goes on. */
  onError?(error: HookExecutionError): void;
  /**
   * Where a failed hook, a hook's `systemMessage` and notes about Claude Code settings are reported when there is
   * no `onError` (default: `consoleLogger` from `@heddle/shared`).
   */
  logger?: Logger;
  /**
   * Extra variables for hook commands. They get this process's environment minus secret-looking names
   * (`*_API_KEY`, `*_TOKEN`, ...: `isSecretEnvName`) unless `passEnv` names them, plus `HEDDLE_PROJECT_DIR` and
   * `CLAUDE_PROJECT_DIR` (both the workspace root) and these.
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
 * and goes on (a PostToolUse hook cannot undo a call; a Stop or SessionStart hook gates nothing). A hook in Claude
 * Code compatibility mode that cannot decide never blocks, as in Claude Code (a non-blocking error).
 */
export const HOOK_EVENTS_FAILING_CLOSED: ReadonlySet<HookEventName> = new Set<HookEventName>(["PreToolUse"]);

/** Fields of a fired event besides the ones the engine fills in. */
export type HookEventInput = Omit<HookPayload, "hook_event_name" | "cwd"> & { signal?: AbortSignal };

/** The hook engine: `agentHooks` for the loop, and one method per session-level event. */
export interface HookEngine {
  /**
   * PreToolUse → beforeTool, PostToolUse/PostToolUseFailure → afterTool, Stop → afterRun (unless `completionGuard`
   * already fired it for the run).
   */
  readonly agentHooks: AgentHooks;
  /**
   * Set when Stop hooks exist: fires `Stop` when the model ends its turn without tool calls, so a hook can block the
   * stop (exit 2 or `decision: "block"`): its reason goes to the model and the run goes on, with `stop_hook_active:
   * true` the next time. Give it to the agent as `completionGuard` (a session's host does).
   */
  readonly completionGuard?: (ctx: CompletionGuardContext) => Promise<string | undefined>;
  /**
   * Set when SubagentStop hooks exist: the same for a sub-agent's run (a host gives it to every sub-agent it starts),
   * so a SubagentStop hook can keep the sub-agent working. `subagentStop()` does not fire again for that sub-agent.
   */
  readonly subagentGuard?: (
    ctx: CompletionGuardContext,
    info: { agentType?: string; parentAgentId?: string },
  ) => Promise<string | undefined>;
  /**
   * True once for a call a compatibility-mode PreToolUse hook allowed (`bypassApproval`): the host's approver
   * then approves it without asking (`withPermissionHooks` does).
   */
  hookApproved?(toolCallId: string): boolean;
  /** The merged settings (`.heddle/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`, code). */
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

/** Fires one event; `toolResult` lets a compatibility-mode PostToolUse hook get the result as an object. */
export type FireHookEvent = (
  event: HookEventName,
  input?: HookEventInput,
  toolResult?: ToolResultPart,
) => Promise<HookOutcome>;
