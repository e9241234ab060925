import { statSync } from "node:fs";
import path from "node:path";
import { type AfterToolContext, type AgentHooks, type AgentMessage, getMessageText } from "@heddle/shared";
import type { Conventions } from "./conventions.js";
import { instructionNames, readInstructionFile } from "./instructions.js";

/**
 * Nested instructions: an `AGENTS.md` (or `CLAUDE.md`) in a folder below the workspace is offered to the model the
 * first time a file tool works in that folder or below it (as Claude Code and Codex do), as context on the next
 * request, once per session. Folders named `node_modules` or starting with `.` are not looked into (a dependency's
 * AGENTS.md is not the project's). The same bounds and refusals as the project's files apply.
 */

/** Nested files offered in one session, at most (each at most 32 KiB). */
const MAX_NESTED_FILES = 20;
const MARKER = /<instructions file="([^"]+)" scope="nested">/g;

/** The tools whose `path` says where the agent works. */
const PATH_TOOLS = new Set(["read_file", "write_file", "edit_file", "list_files", "search"]);

/** The nested files a stored session was already given (its transcript holds them), so a resume does not repeat them. */
export function offeredIn(history: readonly AgentMessage[]): Set<string> {
  const offered = new Set<string>();
  for (const message of history) {
    if (message.role !== "user") continue;
    for (const match of getMessageText(message).matchAll(MARKER)) offered.add(match[1]!);
  }
  return offered;
}

export function createNestedInstructionsHooks(options: {
  workspaceRoot: string;
  conventions: Conventions;
  /** The files already offered in this session (shown paths); filled as files are offered. */
  offered: Set<string>;
}): AgentHooks {
  const { workspaceRoot, conventions, offered } = options;
  return {
    afterTool: (ctx: AfterToolContext) => {
      if (ctx.result.isError || !PATH_TOOLS.has(ctx.toolCall.toolName)) return;
      const folder = workFolder(workspaceRoot, ctx.toolCall.toolName, ctx.input);
      if (folder === undefined) return;
      const blocks: string[] = [];
      let dir = "";
      for (const part of folder.split(path.sep).filter(Boolean)) {
        if (part === "node_modules" || part.startsWith(".")) break;
        dir = dir ? path.join(dir, part) : part;
        for (const name of instructionNames(conventions)) {
          const shown = path.join(dir, name);
          if (offered.has(shown) || offered.size >= MAX_NESTED_FILES) continue;
          const read = readInstructionFile(path.join(workspaceRoot, shown), shown, { confine: workspaceRoot });
          if (read === undefined) continue;
          offered.add(shown);
          if ("problem" in read) continue;
          blocks.push(
            `<instructions file="${shown}" scope="nested">\n${read.text}${read.truncated ? "\n[… cut here: the file is longer]" : ""}\n</instructions>`,
          );
        }
      }
      if (blocks.length === 0) return;
      return {
        appendContext: `You are working under a folder with its own instructions. They apply to files in that folder and below, and win over the project's general instructions there:\n\n${blocks.join("\n\n")}`,
      };
    },
  };
}

/** The folder (relative to the workspace) a call worked in, or `undefined` when it is outside or unknown. */
function workFolder(workspaceRoot: string, toolName: string, input: unknown): string | undefined {
  const given = (input as { path?: unknown } | undefined)?.path;
  const target = path.resolve(workspaceRoot, typeof given === "string" && given !== "" ? given : ".");
  let folder = target;
  const isFolder = (() => {
    try {
      return statSync(target).isDirectory();
    } catch {
      return false;
    }
  })();
  if (!isFolder && toolName !== "list_files") folder = path.dirname(target);
  const relative = path.relative(workspaceRoot, folder);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  return relative;
}
