import { type AgentTool, createTool } from "@heddle/shared";
import { z } from "zod";

/** One item of the agent's task list. */
export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

const inputSchema = z.object({
  todos: z
    .array(
      z.object({
        content: z.string().min(1).describe("What to do, as an imperative sentence."),
        status: z.enum(["pending", "in_progress", "completed"]),
      }),
    )
    .max(100)
    .refine((todos) => todos.filter((todo) => todo.status === "in_progress").length <= 1, {
      message: "At most one item may be in_progress at a time: finish or pause the current one first.",
    })
    .describe("The whole list; it replaces the previous one."),
});

const MARK: { [status in TodoItem["status"]]: string } = { pending: "[ ]", in_progress: "[>]", completed: "[x]" };

/** The list as the model and a UI read it: one `[x] / [>] / [ ]` line per item. */
export function renderTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return "The task list is empty.";
  const done = todos.filter((todo) => todo.status === "completed").length;
  const lines = todos.map((todo, i) => `${MARK[todo.status]} ${i + 1}. ${todo.content}`);
  return `Tasks (${done}/${todos.length} done):\n${lines.join("\n")}`;
}

/** `todo_write {todos}`: replaces the task list (at most one in progress) and renders it back. */
export function createTodoWriteTool(onChange?: (todos: TodoItem[]) => void): AgentTool {
  return createTool({
    name: "todo_write",
    description:
      "Keep a task list for multi-step work: send the whole list each time with each item's status " +
      "(pending, in_progress, completed). Keep exactly one item in_progress while working.",
    input: inputSchema,
    readOnly: true,
    execute(input) {
      const todos = input.todos.map((todo) => ({ content: todo.content, status: todo.status }));
      onChange?.(todos);
      return renderTodos(todos);
    },
  });
}
