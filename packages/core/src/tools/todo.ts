import { type AgentTool, createTool } from "@heddle/shared";
import { z } from "zod";
import { ToolInputError } from "../workspace/index.js";

/** One item of the agent's task list. `id` is stable across calls: the model refers to an item by it. */
export interface TodoItem {
  id: string;
  content: string;
  status: "pending" | "in_progress" | "completed";
}

const STATUS = z.enum(["pending", "in_progress", "completed"]);

const inputSchema = z.object({
  todos: z
    .array(
      z.object({
        id: z
          .string()
          .min(1)
          .max(40)
          .optional()
          .describe("The item's id from the list shown before; omit for a new item."),
        content: z.string().min(1).describe("What to do, as an imperative sentence."),
        status: STATUS,
      }),
    )
    .max(100)
    .describe("The whole list (it replaces the previous one), or with merge: true only the items that change."),
  merge: z
    .boolean()
    .optional()
    .describe("true: update the items named by id and add new ones, keeping the rest of the list."),
});

const MARK: { [status in TodoItem["status"]]: string } = { pending: "[ ]", in_progress: "[>]", completed: "[x]" };

/** The list as the model and a UI read it: one `[x] / [>] / [ ]` line per item, with its id. */
export function renderTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return "The task list is empty.";
  const done = todos.filter((todo) => todo.status === "completed").length;
  const lines = todos.map((todo) => `${MARK[todo.status]} ${todo.id}. ${todo.content}`);
  return `Tasks (${done}/${todos.length} done):\n${lines.join("\n")}`;
}

/**
 * `todo_write {todos, merge?}`: the task list, kept between calls. Each item has an id (`t1`, `t2`, ...): one the
 * model gives back is kept, an item without one takes the id of an earlier item with the same text, or a new id.
 * At most one item is in progress.
 */
export function createTodoWriteTool(onChange?: (todos: TodoItem[]) => void): AgentTool {
  let current: TodoItem[] = [];
  let issued = 0;
  return createTool({
    name: "todo_write",
    description:
      "Keep a task list for multi-step work: send the whole list each time with each item's status " +
      "(pending, in_progress, completed), or only the changed items (by id) with merge: true. Keep exactly one " +
      "item in_progress while working. Items keep their ids between calls.",
    input: inputSchema,
    readOnly: true,
    execute(input) {
      const byContent = new Map(current.map((todo) => [todo.content, todo.id]));
      const updates = input.todos.map((todo) => ({
        id: todo.id ?? byContent.get(todo.content) ?? `t${++issued}`,
        content: todo.content,
        status: todo.status,
      }));
      const next = input.merge ? mergeTodos(current, updates) : updates;
      const ids = next.map((todo) => todo.id);
      const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
      if (duplicate !== undefined)
        throw new ToolInputError("not_unique", `Two items have the id "${duplicate}": give each item its own id.`);
      if (next.filter((todo) => todo.status === "in_progress").length > 1)
        throw new ToolInputError(
          "invalid_todos",
          "At most one item may be in_progress at a time: finish or pause the current one first.",
        );
      current = next;
      onChange?.(current.map((todo) => ({ ...todo })));
      return renderTodos(current);
    },
  });
}

function mergeTodos(current: readonly TodoItem[], updates: readonly TodoItem[]): TodoItem[] {
  const byId = new Map(updates.map((todo) => [todo.id, todo]));
  const merged = current.map((todo) => byId.get(todo.id) ?? todo);
  const known = new Set(current.map((todo) => todo.id));
  return [...merged, ...updates.filter((todo) => !known.has(todo.id))];
}
