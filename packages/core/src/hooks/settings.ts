import { statSync } from "node:fs";
import path from "node:path";
import { HeddleError, isHeddleError } from "@heddle/shared";
import { z } from "zod";
import { fileKind, readRegularFileSync } from "../tools/index.js";

/** Every hook event, in the order a session meets them. */
export const HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "SessionEnd",
  "PermissionRequest",
  "Notification",
  "Setup",
  "TeammateIdle",
  "TaskCompleted",
] as const;

export type HookEventName = (typeof HOOK_EVENTS)[number];

/** A shell command run for an event; `timeout` is in seconds (default 60), as in Claude Code's settings. */
export interface CommandHookConfig {
  type: "command";
  command: string;
  timeout?: number;
}

/** Hooks for the events whose subject (tool name, agent type, ...) the matcher accepts. */
export interface HookMatcherConfig {
  /** Exact name, `a|b` list, or a regular expression; empty or `*` matches everything. */
  matcher?: string;
  hooks: CommandHookConfig[];
}

/** The `hooks` part of `.heddle/settings.json`: Claude Code's shape. */
export interface HookSettings {
  hooks?: { [E in HookEventName]?: HookMatcherConfig[] };
  /**
   * Run these hooks in Claude Code compatibility mode: they see Claude Code's tool names and inputs (`Bash`,
   * `Edit`, `file_path`, a `tool_response` object), their matchers match those names, an exit code other than 0
   * and 2 is a non-blocking error, and a PreToolUse `allow` skips the permission prompt (see docs/hooks.md). On for
   * `.claude/settings.json` and `.claude/settings.local.json` (`claudeSettings`); off unless set elsewhere.
   */
  claudeCompat?: boolean;
  /**
   * Variables command hooks get even though their names look secret (`*_API_KEY`, `*_TOKEN`, ...: see
   * `isSecretEnvName`); without this, hooks never see them.
   */
  passEnv?: string[];
}

/** A settings file or object is malformed; the message names the file and the field. Code `hook_settings_invalid`. */
export class HookSettingsError extends HeddleError {
  constructor(message: string) {
    super("hook_settings_invalid", message);
    this.name = "HookSettingsError";
  }
}

const commandHookSchema = z.object({
  type: z.literal("command"),
  command: z.string().min(1),
  timeout: z.number().positive().optional(),
});

const matcherSchema = z.object({
  matcher: z
    .string()
    .optional()
    .refine((matcher) => {
      try {
        matchesHook(matcher, "");
        return true;
      } catch {
        return false;
      }
    }, "not a valid regular expression"),
  hooks: z.array(commandHookSchema),
});

const settingsSchema = z
  .object({
    hooks: z.partialRecord(z.enum(HOOK_EVENTS), z.array(matcherSchema)).optional(),
    passEnv: z.array(z.string().min(1)).optional(),
    claudeCompat: z.boolean().optional(),
  })
  .loose();

/** Checks a settings object; `source` names it in the error. */
export function parseHookSettings(value: unknown, source: string): HookSettings {
  const parsed = settingsSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const where = issue.path.map(String).join(".") || "(root)";
      return `- ${where}: ${issue.message}${issue.code === "invalid_key" ? ` (events: ${HOOK_EVENTS.join(", ")})` : ""}`;
    });
    throw new HookSettingsError(`Invalid hook settings in ${source}:\n${problems.join("\n")}`);
  }
  return parsed.data as HookSettings;
}

/** The settings file under a workspace. */
export function settingsFilePath(workspaceRoot: string): string {
  return path.join(workspaceRoot, ".heddle", "settings.json");
}

/**
 * `.heddle/settings.json` under the workspace, or `undefined` when there is none. A FIFO, socket or device in its
 * place (a hostile repository's) is refused with `HookSettingsError`, never opened in a way that blocks.
 */
export function loadHookSettingsFile(workspaceRoot: string): HookSettings | undefined {
  const file = settingsFilePath(workspaceRoot);
  let text: string;
  try {
    text = readRegularFileSync(file).toString("utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    if (isHeddleError(error, "not_regular_file")) {
      const kind = fileKind(statSync(file));
      throw new HookSettingsError(`${file} is ${kind}: hook settings are read only from a regular file.`);
    }
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HookSettingsError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  return parseHookSettings(json, file);
}

/**
 * Whether a matcher accepts a subject: no matcher, `""` or `*` accept all; letters, digits, `_`, `-` and `|`
 * mean an exact name or a list of them; anything else is a regular expression matched against the whole name.
 */
export function matchesHook(matcher: string | undefined, subject: string | undefined): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (subject === undefined) return false;
  if (/^[\w|-]+$/.test(matcher)) return matcher.split("|").includes(subject);
  try {
    return new RegExp(`^(?:${matcher})$`).test(subject);
  } catch {
    throw new HookSettingsError(`Hook matcher ${JSON.stringify(matcher)} is not a valid regular expression.`);
  }
}
