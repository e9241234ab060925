import { type AgentTool, createTool } from "@heddle/shared";
import { z } from "zod";
import { TeamError } from "./errors.js";
import type { TeamTask, TeamTaskBoard } from "./roster.js";

/**
 * `team_tasks`: the team's shared task list (a roster, or `manager.tasks`), one tool with four actions. Every action
 * is the calling agent's (its own id): it adds, claims and completes as itself. A claim is exclusive and only the
 * claimer completes a task; a refused action is an error result the model reads (who holds the task). Give it to
 * teammates on workers with `tools: [...yours, createTeamTaskTool(roster)]`; `createTeamTools` includes it for a lead.
 */
export function createTeamTaskTool(
  board: TeamTaskBoard | (() => TeamTaskBoard),
  caller: (ctx: { agentId: string }) => string = (ctx) => ctx.agentId,
): AgentTool {
  return createTool({
    name: "team_tasks",
    description:
      "The team's shared task list. action=add (title, description?) adds an open task; action=claim (task_id?, " +
      "without it the oldest open task) makes it yours, and nobody else can claim it; action=complete (task_id, " +
      "result?) marks your claimed task done; action=list shows every task with its state and owner.",
    input: z.object({
      action: z.enum(["add", "claim", "complete", "list"]),
      title: z.string().min(1).optional(),
      description: z.string().optional(),
      task_id: z.string().min(1).optional(),
      result: z.string().optional(),
    }),
    readOnly: false,
    execute: async (input, ctx) => {
      const self = caller(ctx);
      const tasks = typeof board === "function" ? board() : board;
      switch (input.action) {
        case "add": {
          if (!input.title) throw new TeamError("team_invalid_input", "team_tasks add needs a title");
          const task = await tasks.addTask({
            title: input.title,
            createdBy: self,
            ...(input.description !== undefined && { description: input.description }),
          });
          return `Added ${task.id}: ${task.title}`;
        }
        case "claim": {
          const task = await tasks.claimTask(self, input.task_id);
          return task
            ? `You claimed ${task.id}: ${task.title}${task.description ? `\n${task.description}` : ""}`
            : "No open task.";
        }
        case "complete": {
          if (!input.task_id) throw new TeamError("team_invalid_input", "team_tasks complete needs a task_id");
          const task = await tasks.completeTask(self, input.task_id, input.result);
          return `Completed ${task.id}.`;
        }
        case "list": {
          const all = await tasks.listTasks();
          return all.length === 0 ? "No tasks yet." : JSON.stringify(all.map(row), null, 2);
        }
      }
    },
  });
}

function row(task: TeamTask) {
  return {
    id: task.id,
    title: task.title,
    state: task.state,
    ...(task.description !== undefined && { description: task.description }),
    ...(task.claimedBy !== undefined && { owner: task.claimedBy }),
    ...(task.result !== undefined && { result: task.result }),
  };
}
