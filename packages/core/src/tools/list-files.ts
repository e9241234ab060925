import { stat } from "node:fs/promises";
import { type AgentTool, createTool } from "@heddle/shared";
import { z } from "zod";
import type { Workspace } from "../workspace/index.js";
import { ToolInputError } from "../workspace/index.js";
import { walkWorkspaceFiles } from "./file-walk.js";

const inputSchema = z.object({
  pattern: z.string().optional().describe('Glob, e.g. "src/**/*.ts" (default: every file).'),
  path: z.string().optional().describe("Folder to list, relative to the workspace root (default: the root)."),
});

/** `list_files {pattern?, path?}`: files by glob, skipping `.git`, `node_modules` and `.gitignore`d paths. */
export function createListFilesTool(workspace: Workspace, maxEntries = 1000): AgentTool {
  return createTool({
    name: "list_files",
    description:
      "List files in the workspace matching a glob (relative to `path`, default the root). Skips .git, " +
      `node_modules and .gitignored files. Paths are relative to the workspace root; at most ${maxEntries} are shown.`,
    input: inputSchema,
    readOnly: true,
    async execute(input) {
      const dir = await workspace.resolve(input.path ?? ".");
      const info = await stat(dir).catch(() => undefined);
      const shown = workspace.display(dir);
      if (!info) throw new ToolInputError("not_found", `Folder not found: ${shown}.`);
      if (!info.isDirectory()) {
        throw new ToolInputError("not_a_directory", `${shown} is a file, not a folder; use read_file to read it.`);
      }
      const files = await walkWorkspaceFiles(workspace, {
        dir,
        ...(input.pattern !== undefined && { pattern: input.pattern }),
      });
      if (files.length === 0) return `No files match ${input.pattern ?? "**/*"} in ${shown}.`;
      const listed = files.slice(0, maxEntries).join("\n");
      return files.length > maxEntries
        ? `${listed}\n[showing ${maxEntries} of ${files.length} files; narrow the pattern or path]`
        : listed;
    },
  });
}
