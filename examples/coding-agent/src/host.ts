import {
  createDefaultTools,
  createSession,
  defaultSessionDbPath,
  defaultToolPolicies,
  type McpConnection,
  openSession,
  type SessionRuntime,
  SqliteSessionStore,
  withMcpTools,
} from "@heddle/core";
import type { AgentModel, ToolApprovalDecision, ToolApprovalRequest } from "@heddle/shared";

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
  /** MCP servers whose tools join the built-in ones at each turn (asking first, like any unlisted tool). */
  mcp?: McpConnection;
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
  const tools = createDefaultTools({
    workspaceRoot: config.workspaceRoot,
    preset: config.preset,
    ...(config.askUser && { askUser: async (request: { question: string }) => config.askUser!(request.question) }),
  });
  const options = {
    store,
    model: config.model,
    workspaceRoot: config.workspaceRoot,
    systemPrompt: systemPrompt(config.workspaceRoot),
    tools: config.mcp ? withMcpTools(tools, config.mcp) : tools,
    // Like Claude Code, the host runs the project's own hooks from .heddle/settings.json (the SDK does not by default).
    commandHooks: {},
    toolPolicies: defaultToolPolicies(config.preset),
    requestToolApproval: async (request: ToolApprovalRequest) =>
      config.approve ? config.approve(request) : { approved: false, reason: "No one is here to approve this call." },
    ...(config.maxBudgetUsd !== undefined && { maxBudgetUsd: config.maxBudgetUsd }),
  };
  if (resumeId) return openSession({ ...options, id: resumeId });
  return createSession(options);
}
