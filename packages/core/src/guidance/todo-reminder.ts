import type { AgentHooks } from "@heddle/shared";

/** Options of the todo reminder; `false` in `SessionOptions.todoReminder` turns it off. */
export interface TodoReminderOptions {
  /** Model rounds with tool calls but no `todo_write` before a reminder (default 3). */
  afterRounds?: number;
  /** The reminder's text. */
  text?: string;
  /** The tool whose use resets the count (default `todo_write`). */
  toolName?: string;
}

export const DEFAULT_TODO_REMINDER =
  "You have not updated your task list for a while. If you are working through several steps, call todo_write " +
  "with the current list (mark what is done, what is in progress) before you go on.";

/**
 * A reminder that reaches the next model request (through the context channel, like every notice) after
 * `afterRounds` rounds that called tools but not `todo_write`. Only when the run offers `todo_write`. A fresh set of
 * hooks per run: the count starts at zero with each new user message.
 */
export function createTodoReminderHooks(options: TodoReminderOptions = {}): AgentHooks {
  const afterRounds = Math.max(1, Math.floor(options.afterRounds ?? 3));
  const toolName = options.toolName ?? "todo_write";
  const text = options.text ?? DEFAULT_TODO_REMINDER;
  let offered = false;
  let rounds = 0;
  return {
    beforeModel: ({ request }) => {
      offered = request.tools.some((tool) => tool.name === toolName);
    },
    afterStep: ({ message }) => {
      const calls = message.content.filter((part) => part.type === "tool-call");
      if (!offered || calls.length === 0) return;
      if (calls.some((call) => call.toolName === toolName)) {
        rounds = 0;
        return;
      }
      rounds += 1;
      if (rounds < afterRounds) return;
      rounds = 0;
      return { appendContext: text };
    },
  };
}
