import { type AgentTool, createTool, type ToolContext } from "@heddle/shared";
import { z } from "zod";
import { TeamError } from "./errors.js";
import { renderForLead } from "./frames.js";
import type { TeamMailboxMessage } from "./mailbox.js";
import type { TeammateSpec, TeamRoster } from "./roster.js";
import type { AgentTeamManager } from "./team-manager.js";
import { createTeamTaskTool } from "./team-task-tool.js";
import { createTeamWaitTool } from "./team-wait-tool.js";
import type { TeammateOptions } from "./teammate-types.js";

export interface TeamToolsOptions {
  /**
   * The agent these tools belong to: a call from any other agent is refused. Messages are always sent as, and the
   * mailbox read is always that of, the agent that calls the tool (its own agent id), never a name the model gives.
   */
  leadId?: string;
  /**
   * What `team_spawn` gives every new teammate besides its id, role and prompt (model, tools, ...; with a roster,
   * plain `TeammateSpec` data such as `toolNames` and `autoApproveShutdown`).
   */
  teammateDefaults?: Partial<Omit<TeammateOptions, "agentId">> | Partial<Omit<TeammateSpec, "agentId">>;
  /** Which tool names to make (default: all eight). */
  include?: ReadonlyArray<TeamToolName>;
}

export type TeamToolName =
  | "team_spawn"
  | "team_send_message"
  | "team_broadcast"
  | "team_read_mailbox"
  | "team_status"
  | "team_shutdown"
  | "team_wait"
  | "team_tasks";

/** The calling agent's id: the only sender and mailbox owner these tools know. */
function caller(ctx: ToolContext, holder: string | undefined): string {
  if (holder !== undefined && ctx.agentId !== holder)
    throw new TeamError(
      "team_invalid_input",
      `These team tools belong to "${holder}"; agent "${ctx.agentId}" may not use them.`,
    );
  return ctx.agentId;
}

/**
 * The tools a lead (or any teammate) uses to run a team through `manager`: start teammates, message one or all,
 * read its own mailbox or wait for it, see who is doing what and what it spent, share a task list, and ask a
 * teammate to shut down. With a roster, they reach teammates on every worker.
 */
export function createTeamTools(
  manager: AgentTeamManager<TeamRoster | undefined>,
  options: TeamToolsOptions = {},
): AgentTool[] {
  const holder = options.leadId;
  const others = async (self: string) =>
    (await manager.status()).filter((s) => s.agentId !== self && s.state !== "stopped").map((s) => s.agentId);

  const tools: { [K in TeamToolName]: AgentTool } = {
    team_spawn: createTool({
      name: "team_spawn",
      description:
        "Start a new teammate: a long-lived agent with its own session that works on `prompt` now and on every " +
        "message sent to it later. It tells you when each task is done (read your mailbox).",
      input: z.object({
        agent_id: z.string().regex(/^[\w-]{1,64}$/, "letters, digits, _ and - only"),
        role: z.string().optional(),
        prompt: z.string().min(1),
      }),
      execute: async (input, ctx) => {
        caller(ctx, holder);
        await manager.spawn(
          {
            ...options.teammateDefaults,
            agentId: input.agent_id,
            ...(input.role !== undefined && { role: input.role }),
          } as TeammateOptions & TeammateSpec,
          input.prompt,
        );
        return manager.roster
          ? `Recorded teammate ${input.agent_id}; a worker starts it.`
          : `Started teammate ${input.agent_id}.`;
      },
    }),
    team_send_message: createTool({
      name: "team_send_message",
      description: "Send a message to one teammate. A busy teammate reads it when its current turn ends.",
      input: z.object({ to: z.string().min(1), text: z.string().min(1) }),
      execute: async (input, ctx) => {
        const sent = await manager.send(input.to, input.text, caller(ctx, holder));
        return `Sent message ${sent.id} to ${input.to}.`;
      },
    }),
    team_broadcast: createTool({
      name: "team_broadcast",
      description: "Send the same message to every running teammate.",
      input: z.object({ text: z.string().min(1) }),
      execute: async (input, ctx) => {
        const self = caller(ctx, holder);
        const to = await others(self);
        for (const agentId of to) await manager.send(agentId, input.text, self);
        return to.length === 0 ? "No running teammates." : `Sent to ${to.join(", ")}.`;
      },
    }),
    team_read_mailbox: createTool({
      name: "team_read_mailbox",
      description: "Read (and take) every new message in your mailbox: replies, task notifications, approvals.",
      input: z.object({}),
      readOnly: false,
      execute: async (_input, ctx) => {
        const self = caller(ctx, holder);
        const taken: TeamMailboxMessage[] = [];
        for (let m = await manager.mailbox.dequeue(self); m; m = await manager.mailbox.dequeue(self)) taken.push(m);
        return renderForLead(taken);
      },
    }),
    team_status: createTool({
      name: "team_status",
      description:
        "List the teammates with their state (waiting, running, idle, stopped), the worker each runs on, unread " +
        "message counts, and the team's usage (turns, tokens, cost).",
      input: z.object({}),
      readOnly: true,
      execute: async (_input, ctx) => {
        caller(ctx, holder);
        const rows = await Promise.all(
          (await manager.status()).map(async (s) => ({ ...s, unread: (await manager.mailbox.list(s.agentId)).length })),
        );
        if (rows.length === 0) return "No teammates yet.";
        return JSON.stringify({ teammates: rows, usage: await manager.usage() }, null, 2);
      },
    }),
    team_shutdown: createTool({
      name: "team_shutdown",
      description: "Ask a teammate to finish and shut down. It answers with shutdown_approved in your mailbox.",
      input: z.object({ agent_id: z.string().min(1), reason: z.string().optional() }),
      execute: async (input, ctx) => {
        const self = caller(ctx, holder);
        if (self !== manager.leadId)
          throw new TeamError(
            "team_invalid_input",
            `Only the lead ("${manager.leadId}") may ask a teammate to shut down.`,
          );
        await manager.requestShutdown(input.agent_id, self, input.reason);
        return `Asked ${input.agent_id} to shut down.`;
      },
    }),
    team_wait: createTeamWaitTool(manager.mailbox, (ctx) => caller(ctx as ToolContext, holder)),
    team_tasks: createTeamTaskTool(
      () => manager.tasks,
      (ctx) => caller(ctx as ToolContext, holder),
    ),
  };
  const names = options.include ?? (Object.keys(tools) as TeamToolName[]);
  return names.map((name) => tools[name]);
}
