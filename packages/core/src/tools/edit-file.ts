import { stat } from "node:fs/promises";
import { type AgentTool, createTool } from "@heddle/shared";
import { createTwoFilesPatch } from "diff";
import { z } from "zod";
import { ToolInputError, type Workspace, writeFileAtomic } from "../workspace/index.js";
import { looksBinary } from "./read-file.js";
import { assertRegularFile, readRegularFile } from "./regular-file.js";
import type { WriteCheckpointer } from "./write-file.js";

const inputSchema = z.object({
  path: z.string().describe("File path, relative to the workspace root."),
  old_text: z.string().min(1).describe("Exact text to replace, including whitespace; must occur once."),
  new_text: z.string().describe("The replacement text."),
  replace_all: z.boolean().optional().describe("Replace every occurrence instead of requiring exactly one."),
});

/**
 * `edit_file {path, old_text, new_text, replace_all?}`: an exact replacement. `old_text` must occur once unless
 * `replace_all`; when it does not occur, the error shows the closest lines so the model can fix its copy.
 */
export function createEditFileTool(workspace: Workspace, checkpointer?: WriteCheckpointer): AgentTool {
  return createTool({
    name: "edit_file",
    description:
      "Replace exact text in a file. old_text must match the file exactly (whitespace included) and occur " +
      "once; include surrounding lines to make it unique, or set replace_all. Returns a unified diff.",
    input: inputSchema,
    async execute(input, ctx) {
      if (input.old_text === input.new_text) {
        throw new ToolInputError("no_change", "old_text and new_text are the same; nothing would change.");
      }
      const real = await workspace.resolveWritable(input.path);
      const shown = workspace.display(real);
      const info = await stat(real).catch(() => undefined);
      if (!info) throw new ToolInputError("not_found", `File not found: ${shown}. Use write_file to create a file.`);
      if (info.isDirectory()) throw new ToolInputError("is_directory", `${shown} is a directory, not a file.`);
      assertRegularFile(info, shown);
      const bytes = await readRegularFile(real, shown);
      if (looksBinary(bytes))
        throw new ToolInputError("binary_file", `${shown} is a binary file; it cannot be edited as text.`);
      const before = bytes.toString("utf8");

      let oldText = input.old_text;
      let newText = input.new_text;
      // Models write "\n"; a CRLF file keeps its line endings.
      if (!before.includes(oldText) && before.includes("\r\n") && !oldText.includes("\r\n")) {
        oldText = oldText.replace(/\n/g, "\r\n");
        newText = newText.replace(/\n/g, "\r\n");
      }
      const positions = findAll(before, oldText);
      if (positions.length === 0) throw new ToolInputError("no_match", noMatchMessage(shown, before, input.old_text));
      if (positions.length > 1 && !input.replace_all) {
        const lines = positions.map((index) => lineOf(before, index));
        throw new ToolInputError(
          "not_unique",
          `old_text occurs ${positions.length} times in ${shown} (at lines ${lines.join(", ")}). Include more ` +
            "surrounding lines so it matches exactly one place, or set replace_all to change every occurrence.",
        );
      }
      const after = input.replace_all
        ? before.split(oldText).join(newText)
        : replaceAt(before, positions[0]!, oldText, newText);
      await checkpointer?.beforeWrite(real, ctx);
      await writeFileAtomic(real, after);
      const patch = createTwoFilesPatch(`a/${shown}`, `b/${shown}`, before, after, undefined, undefined, {
        context: 3,
      });
      const count = input.replace_all ? positions.length : 1;
      return `Edited ${shown} (${count} replacement${count === 1 ? "" : "s"}).\n${patch.replace(/^=+\n/m, "")}`;
    },
  });
}

function findAll(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    found.push(index);
  }
  return found;
}

function replaceAt(text: string, index: number, oldText: string, newText: string): string {
  return text.slice(0, index) + newText + text.slice(index + oldText.length);
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Past this many file lines, closeness is judged on exact trimmed lines only, to stay cheap. */
const FUZZY_LINE_LIMIT = 5000;

/** The error for a missing old_text: the file's window of lines most like it, numbered, so the model can copy it. */
function noMatchMessage(shown: string, text: string, oldText: string): string {
  const fileLines = text.split(/\r?\n/);
  const wanted = oldText.split(/\r?\n/);
  const span = Math.min(wanted.length, fileLines.length);
  const fuzzy = fileLines.length <= FUZZY_LINE_LIMIT;
  let best = { start: 0, score: -1 };
  for (let start = 0; start + span <= fileLines.length; start++) {
    let score = 0;
    for (let i = 0; i < span; i++) {
      const a = fileLines[start + i]!.trim();
      const b = wanted[i]!.trim();
      score += a === b ? 1 : fuzzy ? similarity(a, b) : 0;
    }
    if (score > best.score) best = { start, score };
  }
  const head = `old_text was not found in ${shown}; it must match exactly, whitespace included.`;
  if (best.score <= 0) return `${head} Nothing in the file looks like it: read the file again before editing.`;
  const from = Math.max(0, best.start - 1);
  const to = Math.min(fileLines.length, best.start + span + 1);
  const width = String(to).length;
  const excerpt = fileLines
    .slice(from, to)
    .map((line, i) => `${String(from + i + 1).padStart(width)}\t${line}`)
    .join("\n");
  const same = best.score === span ? " These lines differ from old_text only in indentation or line endings." : "";
  return `${head}${same} The closest lines are ${best.start + 1}-${best.start + span}:\n${excerpt}`;
}

/** Dice coefficient of character bigrams: 1 for equal strings, near 0 for unrelated ones. */
function similarity(a: string, b: string): number {
  if (a.length < 2 || b.length < 2) return a === b ? 1 : 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const gram = a.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const gram = b.slice(i, i + 2);
    const count = grams.get(gram) ?? 0;
    if (count > 0) {
      shared++;
      grams.set(gram, count - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}
