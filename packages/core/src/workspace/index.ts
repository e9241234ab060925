// The workspace: the root every file tool, command hook and file checkpoint resolves paths against, the guard that
// keeps them inside it and out of protected paths, atomic writes, and the errors the guard and the tools throw.
export {
  ProtectedPathError,
  ToolConfigError,
  ToolInputError,
  type ToolInputErrorCode,
  WorkspaceEscapeError,
} from "./errors.js";
export { AGENT_FOLDER, createWorkspace, type Workspace, type WorkspaceOptions, writeFileAtomic } from "./workspace.js";
