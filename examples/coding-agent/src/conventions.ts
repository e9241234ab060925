import { homedir } from "node:os";
import path from "node:path";

/**
 * Which of the files other coding agents read heddle-code reads too (docs/coding-agent.md, "Conventions"). All on
 * by default; each can be turned off by a flag or an environment variable.
 */
export interface Conventions {
  /** `AGENTS.md` (and, with `claude`, `CLAUDE.md`): user-level, repository root down to the workspace, nested. */
  instructions: boolean;
  /** Agent Skills (`SKILL.md`) from `.heddle/skills`, `.agents/skills` (and `.claude/skills`) and the user's folders. */
  skills: boolean;
  /** Claude Code's own files: `CLAUDE.md`, `.claude/skills`, `~/.claude/...`, and `.claude/settings*.json` hooks. */
  claude: boolean;
}

type Env = { [name: string]: string | undefined };

/** `HEDDLE_INSTRUCTIONS=0`, `HEDDLE_SKILLS=0` and `HEDDLE_CLAUDE=0` turn a convention off, like the flags. */
export function conventionsFrom(
  flags: { noInstructions?: boolean; noSkills?: boolean; noClaude?: boolean },
  env: Env = process.env,
): Conventions {
  const off = (name: string) => env[name] === "0" || env[name] === "false";
  return {
    instructions: !flags.noInstructions && !off("HEDDLE_INSTRUCTIONS"),
    skills: !flags.noSkills && !off("HEDDLE_SKILLS"),
    claude: !flags.noClaude && !off("HEDDLE_CLAUDE"),
  };
}

/** The user's home (`$HOME`, else the OS's). */
export function homeDir(env: Env = process.env): string {
  return env.HOME || homedir();
}

/** heddle-code's folder for the user's own files: `$XDG_CONFIG_HOME/heddle`, else `~/.heddle` (trust lives there too). */
export function userConfigDir(env: Env = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "heddle");
  return path.join(homeDir(env), ".heddle");
}

/** heddle-code's folder for data it keeps (sessions): `$XDG_DATA_HOME/heddle`, else `~/.local/share/heddle`. */
export function userDataDir(env: Env = process.env): string {
  const xdg = env.XDG_DATA_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "heddle");
  return path.join(homeDir(env), ".local", "share", "heddle");
}
