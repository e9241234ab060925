import type { AgentTelemetryOptions } from "@heddle/agents";
import {
  createDefaultTools,
  createSession,
  createSpawnAgentTool,
  defaultSessionDbPath,
  defaultToolPolicies,
  type McpConnection,
  openSession,
  type SessionRuntime,
  SqliteSessionStore,
  withMcpTools,
} from "@heddle/core";
import type { AgentModel, AgentTool, ToolApprovalDecision, ToolApprovalRequest } from "@heddle/shared";
import { terminalLogger } from "./terminal-text.js";
import { type ProjectConfigState, projectConfigState } from "./trust-hash.js";

/** Everything a host needs to (re)open sessions on one workspace with one model. */
export interface HostConfig {
  workspaceRoot: string;
  model: AgentModel;
  preset: "read-only" | "edit" | "full";
  maxBudgetUsd?: number;
  /** Asked when a tool's policy does not auto-approve it. Absent: such calls are denied. */
  approve?: (request: ToolApprovalRequest) => Promise<ToolApprovalDecision>;
  /** Answers the `ask_user` tool. */
  askUser?: (question: string) => Promise<string>;
  /**
   * Asked at each session start: may the folder's own hooks (`.heddle/settings.json`) run? Absent: they do not.
   * `resolveFolderTrust` (trust.ts) is the usual answer.
   */
  trustProject?: () => Promise<boolean>;
  /** MCP servers whose tools join the built-in ones at each turn (asking first, like any unlisted tool). */
  mcp?: McpConnection;
  /** OpenTelemetry spans for every turn (`--otel`). */
  telemetry?: AgentTelemetryOptions;
}

export function systemPrompt(workspaceRoot: string): string {
  return [
    "You are heddle-code, a careful coding agent working in a user's project.",
    `The workspace root is ${workspaceRoot}; every path you use is relative to it.`,
    "Read before you edit; make small, exact edits; run the project's tests with bash to check your work.",
    "When the task is done, call submit_result once with a short summary of what you changed.",
  ].join("\n");
}

/** The session store for a workspace: `.heddle/sessions.db` under it. */
export function openStore(workspaceRoot: string): SqliteSessionStore {
  return new SqliteSessionStore({ path: defaultSessionDbPath(workspaceRoot) });
}

/** Opens `resumeId` when given, else starts a new session. */
export async function startSession(
  config: HostConfig,
  store: SqliteSessionStore,
  resumeId?: string,
): Promise<SessionRuntime> {
  // A repository's hooks run with the user's rights: only in a folder the user trusts, checked at every session
  // start (a bash call may have changed the settings, or a script they run, since the last one). What was
  // trusted is this state: the config files and every workspace file their commands name.
  const trustedState = projectConfigState(config.workspaceRoot);
  const projectTrusted = config.trustProject ? await config.trustProject() : false;
  const tools = createDefaultTools({
    workspaceRoot: config.workspaceRoot,
    preset: config.preset,
    ...(config.askUser && { askUser: async (request: { question: string }) => config.askUser!(request.question) }),
    // The scripts trusted hooks run are the agent's to read, not to rewrite (like .heddle/ itself).
    ...(projectTrusted && { protectedPaths: trustedState.referencedFiles }),
  });
  const requestToolApproval = async (request: ToolApprovalRequest) =>
    config.approve ? config.approve(request) : { approved: false, reason: "No one is here to approve this call." };
  // With the full preset the agent may delegate a self-contained task (a check, a search) to a sub-agent.
  if (config.preset === "full") tools.push(subagentTool(config));
  const options = {
    store,
    model: config.model,
    workspaceRoot: config.workspaceRoot,
    systemPrompt: systemPrompt(config.workspaceRoot),
    tools: config.mcp ? withMcpTools(tools, config.mcp) : tools,
    // Like Claude Code, the host runs the project's own hooks from .heddle/settings.json (the SDK does not by
    // default), once the folder is trusted. Hooks get no secret-looking variables unless the settings' passEnv
    // names them.
    // Before each hook runs, the trusted state is checked again: a script a bash call changed mid-session does
    // not run (a PreToolUse hook that cannot run denies its call).
    ...(projectTrusted && {
      commandHooks: { refuseCommand: () => changedSinceTrust(config.workspaceRoot, trustedState) },
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
  if (resumeId) return openSession({ ...options, id: resumeId });
  return createSession(options);
}

/** Why a trusted folder's hooks may no longer run: their config or a script they run changed since the trust. */
function changedSinceTrust(workspaceRoot: string, trusted: ProjectConfigState): string | undefined {
  if (projectConfigState(workspaceRoot).hash === trusted.hash) return undefined;
  return "this folder's hook settings or a script they run changed since you trusted them; restart heddle-code to be asked again";
}

/** Tools a sub-agent never gets: it does not talk to the person, and the lead's task is the lead's to submit. */
const LEAD_ONLY_TOOLS = ["ask_user", "submit_result", "todo_write"];

/**
 * `spawn_agent` over the lead's own tools. The sub-agent runs under the session's host: the lead's tool policies,
 * approver, trust decision (its hooks run only when the folder is trusted), checkpoints and limits, narrowed.
 */
function subagentTool(config: HostConfig): AgentTool {
  return createSpawnAgentTool({
    model: config.model,
    excludeTools: LEAD_ONLY_TOOLS,
    systemPrompt: [
      "You are a sub-agent of heddle-code. Do the one task you are given and answer with a short report.",
      `The workspace root is ${config.workspaceRoot}; every path you use is relative to it.`,
    ].join("\n"),
    maxIterations: 20,
  });
}
