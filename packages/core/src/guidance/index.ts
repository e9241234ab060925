// Guidance the session adds to a run: a reminder to keep the task list current, and the skills the model can load.
export { createSkillsPromptHooks } from "./skills-prompt.js";
export { createTodoReminderHooks, DEFAULT_TODO_REMINDER, type TodoReminderOptions } from "./todo-reminder.js";
