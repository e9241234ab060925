import { formatSkillsForPrompt, type Skill } from "@heddle/core/tools";
import type { Conventions } from "./conventions.js";
import { formatInstructions, type InstructionFile, loadProjectInstructions } from "./instructions.js";
import { type SkillFolder, scanSkills, skillFolders } from "./skills.js";

/** What a session's system prompt is made of, so `--show-system-prompt` and `/system-prompt` can say. */
export interface PromptParts {
  prompt: string;
  instructions: InstructionFile[];
  skills: Skill[];
  skillFolders: SkillFolder[];
  /** What was not read, or not whole, and why: instruction files and skills. */
  notes: string[];
}

export function basePrompt(workspaceRoot: string): string {
  return [
    "You are heddle-code, a careful coding agent working in a user's project.",
    `The workspace root is ${workspaceRoot}; every path you use is relative to it.`,
    "Read before you edit; make small, exact edits; run the project's tests with bash to check your work.",
    "When the task is done, call submit_result once with a short summary of what you changed.",
  ].join("\n");
}

/**
 * The system prompt of a session on `workspaceRoot`: the base lines, the project instructions (instructions.ts),
 * and the list of skills (skills.ts). Read from the files each time a session starts or is resumed.
 */
export function composeSystemPrompt(
  workspaceRoot: string,
  conventions: Conventions,
  env: { [name: string]: string | undefined } = process.env,
): PromptParts {
  const instructions = loadProjectInstructions(workspaceRoot, conventions, env);
  const folders = skillFolders(workspaceRoot, conventions, env);
  const scan = scanSkills(workspaceRoot, folders);
  const nested =
    conventions.instructions && instructions.files.length > 0
      ? "AGENTS.md files in folders below the workspace are given to you when you first work in those folders."
      : "";
  const prompt = [
    basePrompt(workspaceRoot),
    formatInstructions(instructions.files),
    nested,
    formatSkillsForPrompt(scan.skills),
  ]
    .filter(Boolean)
    .join("\n\n");
  return {
    prompt,
    instructions: instructions.files,
    skills: scan.skills,
    skillFolders: folders,
    notes: [...instructions.notes, ...scan.problems.map((problem) => `skill ${problem}`)],
  };
}

/** What `--show-system-prompt` and `/system-prompt` print: where each part came from, then the prompt itself. */
export function describePrompt(parts: PromptParts): string[] {
  const lines: string[] = [];
  lines.push(
    parts.instructions.length === 0
      ? "instructions: none found (AGENTS.md, CLAUDE.md)"
      : `instructions (most general first): ${parts.instructions
          .map((file) => `${file.shown}${file.truncated ? " (cut)" : ""}`)
          .join(", ")}`,
  );
  lines.push(
    parts.skills.length === 0 ? "skills: none found" : `skills: ${parts.skills.map((skill) => skill.name).join(", ")}`,
  );
  for (const note of parts.notes) lines.push(`note: ${note}`);
  lines.push("--- system prompt ---", parts.prompt, "--- end of system prompt ---");
  return lines;
}
