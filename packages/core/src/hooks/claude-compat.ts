/**
 * What a hook in Claude Code compatibility mode sees: Heddle's built-in tools under the names Claude Code's hooks
 * know (`bash` is `Bash`, `edit_file` is `Edit`, ...), their inputs with Claude Code's field names and absolute
 * paths (`file_path`, `old_string`), the tool's result as an object, and Claude Code's values where Heddle's
 * differ. What such a hook answers (`updatedInput`) is turned back into Heddle's input here too. Pure functions.
 */
import path from "node:path";
import { type ToolResultPart, toolOutputText } from "@heddle/shared";
import type { HookEventName } from "./settings.js";

/** Each built-in tool's names in Claude Code, the first being the one hooks are given (the rest match too). */
export const CLAUDE_TOOL_NAMES: { readonly [heddleName: string]: readonly string[] } = {
  bash: ["Bash"],
  read_file: ["Read"],
  write_file: ["Write"],
  edit_file: ["Edit"],
  list_files: ["Glob"],
  search: ["Grep"],
  todo_write: ["TodoWrite"],
  spawn_agent: ["Agent", "Task"],
  ask_user: ["AskUserQuestion"],
  load_skill: ["Skill"],
};

/** Input fields each tool names differently in Claude Code (Heddle's name → Claude Code's), and its path fields. */
const INPUT_FIELDS: { readonly [heddleName: string]: { rename?: { [field: string]: string }; paths?: string[] } } = {
  bash: { rename: { timeout_ms: "timeout" } },
  read_file: { rename: { path: "file_path" }, paths: ["file_path"] },
  write_file: { rename: { path: "file_path" }, paths: ["file_path"] },
  edit_file: { rename: { path: "file_path", old_text: "old_string", new_text: "new_string" }, paths: ["file_path"] },
  list_files: { paths: ["path"] },
  search: { rename: { context: "-C" }, paths: ["path"] },
  load_skill: { rename: { name: "skill" } },
};

/** The names a tool matches under in Claude Code (its own name for any tool Heddle does not map). */
export function claudeToolNames(heddleName: string): readonly string[] {
  return CLAUDE_TOOL_NAMES[heddleName] ?? [heddleName];
}

const isObject = (value: unknown): value is { [key: string]: unknown } =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A tool's input as Claude Code's hooks see it: renamed fields, paths absolute (resolved against `root`). */
export function toClaudeToolInput(heddleName: string, input: unknown, root: string): unknown {
  const fields = INPUT_FIELDS[heddleName];
  if (!fields || !isObject(input)) return input;
  const out: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(input)) out[fields.rename?.[key] ?? key] = value;
  for (const field of fields.paths ?? [])
    if (typeof out[field] === "string") out[field] = path.resolve(root, out[field] as string);
  return out;
}

/** An input a hook wrote in Claude Code's terms, back in Heddle's: names restored, paths inside `root` relative. */
export function fromClaudeToolInput(heddleName: string, input: unknown, root: string): unknown {
  const fields = INPUT_FIELDS[heddleName];
  if (!fields || !isObject(input)) return input;
  const back = new Map(Object.entries(fields.rename ?? {}).map(([heddle, claude]) => [claude, heddle]));
  const out: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(input)) {
    let next = value;
    if ((fields.paths ?? []).includes(key) && typeof value === "string" && path.isAbsolute(value)) {
      const relative = path.relative(root, value);
      if (relative === "") next = ".";
      else if (!relative.startsWith("..") && !path.isAbsolute(relative)) next = relative;
    }
    out[back.get(key) ?? key] = next;
  }
  return out;
}

/**
 * A tool's result as the object Claude Code's PostToolUse hooks read as `tool_response`. Heddle's `bash` merges
 * stdout and stderr, so `stdout` holds both and `stderr` is empty; `exit_code` is added.
 */
export function toClaudeToolResponse(
  heddleName: string,
  input: unknown,
  result: ToolResultPart,
  root: string,
): unknown {
  const text = toolOutputText(result.output);
  const claudeInput = toClaudeToolInput(heddleName, input, root) as { [key: string]: unknown } | undefined;
  const filePath = typeof claudeInput?.file_path === "string" ? claudeInput.file_path : undefined;
  switch (heddleName) {
    case "bash": {
      const [status = "", ...rest] = text.split("\n");
      const exit = /^Exit code (\d+)$/.exec(status);
      const killed = /^Killed by signal/.test(status);
      const stdout = exit || killed ? rest.join("\n") : text;
      return {
        stdout: stdout === "(no output)" ? "" : stdout,
        stderr: "",
        interrupted: killed,
        isImage: false,
        ...(exit && { exit_code: Number(exit[1]) }),
      };
    }
    case "write_file":
      return {
        type: /^Created /.test(text) ? "create" : "update",
        filePath,
        content: claudeInput?.content,
        success: !result.isError,
      };
    case "edit_file":
      return {
        filePath,
        oldString: claudeInput?.old_string,
        newString: claudeInput?.new_string,
        replaceAll: claudeInput?.replace_all === true,
        success: !result.isError,
      };
    case "read_file":
      return { type: "text", file: { filePath, content: text } };
    case "list_files": {
      const filenames = text.split("\n").filter((line) => line.trim() !== "");
      return { filenames, numFiles: filenames.length };
    }
    case "search":
      return { mode: "content", content: text };
    default:
      if (heddleName.startsWith("mcp__"))
        return typeof result.output === "string" ? [{ type: "text", text: result.output }] : result.output;
      return { output: text };
  }
}

/** Heddle's `SessionEnd` reasons in Claude Code's words (which has `clear`, `logout`, `prompt_input_exit`, `other`). */
const SESSION_END_REASONS: { [heddle: string]: string } = { close: "other" };

/**
 * The payload a compatibility-mode hook gets: Heddle's with the tool name, input and response as Claude Code
 * gives them, and Claude Code's values or defaults for the event's own fields.
 */
export function toClaudePayload(
  event: HookEventName,
  payload: { [key: string]: unknown },
  root: string,
  toolResult?: ToolResultPart,
): { [key: string]: unknown } {
  const out = { ...payload };
  const tool = typeof payload.tool_name === "string" ? payload.tool_name : undefined;
  if (tool !== undefined) {
    out.tool_name = claudeToolNames(tool)[0];
    if ("tool_input" in payload) out.tool_input = toClaudeToolInput(tool, payload.tool_input, root);
    if (toolResult && event === "PostToolUse")
      out.tool_response = toClaudeToolResponse(tool, payload.tool_input, toolResult, root);
  }
  switch (event) {
    case "PostToolUseFailure":
      out.is_interrupt ??= false;
      break;
    case "PreCompact":
      out.custom_instructions ??= "";
      break;
    case "SessionEnd":
      if (typeof payload.reason === "string") out.reason = SESSION_END_REASONS[payload.reason] ?? payload.reason;
      break;
    case "SubagentStop":
      out.stop_hook_active ??= false;
      if (typeof payload.output_text === "string") out.last_assistant_message ??= payload.output_text;
      break;
  }
  return out;
}

/**
 * Events at which Claude Code lets a hook block (exit 2, `decision: "block"` or a deny). At the others (SessionStart,
 * SessionEnd, Notification, PreCompact, SubagentStart, Setup) a compatibility-mode hook's block is only shown to
 * the person: Heddle's own hooks can skip a compaction or a sub-agent there, Claude Code's cannot.
 */
export const CLAUDE_BLOCKING_EVENTS: ReadonlySet<HookEventName> = new Set<HookEventName>([
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "TeammateIdle",
  "TaskCompleted",
]);
