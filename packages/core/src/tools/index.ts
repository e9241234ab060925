export { type AskUserCallback, type AskUserRequest, createAskUserTool } from "./ask-user.js";
export { type BashToolOptions, createBashTool, DEFAULT_BASH_ENV } from "./bash.js";
export {
  createDefaultTools,
  type DefaultToolsOptions,
  defaultToolPolicies,
  type ToolPreset,
} from "./default-tools.js";
export { createEditFileTool } from "./edit-file.js";
export { ToolConfigError, ToolInputError, type ToolInputErrorCode, WorkspaceEscapeError } from "./errors.js";
export { createListFilesTool } from "./list-files.js";
export { createReadFileTool, type ReadFileLimits } from "./read-file.js";
export { createSearchTool, type SearchOptions } from "./search.js";
export { runShellCommand, type ShellRunOptions, type ShellRunResult } from "./shell-process.js";
export { createLoadSkillTool, formatSkillsForPrompt, listSkills, type Skill } from "./skills.js";
export { createSubmitResultTool } from "./submit-result.js";
export { createTodoWriteTool, renderTodos, type TodoItem } from "./todo.js";
export { createWorkspace, type Workspace, writeFileAtomic } from "./workspace.js";
export { createWriteFileTool, type WriteCheckpointer } from "./write-file.js";
