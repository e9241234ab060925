import path from "node:path";
import { isHeddleError } from "@heddle/shared";
import { readRegularFileSync } from "../tools/index.js";
import { type CommandHookConfig, HOOK_EVENTS, type HookEventName, type HookSettings, matchesHook } from "./settings.js";

/**
 * Every hook event Claude Code's hooks reference documents (checked 2026-12). Settings naming any of them load;
 * Heddle runs the ones it has (`HOOK_EVENTS`) and notes the others once, as events that never fire here.
 */
export const CLAUDE_CODE_HOOK_EVENTS = [
  "SessionStart",
  "Setup",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreToolUse",
  "PermissionRequest",
  "PermissionDenied",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "Notification",
  "SubagentStart",
  "SubagentStop",
  "TaskCreated",
  "TaskCompleted",
  "Stop",
  "StopFailure",
  "TeammateIdle",
  "InstructionsLoaded",
  "ConfigChange",
  "CwdChanged",
  "FileChanged",
  "WorktreeCreate",
  "WorktreeRemove",
  "PreCompact",
  "PostCompact",
  "Elicitation",
  "ElicitationResult",
  "SessionEnd",
] as const;

/** Claude Code's project settings files that can hold hooks, relative to the workspace, in the order they run. */
export const CLAUDE_SETTINGS_FILES = [".claude/settings.json", ".claude/settings.local.json"] as const;

/** A settings file larger than this is not read (its hooks are skipped, with a note). */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/** Something about a Claude Code settings file worth telling the person; never fatal. */
export interface ClaudeSettingsNote {
  level: "info" | "warn";
  message: string;
}

/** One settings file's hooks, in Claude Code compatibility mode. */
export interface ClaudeSettingsSource {
  /** The file, relative to the workspace. */
  file: string;
  settings: HookSettings;
}

const isObject = (value: unknown): value is { [key: string]: unknown } =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads `.claude/settings.json` and `.claude/settings.local.json` under the workspace, leniently, as Claude Code
 * does: an unknown event, a hook type other than `command`, a bad matcher or an unreadable file is a note and is
 * skipped; nothing here throws. `disableAllHooks: true` in either file turns off the hooks of both.
 */
export function loadClaudeHookSettings(workspaceRoot: string): {
  sources: ClaudeSettingsSource[];
  notes: ClaudeSettingsNote[];
} {
  const notes: ClaudeSettingsNote[] = [];
  const sources: ClaudeSettingsSource[] = [];
  let disabledBy: string | undefined;
  for (const file of CLAUDE_SETTINGS_FILES) {
    const json = readSettingsJson(path.join(workspaceRoot, file), file, notes);
    if (json === undefined) continue;
    if (!isObject(json)) {
      notes.push({ level: "warn", message: `${file} is not a JSON object: its hooks are skipped` });
      continue;
    }
    if (json.disableAllHooks === true) disabledBy ??= file;
    sources.push({ file, settings: parseClaudeHooks(json, file, notes) });
  }
  if (disabledBy !== undefined) {
    notes.push({
      level: "info",
      message: `${disabledBy} sets disableAllHooks: the hooks of ${CLAUDE_SETTINGS_FILES.join(" and ")} do not run`,
    });
    return { sources: [], notes };
  }
  return { sources, notes };
}

function readSettingsJson(file: string, shown: string, notes: ClaudeSettingsNote[]): unknown {
  let text: string;
  try {
    const bytes = readRegularFileSync(file, shown, MAX_SETTINGS_BYTES + 1);
    if (bytes.length > MAX_SETTINGS_BYTES) {
      notes.push({ level: "warn", message: `${shown} is larger than 1 MiB: its hooks are skipped` });
      return undefined;
    }
    text = bytes.toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    const why = isHeddleError(error, "not_regular_file")
      ? "not a regular file"
      : `unreadable (${code ?? (error as Error).message})`;
    notes.push({ level: "warn", message: `${shown} is ${why}: its hooks are skipped` });
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    notes.push({
      level: "warn",
      message: `${shown} is not valid JSON (${(error as Error).message}): its hooks are skipped`,
    });
    return undefined;
  }
}

/** The hooks of one Claude Code settings object that Heddle can run; everything else becomes a note. */
export function parseClaudeHooks(
  json: { [key: string]: unknown },
  file: string,
  notes: ClaudeSettingsNote[],
): HookSettings {
  const settings: HookSettings = { claudeCompat: true };
  const passEnv = Array.isArray(json.passEnv)
    ? json.passEnv.filter((n): n is string => typeof n === "string" && n !== "")
    : [];
  if (passEnv.length > 0) settings.passEnv = passEnv;
  if (json.hooks === undefined) return settings;
  if (!isObject(json.hooks)) {
    notes.push({ level: "warn", message: `${file}: "hooks" is not an object: skipped` });
    return settings;
  }
  const hooks: NonNullable<HookSettings["hooks"]> = {};
  for (const [event, groups] of Object.entries(json.hooks)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      if ((CLAUDE_CODE_HOOK_EVENTS as readonly string[]).includes(event))
        notes.push({
          level: "info",
          message: `${file}: ${event} hooks load but never run (Heddle has no ${event} event)`,
        });
      else notes.push({ level: "warn", message: `${file}: unknown hook event "${event}": skipped` });
      continue;
    }
    if (!Array.isArray(groups)) {
      notes.push({ level: "warn", message: `${file}: hooks.${event} is not a list: skipped` });
      continue;
    }
    const kept = groups.flatMap((group, i) => parseGroup(group, `${file}: hooks.${event}[${i}]`, notes));
    if (kept.length > 0) hooks[event as HookEventName] = kept;
  }
  settings.hooks = hooks;
  return settings;
}

function parseGroup(group: unknown, where: string, notes: ClaudeSettingsNote[]) {
  if (!isObject(group)) {
    notes.push({ level: "warn", message: `${where} is not an object: skipped` });
    return [];
  }
  const matcher = group.matcher;
  if (matcher !== undefined && typeof matcher !== "string") {
    notes.push({ level: "warn", message: `${where}.matcher is not a string: skipped` });
    return [];
  }
  try {
    matchesHook(matcher, "");
  } catch {
    notes.push({
      level: "warn",
      message: `${where}.matcher ${JSON.stringify(matcher)} is not a valid regular expression: skipped`,
    });
    return [];
  }
  const list = Array.isArray(group.hooks) ? group.hooks : [];
  const hooks: CommandHookConfig[] = [];
  list.forEach((hook, i) => {
    const type = isObject(hook) ? hook.type : undefined;
    if (!isObject(hook) || type !== "command" || typeof hook.command !== "string" || hook.command.trim() === "") {
      const what =
        typeof type === "string" && type !== "command"
          ? `a "${type}" hook, which Heddle does not run`
          : "not a command hook";
      notes.push({ level: "warn", message: `${where}.hooks[${i}] is ${what}: skipped` });
      return;
    }
    const timeout = typeof hook.timeout === "number" && hook.timeout > 0 ? hook.timeout : undefined;
    hooks.push({ type: "command", command: hook.command, ...(timeout !== undefined && { timeout }) });
  });
  if (hooks.length === 0) return [];
  return [{ ...(matcher !== undefined && { matcher }), hooks }];
}
