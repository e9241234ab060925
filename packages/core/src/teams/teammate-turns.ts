import { type AgentMessage, getToolCalls } from "@heddle/shared";
import type { SessionRuntime } from "../sessions/index.js";

/** The key of the initial prompt's turn: the user message of that turn gets a fixed id from it. */
export const INITIAL_TASK_KEY = "initial-task";

export const RESUME_NOTICE =
  "(Your previous turn was cut off by a restart before it finished. Continue the task from where you left off; " +
  "tool calls that did not finish have error results and may need to run again.)";

/** The id of the stored user message that carried a mailbox message (or the initial task) into the session. */
export function teamTurnMessageId(key: string): string {
  return `team-turn-${key}`;
}

/** True when the initial task's turn is stored but was cut by a crash. */
export async function initialTaskWasCut(session: SessionRuntime): Promise<boolean> {
  const history = await session.history();
  const index = history.findIndex((m) => m.id === teamTurnMessageId(INITIAL_TASK_KEY));
  return index >= 0 && !turnIsComplete(history, index);
}

/** A stored turn is done when a later turn began, or the history ends with a final assistant answer. */
export function turnIsComplete(history: AgentMessage[], index: number): boolean {
  const later = history.slice(index + 1);
  if (later.some((m) => m.role === "user" && m.id.startsWith("team-turn-"))) return true;
  const last = history[history.length - 1]!;
  return last !== history[index] && last.role === "assistant" && getToolCalls(last).length === 0;
}
