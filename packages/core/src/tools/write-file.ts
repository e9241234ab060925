import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { type AgentTool, createTool, type ToolContext } from "@heddle/shared";
import { z } from "zod";
import { ToolInputError, type Workspace, writeFileAtomic } from "../workspace/index.js";
import { assertRegularFile } from "./regular-file.js";

/** What write_file/edit_file call before changing a file; `FileCheckpointer` is the usual one. */
export interface WriteCheckpointer {
  beforeWrite(realPath: string, ctx: ToolContext): Promise<void>;
}

const inputSchema = z.object({
  path: z.string().describe("File path, relative to the workspace root."),
  content: z.string().describe("The whole new content of the file."),
});

/** `write_file {path, content}`: creates or replaces a whole file, atomically, creating missing folders. */
export function createWriteFileTool(workspace: Workspace, checkpointer?: WriteCheckpointer): AgentTool {
  return createTool({
    name: "write_file",
    description:
      "Create a file or replace its whole content. Missing folders are created. To change part of an " +
      "existing file, prefer edit_file.",
    input: inputSchema,
    async execute(input, ctx) {
      const real = await workspace.resolveWritable(input.path);
      const shown = workspace.display(real);
      const existing = await stat(real).catch(() => undefined);
      if (existing?.isDirectory()) throw new ToolInputError("is_directory", `${shown} is a directory, not a file.`);
      if (existing) assertRegularFile(existing, shown);
      await checkpointer?.beforeWrite(real, ctx);
      await mkdir(path.dirname(real), { recursive: true });
      await writeFileAtomic(real, input.content);
      const bytes = Buffer.byteLength(input.content);
      return `${existing ? "Updated" : "Created"} ${shown} (${bytes} bytes, ${countLines(input.content)} lines).`;
    },
  });
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  return text.endsWith("\n") ? lines - 1 : lines;
}
