import { readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { fileKind, readRegularFileSync, type Skill, ToolInputError } from "@heddle/core/tools";
import type { AgentTool } from "@heddle/shared";
import { type Conventions, homeDir, userConfigDir } from "./conventions.js";
import { parseSkillFrontMatter } from "./front-matter.js";

/**
 * Agent Skills (agentskills.io): a folder with a `SKILL.md` whose front matter has a `name` (lowercase letters,
 * digits and single hyphens, at most 64 characters) and a `description` (at most 1024 characters). heddle-code lists
 * each skill's name and description in the system prompt and loads its body with the `load_skill` tool when the model
 * asks. Folders, in order (the first skill of a name wins): the workspace's `.heddle/skills`, `.agents/skills`,
 * `.claude/skills`, then the user's `$XDG_CONFIG_HOME/heddle/skills` (else `~/.heddle/skills`), `~/.agents/skills`,
 * `~/.claude/skills`. A malformed skill is reported and skipped, never fatal. A project skill must resolve inside
 * the workspace (a symlink out of it is refused) and be a regular file; sizes are bounded.
 */

const MAX_SKILL_BYTES = 256 * 1024;
const MAX_SKILLS_PER_FOLDER = 100;
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface SkillFolder {
  /** As shown: relative to the workspace, or `~/...`. */
  shown: string;
  dir: string;
  scope: "project" | "user";
}

export interface SkillScan {
  skills: Skill[];
  /** One line per skill that was skipped, with why. */
  problems: string[];
}

type Env = { [name: string]: string | undefined };

/** The skill folders heddle-code reads, in order. */
export function skillFolders(workspaceRoot: string, conventions: Conventions, env: Env = process.env): SkillFolder[] {
  if (!conventions.skills) return [];
  const home = homeDir(env);
  const tilde = (dir: string) => (dir.startsWith(`${home}${path.sep}`) ? `~${dir.slice(home.length)}` : dir);
  const project = [".heddle/skills", ".agents/skills", ...(conventions.claude ? [".claude/skills"] : [])];
  const user = [
    path.join(userConfigDir(env), "skills"),
    path.join(home, ".agents", "skills"),
    ...(conventions.claude ? [path.join(home, ".claude", "skills")] : []),
  ];
  return [
    ...project.map((dir) => ({ shown: dir, dir: path.join(workspaceRoot, dir), scope: "project" as const })),
    ...user.map((dir) => ({ shown: tilde(dir), dir, scope: "user" as const })),
  ];
}

/** Every well-formed skill of `folders`, and why each other one was skipped. */
export function scanSkills(workspaceRoot: string, folders: readonly SkillFolder[]): SkillScan {
  const skills: Skill[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const workspace = realpathSync(workspaceRoot);
  for (const folder of folders) {
    let entries: string[];
    try {
      entries = readdirSync(folder.dir).sort();
    } catch {
      continue;
    }
    for (const entry of entries.slice(0, MAX_SKILLS_PER_FOLDER)) {
      const shown = `${folder.shown}/${entry}/SKILL.md`;
      const read = readSkillFile(
        path.join(folder.dir, entry, "SKILL.md"),
        shown,
        folder.scope === "project" ? workspace : undefined,
      );
      if (read === undefined) continue;
      if ("problem" in read) {
        problems.push(`${shown}: ${read.problem}`);
        continue;
      }
      const checked = checkFrontMatter(read.text);
      if ("problem" in checked) {
        problems.push(`${shown}: ${checked.problem}`);
        continue;
      }
      const earlier = seen.get(checked.name);
      if (earlier !== undefined) {
        problems.push(`${shown}: a skill named "${checked.name}" is already in ${earlier}; this one is not used`);
        continue;
      }
      seen.set(checked.name, shown);
      skills.push({
        name: checked.name,
        description: checked.description,
        dir: path.dirname(read.real),
        file: read.real,
      });
    }
    if (entries.length > MAX_SKILLS_PER_FOLDER)
      problems.push(`${folder.shown}: only the first ${MAX_SKILLS_PER_FOLDER} skills are read`);
  }
  return { skills, problems };
}

/** A SKILL.md's text, or why it cannot be used; `undefined` when the folder has none. */
function readSkillFile(
  file: string,
  shown: string,
  confine: string | undefined,
): { text: string; real: string } | { problem: string } | undefined {
  let real: string;
  try {
    real = realpathSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? undefined : { problem: `unreadable (${code})` };
  }
  if (confine !== undefined) {
    const rel = path.relative(confine, real);
    if (rel.startsWith("..") || path.isAbsolute(rel))
      return { problem: `a link to ${real}, outside the workspace: not read` };
  }
  const info = statSync(real);
  if (!info.isFile()) return { problem: `${fileKind(info)}, not a regular file: not read` };
  if (info.size > MAX_SKILL_BYTES) return { problem: `larger than 256 KiB: not read` };
  try {
    return { text: readRegularFileSync(real, shown, MAX_SKILL_BYTES).toString("utf8"), real };
  } catch (error) {
    return { problem: `unreadable (${(error as { code?: string }).code ?? (error as Error).message})` };
  }
}

/** The name and description the Agent Skills format requires, or what is wrong with them. */
export function checkFrontMatter(text: string): { name: string; description: string } | { problem: string } {
  const parsed = parseSkillFrontMatter(text);
  if (!parsed) return { problem: "no front matter (a --- block with name and description): skipped" };
  const name = parsed.fields.name?.trim();
  const description = parsed.fields.description?.trim();
  if (!name) return { problem: "the front matter has no name: skipped" };
  if (name.length > 64 || !NAME.test(name))
    return {
      problem: `the name "${name.slice(0, 80)}" is not lowercase letters, digits and single hyphens (at most 64): skipped`,
    };
  if (!description)
    return { problem: "the front matter has no description (the model would not know when to use it): skipped" };
  if (description.length > 1024) return { problem: "the description is longer than 1024 characters: skipped" };
  return { name, description };
}

/** `load_skill {name}`: the body of one listed skill, read again when asked (under the same checks). */
export function createSkillTool(
  workspaceRoot: string,
  folders: readonly SkillFolder[],
): AgentTool<{ name: string }, string> {
  return {
    name: "load_skill",
    description:
      "Load a skill's instructions by name (the skills are listed in the system prompt). Read them before doing the task they cover.",
    inputSchema: {
      type: "object",
      properties: { name: { type: "string", minLength: 1, description: "The skill's name, as listed." } },
      required: ["name"],
      additionalProperties: false,
    },
    readOnly: true,
    async execute(input) {
      const { skills } = scanSkills(workspaceRoot, folders);
      const skill = skills.find((candidate) => candidate.name === input.name);
      if (!skill) {
        const names = skills.map((candidate) => candidate.name).join(", ") || "none";
        throw new ToolInputError("unknown_skill", `No skill named ${JSON.stringify(input.name)}. Available: ${names}.`);
      }
      const text = readRegularFileSync(skill.file, skill.file, MAX_SKILL_BYTES).toString("utf8");
      const body = parseSkillFrontMatter(text)?.body ?? text;
      const where = path.relative(workspaceRoot, skill.dir);
      const shownDir = where.startsWith("..") || path.isAbsolute(where) ? skill.dir : where;
      return `Skill "${skill.name}" (its other files are in ${shownDir}):\n\n${body.trim()}`;
    },
  };
}
