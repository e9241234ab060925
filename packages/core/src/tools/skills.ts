import { readdir } from "node:fs/promises";
import path from "node:path";
import { type AgentTool, createTool } from "@heddle/shared";
import { z } from "zod";
import { ToolInputError } from "../workspace/index.js";
import { readRegularFile } from "./regular-file.js";

const MAX_SKILL_BYTES = 1024 * 1024;
/** A SKILL.md that is a FIFO or a device is skipped instead of blocking the read. */
const readSkill = (file: string) =>
  readRegularFile(file, file, MAX_SKILL_BYTES).then((bytes) => bytes.toString("utf8"));

/** A skill: a folder with a `SKILL.md` whose front matter gives its name and description. */
export interface Skill {
  name: string;
  description: string;
  /** The skill's folder (absolute). */
  dir: string;
  /** Its `SKILL.md` (absolute). */
  file: string;
}

/**
 * Every skill in `dirs` (absolute, or relative to `baseDir`): each `<dir>/<folder>/SKILL.md`. The name comes
 * from the front matter (`name:`), else the folder; the first skill of a name wins. Missing dirs are skipped.
 */
export async function listSkills(dirs: readonly string[], baseDir = process.cwd()): Promise<Skill[]> {
  const skills: Skill[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    const root = path.resolve(baseDir, dir);
    const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!entry.isDirectory()) continue;
      const file = path.join(root, entry.name, "SKILL.md");
      const text = await readSkill(file).catch(() => undefined);
      if (text === undefined) continue;
      const { fields } = parseFrontMatter(text);
      const name = fields.name || entry.name;
      if (seen.has(name)) continue;
      seen.add(name);
      skills.push({ name, description: fields.description ?? "", dir: path.join(root, entry.name), file });
    }
  }
  return skills;
}

/** The lines a system prompt lists skills with, so the model knows what `load_skill` can load. */
export function formatSkillsForPrompt(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  const lines = skills.map((skill) => `- ${skill.name}: ${skill.description || "(no description)"}`);
  return `Skills you can load with the load_skill tool when a task needs one:\n${lines.join("\n")}`;
}

/** `---` front matter of simple `key: value` lines (the subset SKILL.md files use), and the body after it. */
export function parseFrontMatter(text: string): { fields: { [key: string]: string }; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { fields: {}, body: text };
  const fields: { [key: string]: string } = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    const pair = /^([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(line);
    if (!pair) continue;
    let value = pair[2]!.trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0])
      value = value.slice(1, -1);
    fields[pair[1]!] = value;
  }
  return { fields, body: text.slice(match[0].length) };
}

const inputSchema = z.object({ name: z.string().min(1).describe("The skill's name, as listed.") });

/** `load_skill {name}`: the instructions of one skill, read when the model asks for it. */
export function createLoadSkillTool(skillsDirs: readonly string[], baseDir: string): AgentTool {
  return createTool({
    name: "load_skill",
    description:
      "Load a skill's instructions by name (skills are listed in the system prompt). Read them before doing the task they cover.",
    input: inputSchema,
    readOnly: true,
    async execute(input) {
      const skills = await listSkills(skillsDirs, baseDir);
      const skill = skills.find((candidate) => candidate.name === input.name);
      if (!skill) {
        const names = skills.map((candidate) => candidate.name).join(", ") || "none";
        throw new ToolInputError("unknown_skill", `No skill named ${JSON.stringify(input.name)}. Available: ${names}.`);
      }
      const { body } = parseFrontMatter(await readSkill(skill.file));
      return `Skill "${skill.name}" (files in ${skill.dir}):\n\n${body.trim()}`;
    },
  });
}
