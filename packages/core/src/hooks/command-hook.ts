import { clampTimeoutMs, HeddleError } from "@heddle/shared";
import type { ResolvedSandbox } from "../process/index.js";
import { runShellCommand } from "../process/index.js";
import type { CommandHookConfig, HookEventName } from "./settings.js";

/** What a hook may answer (JSON on stdout, or a programmatic hook's return). Claude Code's fields also work. */
export interface HookOutput {
  /** `allow` / `deny` / `ask` for PreToolUse; `block` (= deny) and `approve` (= allow) as Claude Code writes them. */
  decision?: "allow" | "deny" | "ask" | "block" | "approve";
  reason?: string;
  /** PreToolUse: the tool input to use instead. */
  updatedInput?: unknown;
  /** Text added to the next model request. */
  additionalContext?: string;
  /** End the run; `reason` (or `stopReason`) says why. */
  stop?: boolean;
  /** Claude Code: `continue: false` is `stop: true`. */
  continue?: boolean;
  stopReason?: string;
  /** Claude Code: a line shown to the person (Heddle logs it with the engine's logger). */
  systemMessage?: string;
  /** Claude Code: hide the hook's stdout from its transcript (Heddle never shows it: accepted, no effect). */
  suppressOutput?: boolean;
  hookSpecificOutput?: {
    hookEventName?: string;
    /** `defer` (Claude Code) decides nothing. */
    permissionDecision?: "allow" | "deny" | "ask" | "defer";
    permissionDecisionReason?: string;
    updatedInput?: unknown;
    additionalContext?: string;
    /** PermissionRequest (Claude Code): allow or deny in the person's place. */
    decision?: { behavior?: "allow" | "deny"; updatedInput?: unknown; message?: string; interrupt?: boolean };
    /** PostToolUse of an MCP tool (Claude Code): the result the model gets instead. */
    updatedMCPToolOutput?: unknown;
  };
}

/** One hook's answer, normalized. */
export interface HookDecision {
  decision?: "allow" | "deny" | "ask";
  reason?: string;
  updatedInput?: unknown;
  additionalContext?: string;
  stop?: boolean;
  /** A line for the person, not the model (Claude Code's `systemMessage`). */
  systemMessage?: string;
  /** PostToolUse: the tool's output to use instead (Claude Code's `updatedMCPToolOutput`, MCP tools only). */
  updatedToolOutput?: unknown;
}

/**
 * A hook failed (an exit code other than 0 and 2, a timeout, bad JSON, a throw). It is reported; a PreToolUse
 * hook's failure denies the call, any other event's is ignored. Code `hook_failed`.
 */
export class HookExecutionError extends HeddleError {
  constructor(
    readonly event: HookEventName,
    readonly hook: string,
    message: string,
    readonly exitCode?: number | null,
    readonly stderr?: string,
  ) {
    super("hook_failed", `${event} hook ${JSON.stringify(hook)} ${message}`);
    this.name = "HookExecutionError";
  }
}

/** Maps any `HookOutput` to a decision; `undefined` for nothing to do. */
export function normalizeHookOutput(output: HookOutput | void | undefined | null): HookDecision {
  if (!output || typeof output !== "object") return {};
  const specific =
    typeof output.hookSpecificOutput === "object" && output.hookSpecificOutput !== null
      ? output.hookSpecificOutput
      : {};
  // PermissionRequest's own shape: {decision: {behavior, updatedInput?, message?, interrupt?}}.
  const permission =
    typeof specific.decision === "object" && specific.decision !== null ? specific.decision : undefined;
  const raw = permission?.behavior ?? specific.permissionDecision ?? output.decision;
  const decision = raw === "block" ? "deny" : raw === "approve" ? "allow" : raw;
  const result: HookDecision = {};
  if (decision === "allow" || decision === "deny" || decision === "ask") result.decision = decision;
  const reason = permission?.message ?? specific.permissionDecisionReason ?? output.reason ?? output.stopReason;
  if (typeof reason === "string") result.reason = reason;
  const updatedInput = permission?.updatedInput ?? specific.updatedInput ?? output.updatedInput;
  if (updatedInput !== undefined) result.updatedInput = updatedInput;
  const context = specific.additionalContext ?? output.additionalContext;
  if (typeof context === "string" && context.length > 0) result.additionalContext = context;
  if (specific.updatedMCPToolOutput !== undefined) result.updatedToolOutput = specific.updatedMCPToolOutput;
  if (typeof output.systemMessage === "string" && output.systemMessage !== "")
    result.systemMessage = output.systemMessage;
  if (output.stop === true || output.continue === false || permission?.interrupt === true) {
    result.stop = true;
    if (output.stopReason !== undefined) result.reason = output.stopReason;
  }
  return result;
}

export interface RunCommandHookOptions {
  event: HookEventName;
  hook: CommandHookConfig;
  payload: object;
  cwd: string;
  env: { [name: string]: string | undefined };
  signal?: AbortSignal;
  /** Events whose plain (non-JSON) stdout becomes added context, as in Claude Code. */
  plainStdoutIsContext: boolean;
  /** Run the hook under bubblewrap. */
  sandbox?: ResolvedSandbox;
  /** Claude Code compatibility: stdout that is not valid JSON is plain text, as there, not a failure. */
  compat?: boolean;
}

const DEFAULT_TIMEOUT_S = 60;
const MAX_HOOK_OUTPUT = 1024 * 1024;

/**
 * Runs one command hook: the payload as JSON on stdin; exit 0 with JSON stdout decides; exit 2 denies with
 * stderr as the reason; anything else throws `HookExecutionError` for the engine to report.
 */
export async function runCommandHook(options: RunCommandHookOptions): Promise<HookDecision> {
  const { event, hook } = options;
  // A huge `timeout` (or one that overflows to Infinity) must not become Node's 1 ms timer.
  const timeoutMs = clampTimeoutMs((hook.timeout ?? DEFAULT_TIMEOUT_S) * 1000);
  const result = await runShellCommand({
    command: hook.command,
    cwd: options.cwd,
    env: options.env,
    stdin: JSON.stringify(options.payload),
    timeoutMs,
    maxOutputBytes: MAX_HOOK_OUTPUT,
    killGraceMs: 500,
    ...(options.sandbox && { sandbox: options.sandbox }),
    ...(options.signal && { signal: options.signal }),
  });
  if (result.timedOut)
    throw new HookExecutionError(event, hook.command, `timed out after ${timeoutMs} ms and was killed`);
  if (result.aborted) return {};
  if (result.exitCode === 2) {
    return { decision: "deny", reason: result.stderr.trim() || `${event} hook exited with code 2` };
  }
  if (result.exitCode !== 0) {
    const how = result.exitCode === null ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
    throw new HookExecutionError(
      event,
      hook.command,
      `${how}: ${result.stderr.trim()}`,
      result.exitCode,
      result.stderr,
    );
  }
  const stdout = result.stdout.trim();
  if (stdout === "") return {};
  const plain = () => (options.plainStdoutIsContext ? { additionalContext: stdout } : {});
  if (!stdout.startsWith("{")) return plain();
  try {
    return normalizeHookOutput(JSON.parse(stdout) as HookOutput);
  } catch (error) {
    if (options.compat) return plain();
    throw new HookExecutionError(event, hook.command, `printed invalid JSON: ${(error as Error).message}`, 0);
  }
}
