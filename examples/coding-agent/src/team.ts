import {
  type AgentHost,
  AgentTeamManager,
  createDefaultTools,
  createTeamTools,
  defaultToolPolicies,
  InMemoryTeamMailbox,
  type TeammateEvent,
} from "@heddle/core";
import type { AgentTool } from "@heddle/shared";
import { type HostConfig, LEAD_ID, promptParts } from "./host.js";
import { formatInstructions } from "./instructions.js";
import { CLAUDE_CONFIG_FILES, projectConfigState } from "./trust-hash.js";

/** At most this many teammates at once (the team's `limits.maxTeammates`). */
const MAX_TEAMMATES = 8;

/**
 * A team of teammates started from the CLI (`/team spawn`), on the public API: one `AgentTeamManager` whose host is
 * the lead session's (`session.host`), so every teammate runs under the lead's policy (its tool rules, approver,
 * hooks and trust) and can only narrow it, bounded by the team's limits (`--max-budget-usd` counts the whole team).
 * Teammates keep their sessions in memory and end when heddle-code does. Once a team exists the lead's model gets
 * the team tools too (`team_send_message`, `team_read_mailbox`, ...), so it can coordinate the teammates.
 */
export class CliTeam {
  readonly mailbox = new InMemoryTeamMailbox();
  #manager: AgentTeamManager | undefined;
  #leadTools: AgentTool[] = [];

  constructor(
    private readonly deps: {
      config(): HostConfig;
      /** The lead session's host, read when the team starts. */
      host(): AgentHost;
      /** One line about a teammate, for the person (a turn done, a stop). */
      announce(line: string): void;
    },
  ) {}

  /** The team tools for the lead's model: none until a team exists (the session reads this before each call). */
  tools = (): AgentTool[] => this.#leadTools;

  get started(): boolean {
    return this.#manager !== undefined;
  }

  /** Starts a teammate with a task; it runs in the background and reports to the lead's mailbox when done. */
  spawn(agentId: string, role: string, task: string): void {
    const manager = this.#ensure();
    const config = this.deps.config();
    const instructions = formatInstructions(promptParts(config).instructions);
    manager.spawn(
      {
        agentId,
        role,
        systemPrompt: [
          `You are "${agentId}", a teammate in heddle-code's team (your role: ${role}). The lead gave you a task; do it, then answer with a short report: it goes to the lead.`,
          `The workspace root is ${config.workspaceRoot}; every path you use is relative to it.`,
          instructions,
        ]
          .filter(Boolean)
          .join("\n"),
        tools: teammateTools(config),
        toolPolicies: defaultToolPolicies(config.preset),
      },
      task,
    );
  }

  /** A message from the lead (the person) to a teammate: it reaches it between its turns. */
  async send(agentId: string, text: string): Promise<void> {
    await this.#ensure().send(agentId, text, LEAD_ID);
  }

  /** Stops one teammate, or all; false when there was none to stop. */
  async stop(agentId?: string): Promise<boolean> {
    if (!this.#manager) return false;
    if (agentId !== undefined) return this.#manager.stop(agentId);
    await this.#manager.stopAll();
    return true;
  }

  /** What `/team` shows: each teammate with its role, state, turns and unread messages, and the lead's unread. */
  async lines(): Promise<string[]> {
    const manager = this.#manager;
    if (!manager || manager.status().length === 0)
      return ["no teammates (start one: /team spawn <name>[:<role>] <task>)"];
    const lines: string[] = [];
    for (const status of manager.status()) {
      const unread = (await this.mailbox.list(status.agentId)).length;
      const state = status.stopReason
        ? `stopped (${status.stopReason}${status.limit ? `: ${status.limit}` : ""})`
        : status.state;
      lines.push(
        `  ${status.agentId.padEnd(12)} ${`role ${status.role ?? "-"}`.padEnd(20)} ${state.padEnd(10)} turns ${status.turns}  unread ${unread}`,
      );
    }
    const leadUnread = (await this.mailbox.list(LEAD_ID)).length;
    const { costUsd } = manager.usage();
    lines.push(
      `  ${LEAD_ID.padEnd(12)} ${"(you and the model)".padEnd(20)} ${"".padEnd(10)} unread ${leadUnread} · team cost $${costUsd.toFixed(4)}`,
    );
    return lines;
  }

  async close(): Promise<void> {
    await this.#manager?.stopAll();
  }

  #ensure(): AgentTeamManager {
    if (this.#manager) return this.#manager;
    const config = this.deps.config();
    const manager = new AgentTeamManager({
      mailbox: this.mailbox,
      host: this.deps.host(),
      leadId: LEAD_ID,
      teamId: "cli",
      model: config.model,
      workspaceRoot: config.workspaceRoot,
      limits: {
        maxTeammates: MAX_TEAMMATES,
        ...(config.maxBudgetUsd !== undefined && { maxBudgetUsd: config.maxBudgetUsd }),
      },
    });
    manager.subscribe((event) => {
      const line = describeEvent(event);
      if (line) this.deps.announce(line);
    });
    this.#manager = manager;
    this.#leadTools = createTeamTools(manager, {
      leadId: LEAD_ID,
      include: ["team_send_message", "team_broadcast", "team_read_mailbox", "team_status", "team_shutdown"],
    });
    return manager;
  }
}

/**
 * A teammate's tools: the workspace's, without talking to the person or submitting the lead's task, and with the
 * lead's protected paths: no file tool of a teammate may write Claude Code's settings or a script the folder's hooks
 * and MCP servers run (protected whether or not the folder is trusted: a teammate cannot tell).
 */
function teammateTools(config: HostConfig): AgentTool[] {
  const { claude } = config.conventions;
  const protectedPaths = [
    ...projectConfigState(config.workspaceRoot, { claude }).referencedFiles,
    ...(claude ? CLAUDE_CONFIG_FILES : []),
  ];
  return createDefaultTools({ workspaceRoot: config.workspaceRoot, preset: config.preset, protectedPaths }).filter(
    (tool) => tool.name !== "ask_user" && tool.name !== "submit_result",
  );
}

/** A teammate's event worth a line for the person; `undefined` for the rest. */
function describeEvent(event: TeammateEvent): string | undefined {
  switch (event.type) {
    case "turn-finished": {
      const first = event.result.outputText.split("\n").find((line) => line.trim() !== "") ?? "";
      return `⇠ ${event.agentId} finished a turn (${event.result.status}): ${first.slice(0, 100)}`;
    }
    case "stopped":
      return `⇠ ${event.agentId} stopped (${event.reason}${event.limit ? `: ${event.limit}` : ""})`;
    default:
      return undefined;
  }
}
