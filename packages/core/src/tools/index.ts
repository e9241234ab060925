export { type AskUserCallback, type AskUserRequest, createAskUserTool } from "./ask-user.js";
export { type BashToolOptions, createBashTool, DEFAULT_BASH_ENV } from "./bash.js";
export {
  createDefaultTools,
  type DefaultToolsOptions,
  defaultToolPolicies,
  type ToolPreset,
} from "./default-tools.js";
export { createEditFileTool } from "./edit-file.js";
export {
  ProtectedPathError,
  ToolConfigError,
  ToolInputError,
  type ToolInputErrorCode,
  WorkspaceEscapeError,
} from "./errors.js";
export { createListFilesTool } from "./list-files.js";
export { killCommandTree } from "./process-tree.js";
export { createReadFileTool, type ReadFileLimits } from "./read-file.js";
export {
  bwrapArgs,
  checkSandboxAvailable,
  type ResolvedSandbox,
  resolveSandbox,
  type SandboxOptions,
  SandboxUnavailableError,
} from "./sandbox.js";
export { compileSearchPattern, createSearchTool, type SearchOptions, type SearchPattern } from "./search.js";
export {
  clampTimerMs,
  MAX_TIMER_MS,
  runShellCommand,
  type ShellRunOptions,
  type ShellRunResult,
} from "./shell-process.js";
export { createLoadSkillTool, formatSkillsForPrompt, listSkills, type Skill } from "./skills.js";
export { createSubmitResultTool } from "./submit-result.js";
export { createTodoWriteTool, renderTodos, type TodoItem } from "./todo.js";
export { AGENT_FOLDER, createWorkspace, type Workspace, type WorkspaceOptions, writeFileAtomic } from "./workspace.js";
export {
  checkpointerFor,
  createWriteFileTool,
  FILE_CHECKPOINTER_METADATA_KEY,
  type WriteCheckpointer,
} from "./write-file.js";
