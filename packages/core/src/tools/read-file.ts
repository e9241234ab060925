import { stat } from "node:fs/promises";
import path from "node:path";
import { type AgentTool, createTool, type ImagePart, type TextPart } from "@heddle/shared";
import { z } from "zod";
import type { Workspace } from "../workspace/index.js";
import { ToolInputError } from "../workspace/index.js";
import { assertRegularFile, readRegularFile } from "./regular-file.js";

/** Size caps of `read_file`. */
export interface ReadFileLimits {
  /** Largest text file read whole when no `limit` is given (default 256 KiB). */
  maxTextBytes?: number;
  /** Largest image returned (default 5 MiB, the smallest vendor limit). */
  maxImageBytes?: number;
  /** Lines returned when no `limit` is given (default 2000). */
  defaultLineLimit?: number;
  /** Longer lines are cut (default 2000 characters). */
  maxLineChars?: number;
}

/** Even a ranged read loads the file once; past this size, search is the way in. */
const MAX_RANGED_BYTES = 64 * 1024 * 1024;

const IMAGE_TYPES: { [ext: string]: string } = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

const inputSchema = z.object({
  path: z.string().describe("File path, relative to the workspace root."),
  offset: z.number().int().min(1).optional().describe("First line to read, 1-based (default 1)."),
  limit: z.number().int().min(1).optional().describe("Number of lines to read."),
});

/** `read_file {path, offset?, limit?}`: numbered lines of a text file, or an image as an image part. */
export function createReadFileTool(workspace: Workspace, limits: ReadFileLimits = {}): AgentTool {
  const maxTextBytes = limits.maxTextBytes ?? 256 * 1024;
  const maxImageBytes = limits.maxImageBytes ?? 5 * 1024 * 1024;
  const defaultLineLimit = limits.defaultLineLimit ?? 2000;
  const maxLineChars = limits.maxLineChars ?? 2000;
  return createTool({
    name: "read_file",
    description:
      "Read a file in the workspace. Text comes back with line numbers (`   12\\tline`); use offset and limit " +
      `to read part of a long file (at most ${defaultLineLimit} lines by default). Images (png, jpeg, gif, webp) ` +
      "come back as images. Binary files are refused.",
    input: inputSchema,
    readOnly: true,
    async execute(input): Promise<string | Array<TextPart | ImagePart>> {
      const real = await workspace.resolve(input.path);
      const shown = workspace.display(real);
      const info = await stat(real).catch(() => undefined);
      if (!info) throw new ToolInputError("not_found", `File not found: ${shown}. Use list_files to find it.`);
      if (info.isDirectory()) {
        throw new ToolInputError("is_directory", `${shown} is a directory; use list_files to see what it holds.`);
      }
      assertRegularFile(info, shown);
      const mediaType = IMAGE_TYPES[path.extname(real).toLowerCase()];
      if (mediaType) {
        if (info.size > maxImageBytes) {
          throw new ToolInputError("too_large", `Image ${shown} is ${info.size} bytes; the limit is ${maxImageBytes}.`);
        }
        const data = await readRegularFile(real, shown, info.size);
        return [
          { type: "text", text: `Image ${shown} (${mediaType}, ${info.size} bytes)` },
          { type: "image", mediaType, data: Buffer.from(data).toString("base64") },
        ];
      }
      const ranged = input.offset !== undefined || input.limit !== undefined;
      // A whole-file read of a huge file would flood the context; a ranged read reads it but returns a slice.
      if (!ranged && info.size > maxTextBytes) {
        throw new ToolInputError(
          "too_large",
          `${shown} is ${info.size} bytes, over the ${maxTextBytes}-byte limit for a whole read. ` +
            "Read it in parts with offset and limit, or use search.",
        );
      }
      if (info.size > MAX_RANGED_BYTES) {
        throw new ToolInputError(
          "too_large",
          `${shown} is ${info.size} bytes; use search to find what you need in it.`,
        );
      }
      const bytes = await readRegularFile(real, shown, info.size);
      if (looksBinary(bytes)) {
        throw new ToolInputError(
          "binary_file",
          `${shown} is a binary file (${info.size} bytes); it cannot be read as text.`,
        );
      }
      const text = new TextDecoder().decode(bytes);
      if (text.length === 0) return `${shown} is empty.`;
      const lines = text.split(/\r?\n/);
      if (lines.at(-1) === "") lines.pop();
      const start = (input.offset ?? 1) - 1;
      if (start >= lines.length) {
        throw new ToolInputError(
          "invalid_path",
          `${shown} has ${lines.length} lines; offset ${start + 1} is past the end.`,
        );
      }
      const end = Math.min(lines.length, start + (input.limit ?? defaultLineLimit));
      const width = String(end).length;
      const out: string[] = [];
      let budget = maxTextBytes;
      let stoppedAt = end;
      for (let i = start; i < end; i++) {
        let line = lines[i]!;
        if (line.length > maxLineChars) line = `${line.slice(0, maxLineChars)}… [line cut at ${maxLineChars} chars]`;
        const rendered = `${String(i + 1).padStart(Math.max(width, 6))}\t${line}`;
        budget -= rendered.length + 1;
        if (budget < 0) {
          stoppedAt = i;
          break;
        }
        out.push(rendered);
      }
      if (stoppedAt < lines.length) {
        out.push(
          `[${shown}: showing lines ${start + 1}-${stoppedAt} of ${lines.length}; use offset=${stoppedAt + 1} to read on]`,
        );
      }
      return out.join("\n");
    },
  });
}

/** A NUL byte in the first 8 KiB, the same test git uses. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}
