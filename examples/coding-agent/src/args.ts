import { parseArgs } from "node:util";
import { type Conventions, conventionsFrom } from "./conventions.js";

/** The command line, parsed and checked. */
export interface CliOptions {
  demo: boolean;
  interactive: boolean;
  print?: string;
  json: boolean;
  resume?: string;
  preset: "read-only" | "edit" | "full";
  maxBudgetUsd?: number;
  provider?: string;
  model?: string;
  /** `--base-url`: the provider's API root (a self-hosted or OpenAI-compatible server). */
  baseUrl?: string;
  cwd: string;
  /** `--cwd` was given (the demo then runs there instead of in a fresh copy of the sample project). */
  cwdGiven: boolean;
  /** `--trust`: run this folder's hooks and MCP servers without asking (this run only). */
  trust: boolean;
  yes: boolean;
  help: boolean;
  /** An MCP config file the user names (always read). */
  mcpConfig?: string;
  /** `--otel` (or `HEDDLE_OTEL=1`): export OpenTelemetry spans over OTLP/HTTP (`OTEL_EXPORTER_OTLP_*` configure it). */
  otel: boolean;
  /** `-v`, `--version`. */
  version: boolean;
  /** Which other agents' files are read (`--no-instructions`, `--no-skills`, `--no-claude`, or `HEDDLE_*=0`). */
  conventions: Conventions;
  /** `--sessions-in-project` (or `HEDDLE_SESSIONS=project`): sessions in `.heddle/sessions.db`, not the user's folder. */
  sessionsInProject: boolean;
  /** `--show-system-prompt`: print the system prompt a session here would get, and where it came from; then exit. */
  showSystemPrompt: boolean;
}

/** A bad command line: the message says which flag and what it accepts. */
export class UsageError extends Error {
  override name = "UsageError";
}

const PRESETS = ["read-only", "edit", "full"] as const;

export const HELP = `heddle-code: a coding agent in your terminal, built on Heddle (package @heddle/code; the
\`heddle\` command is the same program).

Usage:
  heddle-code                      interactive session in the current folder
  heddle-code -p "task"            print mode: run one task, print the answer, exit (0 completed, 1 otherwise)
  heddle-code --demo               offline demo: a scripted demo model fixes a bug in a sample project

Options:
  -p, --print <task>        run one task non-interactively
      --json                with -p: one JSON event per line on stdout
      --resume <id>         continue a stored session
      --preset <name>       read-only | edit | full (default: edit; the demo uses full)
      --max-budget-usd <n>  stop a turn once it has cost this much
      --provider <id>       anthropic | openai | openai-chat | gemini | ollama | openrouter | ...
      --model <id>          model id for the provider
      --base-url <url>      the provider's API root, e.g. http://localhost:8000/v1 (without --provider:
                            openai-compatible, which then needs --model)
      --cwd <dir>           the workspace (default: the current folder; with --demo, instead of a sample copy)
      --trust               run this folder's .heddle hooks and MCP servers without asking (this run only);
                            otherwise heddle-code asks once per folder (print mode: they stay off)
  -y, --yes                 approve every tool call without asking
      --mcp-config <file>   MCP servers from this file ({"mcpServers": {...}}, \${VAR} expanded)
      --otel                export OpenTelemetry traces over OTLP/HTTP (also HEDDLE_OTEL=1; the endpoint from
                            OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318)
      --no-instructions     do not read AGENTS.md / CLAUDE.md (also HEDDLE_INSTRUCTIONS=0)
      --no-skills           do not read Agent Skills (SKILL.md) (also HEDDLE_SKILLS=0)
      --no-claude           do not read Claude Code's files: CLAUDE.md, .claude/skills, .claude/settings*.json
                            hooks (also HEDDLE_CLAUDE=0)
      --show-system-prompt  print the system prompt a session here gets (instructions, skills) and exit
      --sessions-in-project keep sessions in .heddle/sessions.db in the project (also HEDDLE_SESSIONS=project);
                            by default they are kept in ~/.local/share/heddle/sessions/ ($XDG_DATA_HOME)
  -i, --interactive         with --demo: open the interactive session on the demo model
  -v, --version             the version
  -h, --help                this text
`;

/** Parses argv (without node and the script). */
export function parseCliArgs(argv: string[], cwd = process.cwd()): CliOptions {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: false,
      options: {
        demo: { type: "boolean", default: false },
        interactive: { type: "boolean", short: "i", default: false },
        print: { type: "string", short: "p" },
        json: { type: "boolean", default: false },
        resume: { type: "string" },
        preset: { type: "string" },
        "max-budget-usd": { type: "string" },
        provider: { type: "string" },
        model: { type: "string" },
        "base-url": { type: "string" },
        cwd: { type: "string" },
        trust: { type: "boolean", default: false },
        yes: { type: "boolean", short: "y", default: false },
        help: { type: "boolean", short: "h", default: false },
        "mcp-config": { type: "string" },
        otel: { type: "boolean", default: false },
        version: { type: "boolean", short: "v", default: false },
        "no-instructions": { type: "boolean", default: false },
        "no-skills": { type: "boolean", default: false },
        "no-claude": { type: "boolean", default: false },
        "show-system-prompt": { type: "boolean", default: false },
        "sessions-in-project": { type: "boolean", default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  const preset = (v.preset as string | undefined) ?? (v.demo ? "full" : "edit");
  if (!PRESETS.includes(preset as (typeof PRESETS)[number])) {
    throw new UsageError(`--preset must be one of ${PRESETS.join(", ")} (got "${preset}")`);
  }
  let maxBudgetUsd: number | undefined;
  if (v["max-budget-usd"] !== undefined) {
    maxBudgetUsd = Number(v["max-budget-usd"]);
    if (!Number.isFinite(maxBudgetUsd) || maxBudgetUsd <= 0) {
      throw new UsageError(`--max-budget-usd must be a positive number (got "${v["max-budget-usd"]}")`);
    }
  }
  const baseUrl = v["base-url"] as string | undefined;
  if (baseUrl !== undefined && !/^https?:\/\/\S+$/.test(baseUrl))
    throw new UsageError(`--base-url must be an http(s) URL (got "${baseUrl}")`);
  if (v.json && v.print === undefined && !v.demo) throw new UsageError("--json works with -p/--print (or --demo)");
  return {
    demo: Boolean(v.demo),
    interactive: Boolean(v.interactive),
    ...(typeof v.print === "string" && { print: v.print }),
    json: Boolean(v.json),
    ...(typeof v.resume === "string" && { resume: v.resume }),
    preset: preset as CliOptions["preset"],
    ...(maxBudgetUsd !== undefined && { maxBudgetUsd }),
    ...(typeof v.provider === "string" && { provider: v.provider }),
    ...(typeof v.model === "string" && { model: v.model }),
    ...(baseUrl !== undefined && { baseUrl }),
    cwd: typeof v.cwd === "string" ? v.cwd : cwd,
    cwdGiven: typeof v.cwd === "string",
    trust: Boolean(v.trust),
    yes: Boolean(v.yes),
    help: Boolean(v.help),
    ...(typeof v["mcp-config"] === "string" && { mcpConfig: v["mcp-config"] }),
    otel: Boolean(v.otel) || process.env.HEDDLE_OTEL === "1",
    version: Boolean(v.version),
    conventions: conventionsFrom({
      noInstructions: Boolean(v["no-instructions"]),
      noSkills: Boolean(v["no-skills"]),
      noClaude: Boolean(v["no-claude"]),
    }),
    sessionsInProject: Boolean(v["sessions-in-project"]) || process.env.HEDDLE_SESSIONS === "project",
    showSystemPrompt: Boolean(v["show-system-prompt"]),
  };
}
