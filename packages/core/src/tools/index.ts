// What a host needs to run commands the way the bash tool does: the sandbox (resolved once, checked ahead of time,
// or built into its own bubblewrap call) and the shell runner that kills the whole process tree on timeout or abort.
export {
  bwrapArgs,
  checkSandboxAvailable,
  type ResolvedSandbox,
  resolveSandbox,
  runShellCommand,
  type SandboxOptions,
  SandboxUnavailableError,
  type ShellRunOptions,
  type ShellRunResult,
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
export { fileKind, readRegularFile, readRegularFileSync } from "./regular-file.js";
export { compileSearchPattern, createSearchTool, type SearchOptions, type SearchPattern } from "./search.js";
export { createLoadSkillTool, formatSkillsForPrompt, listSkills, type Skill } from "./skills.js";
export { createSubmitResultTool } from "./submit-result.js";
export { createTodoWriteTool, renderTodos, type TodoItem } from "./todo.js";
export { createWriteFileTool, type WriteCheckpointer } from "./write-file.js";
