// The process helpers the bash tool is built on, for hosts that imported them from here.
export {
  bwrapArgs,
  checkSandboxAvailable,
  clampTimerMs,
  killCommandTree,
  MAX_TIMER_MS,
  type ResolvedSandbox,
  resolveSandbox,
  runShellCommand,
  SANDBOX_SECCOMP_FD,
  type SandboxOptions,
  SandboxUnavailableError,
  type ShellRunOptions,
  type ShellRunResult,
  sandboxSeccompFilter,
} from "../process/index.js";
export {
  AGENT_FOLDER,
  createWorkspace,
  ProtectedPathError,
  ToolConfigError,
  ToolInputError,
  type ToolInputErrorCode,
  type Workspace,
  WorkspaceEscapeError,
  type WorkspaceOptions,
  writeFileAtomic,
} from "../workspace/index.js";
export { type AskUserCallback, type AskUserRequest, createAskUserTool } from "./ask-user.js";
export { type BashToolOptions, createBashTool, DEFAULT_BASH_ENV } from "./bash.js";
export {
  createDefaultTools,
  type DefaultToolsOptions,
  defaultToolPolicies,
  type ToolPreset,
} from "./default-tools.js";
export { createEditFileTool } from "./edit-file.js";
export { createListFilesTool } from "./list-files.js";
export { createReadFileTool, type ReadFileLimits } from "./read-file.js";
export { assertRegularFile, fileKind, readRegularFile, readRegularFileSync } from "./regular-file.js";
export { compileSearchPattern, createSearchTool, type SearchOptions, type SearchPattern } from "./search.js";
export { createLoadSkillTool, formatSkillsForPrompt, listSkills, type Skill } from "./skills.js";
export { createSubmitResultTool } from "./submit-result.js";
export { createTodoWriteTool, renderTodos, type TodoItem } from "./todo.js";
export { createWriteFileTool, type WriteCheckpointer } from "./write-file.js";
