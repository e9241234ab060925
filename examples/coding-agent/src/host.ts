import { realpathSync } from "node:fs";
import type { AgentTelemetryOptions } from "@heddle/agents";
import {
  createDefaultTools,
  createSession,
  createSpawnAgentTool,
  defaultToolPolicies,
  type McpConnection,
  openSession,
  type SessionRuntime,
  type SqliteSessionStore,
  withMcpTools,
} from "@heddle/core";
import type { AgentModel, AgentTool, ToolApprovalDecision, ToolApprovalRequest } from "@heddle/shared";
import type { Conventions } from "./conventions.js";
import { formatInstructions } from "./instructions.js";
import { createNestedInstructionsHooks, offeredIn } from "./nested-instructions.js";
import type { SessionStorage } from "./session-store.js";
import { createSkillTool } from "./skills.js";
import { composeSystemPrompt, type PromptParts } from "./system-prompt.js";
import { terminalLogger } from "./terminal-text.js";
import { mirrorTranscript, transcriptFile } from "./transcript.js";
import { CLAUDE_CONFIG_FILES, type ProjectConfigState, projectConfigState } from "./trust-hash.js";

/** Everything a host needs to (re)open sessions on one workspace with one model. */
export interface HostConfig {
  workspaceRoot: string;
  model: AgentModel;
  preset: "read-only" | "edit" | "full";
  maxBudgetUsd?: number;
  /** Asked when a tool's policy does not auto-approve it. Absent: such calls are denied. */
  approve?: (request: ToolApprovalRequest) => Promise<ToolApprovalDecision>;
  /** `--yes`: every call is approved (hooks see `permission_mode: "bypassPermissions"`). */
  yes?: boolean;
  /** Answers the `ask_user` tool. */
  askUser?: (question: string) => Promise<string>;
  /**
   * Asked at each session start: may the folder's own hooks (`.heddle/settings.json`, `.claude/settings*.json`) run?
   * Absent: they do not. `resolveFolderTrust` (trust.ts) is the usual answer.
   */
  trustProject?: () => Promise<boolean>;
  /** MCP servers whose tools join the built-in ones at each turn (asking first, like any unlisted tool). */
  mcp?: McpConnection;
  /** OpenTelemetry spans for every turn (`--otel`). */
  telemetry?: AgentTelemetryOptions;
  /** Which other agents' files are read: instructions, skills, Claude Code's files. */
  conventions: Conventions;
  /** Where sessions and hook transcripts are kept. */
  storage: SessionStorage;
  /** Told, once per process, about instruction files and skills that were not read (or not whole), and why. */
  notice?: (line: string) => void;
  /** Tools that come and go while the session lives (the team tools once a `/team` exists), read before each call. */
  extraTools?: () => AgentTool[];
}

/** The session's agent id: the lead of a `/team`, whose team tools only it may use. */
export const LEAD_ID = "lead";

const told = new Set<string>();

/** The system prompt a session on this workspace gets now, and where its parts came from. */
export function promptParts(config: Pick<HostConfig, "workspaceRoot" | "conventions">): PromptParts {
  return composeSystemPrompt(config.workspaceRoot, config.conventions);
}

/** Claude Code's words for the preset: hooks see it as `permission_mode`. */
function permissionMode(config: HostConfig): string {
  if (config.yes || config.preset === "full") return "bypassPermissions";
  return config.preset === "read-only" ? "plan" : "acceptEdits";
}

/** Opens `resumeId` when given, else starts a new session. */
export async function startSession(
  config: HostConfig,
  store: SqliteSessionStore,
  resumeId?: string,
): Promise<SessionRuntime> {
  const root = realpathSync(config.workspaceRoot);
  const { claude } = config.conventions;
  // A repository's hooks run with the user's rights: only in a folder the user trusts, checked at every session
  // start (a bash call may have changed the settings, or a script they run, since the last one). What was
  // trusted is this state: the config files (Claude Code's too) and every workspace file their commands name.
  const trustedState = projectConfigState(config.workspaceRoot, { claude });
  const projectTrusted = config.trustProject ? await config.trustProject() : false;
  const parts = promptParts(config);
  for (const note of parts.notes) {
    if (told.has(note)) continue;
    told.add(note);
    config.notice?.(note);
  }
  const tools = createDefaultTools({
    workspaceRoot: config.workspaceRoot,
    preset: config.preset,
    ...(config.askUser && { askUser: async (request: { question: string }) => config.askUser!(request.question) }),
    // The scripts trusted hooks run are the agent's to read, not to rewrite (like .heddle/ itself); nor may it write
    // Claude Code's settings, whose hooks the next session would run.
    protectedPaths: [...(projectTrusted ? trustedState.referencedFiles : []), ...(claude ? CLAUDE_CONFIG_FILES : [])],
  });
  if (parts.skills.length > 0) tools.push(createSkillTool(root, parts.skillFolders));
  const requestToolApproval = async (request: ToolApprovalRequest) =>
    config.approve ? config.approve(request) : { approved: false, reason: "No one is here to approve this call." };
  // With the full preset the agent may delegate a self-contained task (a check, a search) to a sub-agent.
  if (config.preset === "full") tools.push(subagentTool(config, parts));
  // Nested AGENTS.md files are offered once per session: a resumed one already has those in its transcript.
  const offered = resumeId ? offeredIn(await store.getHistory(resumeId)) : new Set<string>();
  const runsHooks = projectTrusted && trustedState.configFiles.some((file) => !file.endsWith("mcp.json"));
  const own = config.extraTools ? withExtraTools(tools, config.extraTools) : tools;
  const options = {
    store,
    model: config.model,
    agentId: LEAD_ID,
    workspaceRoot: config.workspaceRoot,
    systemPrompt: parts.prompt,
    tools: config.mcp ? withMcpTools(own, config.mcp) : own,
    ...(config.conventions.instructions && {
      hooks: createNestedInstructionsHooks({ workspaceRoot: root, conventions: config.conventions, offered }),
    }),
    // Like Claude Code, the host runs the project's own hooks from .heddle/settings.json (the SDK does not by
    // default) and Claude Code's from .claude/settings.json and .local (in Claude Code compatibility mode), once
    // the folder is trusted. Hooks get no secret-looking variables unless the settings' passEnv names them.
    // Before each hook runs, the trusted state is checked again: a script a bash call changed mid-session does
    // not run (a PreToolUse hook in .heddle/settings.json that cannot run denies its call).
    ...(projectTrusted && {
      commandHooks: {
        refuseCommand: () => changedSinceTrust(config.workspaceRoot, trustedState, claude),
        claudeSettings: claude,
        transcriptPath: (id: string | undefined) =>
          id ? transcriptFile(config.storage.transcriptsDir, id) : undefined,
        permissionMode: permissionMode(config),
      },
    }),
    // Starting a sub-agent needs no approval of its own: each tool it calls follows the same policies.
    toolPolicies: {
      ...defaultToolPolicies(config.preset),
      ...(config.preset === "full" && { spawn_agent: { enabled: true, autoApprove: true } }),
    },
    requestToolApproval,
    // A failed hook's stderr comes from the repository's script: printed sanitized.
    logger: terminalLogger,
    ...(config.maxBudgetUsd !== undefined && { maxBudgetUsd: config.maxBudgetUsd }),
    ...(config.telemetry && { telemetry: config.telemetry }),
  };
  const session = resumeId ? await openSession({ ...options, id: resumeId }) : await createSession(options);
  // Hooks read the conversation at transcript_path: kept only where hooks run.
  if (runsHooks) await mirrorTranscript(session, config.storage.transcriptsDir, root);
  return session;
}

/** The built-in tools and the changing extra ones, as one list that stays the same array while neither changes. */
function withExtraTools(tools: AgentTool[], extra: () => AgentTool[]): () => AgentTool[] {
  let last: { extra: AgentTool[]; all: AgentTool[] } | undefined;
  return () => {
    const now = extra();
    if (last?.extra !== now) last = { extra: now, all: [...tools, ...now] };
    return last.all;
  };
}

/** Why a trusted folder's hooks may no longer run: their config or a script they run changed since the trust. */
function changedSinceTrust(workspaceRoot: string, trusted: ProjectConfigState, claude: boolean): string | undefined {
  if (projectConfigState(workspaceRoot, { claude }).hash === trusted.hash) return undefined;
  return "this folder's hook settings or a script they run changed since you trusted them; restart heddle-code to be asked again";
}

/** Tools a sub-agent never gets: it does not talk to the person, and the lead's task is the lead's to submit. */
const LEAD_ONLY_TOOLS = ["ask_user", "submit_result", "todo_write"];

/**
 * `spawn_agent` over the lead's own tools. The sub-agent runs under the session's host: the lead's tool policies,
 * approver, trust decision (its hooks run only when the folder is trusted), checkpoints and limits, narrowed. It
 * follows the project's instructions too.
 */
function subagentTool(config: HostConfig, parts: PromptParts): AgentTool {
  return createSpawnAgentTool({
    model: config.model,
    excludeTools: LEAD_ONLY_TOOLS,
    systemPrompt: [
      "You are a sub-agent of heddle-code. Do the one task you are given and answer with a short report.",
      `The workspace root is ${config.workspaceRoot}; every path you use is relative to it.`,
      formatInstructions(parts.instructions),
    ]
      .filter(Boolean)
      .join("\n"),
    maxIterations: 20,
  });
}
