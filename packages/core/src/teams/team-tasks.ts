/**
 * The rule this file keeps: a task of the team's list goes open → claimed → done, one way. Only an open task can be
 * claimed (by one agent), and only its claimer completes it. Every roster applies these same checks, inside its
 * own atomic step.
 */
import { TeamTaskError } from "./errors.js";
import { checkAgentId } from "./mailbox.js";
import type { TeamTask } from "./roster.js";

/** `task` claimed by `agentId` at `now`; it is returned as it is when that agent holds it already. */
export function claimed(task: TeamTask, agentId: string, now: number): TeamTask {
  if (task.state === "claimed" && task.claimedBy === agentId) return task;
  if (task.state !== "open")
    throw new TeamTaskError(
      "team_task_conflict",
      task.id,
      task.state === "done"
        ? `Task ${task.id} is done already.`
        : `Task ${task.id} is claimed by "${task.claimedBy}"; pick another (list the tasks).`,
    );
  return { ...task, state: "claimed", claimedBy: agentId, claimedAt: now };
}

/** `task` completed by `agentId` at `now`, with its result. */
export function completed(task: TeamTask, agentId: string, result: string | undefined, now: number): TeamTask {
  if (task.state !== "claimed" || task.claimedBy !== agentId)
    throw new TeamTaskError(
      "team_task_conflict",
      task.id,
      task.state === "done"
        ? `Task ${task.id} is done already.`
        : `Task ${task.id} is not claimed by "${agentId}"${task.claimedBy ? ` (its claimer is "${task.claimedBy}")` : ""}: claim it first.`,
    );
  return { ...task, state: "done", completedAt: now, ...(result !== undefined && { result }) };
}

export function notFound(taskId: string): TeamTaskError {
  return new TeamTaskError("team_task_not_found", taskId, `There is no task ${taskId}; list the tasks for their ids.`);
}

/** Checks the arguments of `claimTask` / `completeTask`. */
export function checkTaskCall(agentId: unknown, taskId: unknown, where: string, optionalId = false): void {
  checkAgentId(agentId, `${where}: agentId`);
  if (optionalId && taskId === undefined) return;
  checkAgentId(taskId, `${where}: taskId`);
}

/** The task's record without `undefined` fields (stores keep what is there). */
export function newTask(seq: number, input: { title: string; description?: string; createdBy: string }, now: number) {
  const task: TeamTask = {
    id: `task-${seq}`,
    title: input.title,
    ...(input.description !== undefined && { description: input.description }),
    state: "open",
    createdBy: input.createdBy,
    createdAt: now,
  };
  return task;
}
