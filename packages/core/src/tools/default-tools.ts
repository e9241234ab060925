import type { AgentTool, ToolPolicy } from "@heddle/shared";
import { resolveSandbox, type SandboxOptions } from "../process/index.js";
import { createWorkspace, ToolConfigError } from "../workspace/index.js";
import { type AskUserCallback, createAskUserTool } from "./ask-user.js";
import { type BashToolOptions, createBashTool } from "./bash.js";
import { createEditFileTool } from "./edit-file.js";
import { createListFilesTool } from "./list-files.js";
import { createReadFileTool, type ReadFileLimits } from "./read-file.js";
import { createSearchTool, type SearchOptions } from "./search.js";
import { createLoadSkillTool } from "./skills.js";
import { createSubmitResultTool } from "./submit-result.js";
import { createTodoWriteTool, type TodoItem } from "./todo.js";
import { createWriteFileTool, type WriteCheckpointer } from "./write-file.js";

/** `read-only`: look, no changes. `edit`: file writes run, bash asks. `full`: everything runs without asking. */
export type ToolPreset = "read-only" | "edit" | "full";

export interface DefaultToolsOptions {
  /** Every file tool stays inside this folder; bash runs in it. */
  workspaceRoot: string;
  /**
   * Paths (relative to the workspace or absolute) write_file and edit_file refuse to change, on top of `.heddle/`,
   * which they always refuse. Resolved with realpath. `bash` is not confined by this (use `sandbox`).
   */
  protectedPaths?: string[];
  preset: ToolPreset;
  /** Answers `ask_user`; without it the tool tells the model no one is there. */
  askUser?: AskUserCallback;
  /** Folders of skills (`<dir>/<skill>/SKILL.md`), relative to the workspace or absolute. */
  skillsDirs?: string[];
  /** Records each file's prior content before write_file/edit_file change it (`FileCheckpointer`). */
  checkpointer?: WriteCheckpointer;
  bash?: BashToolOptions;
  /**
   * Run `bash` under bubblewrap (Linux): its own PID namespace, writes only in the workspace and `allowWrite`,
   * no network unless `network: "allow"`. Throws `SandboxUnavailableError` here when bubblewrap cannot run.
   */
  sandbox?: SandboxOptions;
  read?: ReadFileLimits;
  search?: SearchOptions;
  /** Most paths `list_files` shows (default 1000). */
  maxListEntries?: number;
  /** Called with the list each time `todo_write` runs, for a UI. */
  onTodosChange?: (todos: TodoItem[]) => void;
}

const PRESETS: readonly ToolPreset[] = ["read-only", "edit", "full"];
const READ_TOOLS = ["read_file", "list_files", "search", "todo_write", "ask_user", "load_skill", "submit_result"];
const WRITE_TOOLS = ["write_file", "edit_file"];

/**
 * The workspace tools for a coding agent. `read-only` leaves out write_file, edit_file and bash; the other
 * presets include them. Pair with `defaultToolPolicies(preset)` for what runs without asking.
 */
export function createDefaultTools(options: DefaultToolsOptions): AgentTool[] {
  if (!options || !PRESETS.includes(options.preset)) {
    throw new ToolConfigError(`preset must be one of ${PRESETS.join(", ")} (got ${JSON.stringify(options?.preset)}).`);
  }
  const workspace = createWorkspace(options.workspaceRoot, {
    ...(options.protectedPaths && { protectedPaths: options.protectedPaths }),
  });
  const tools: AgentTool[] = [
    createReadFileTool(workspace, options.read),
    createListFilesTool(workspace, options.maxListEntries),
    createSearchTool(workspace, options.search),
  ];
  if (options.preset !== "read-only") {
    tools.push(
      createWriteFileTool(workspace, options.checkpointer),
      createEditFileTool(workspace, options.checkpointer),
      createBashTool(
        workspace,
        options.bash,
        options.sandbox ? resolveSandbox(workspace.root, options.sandbox, options.protectedPaths) : undefined,
      ),
    );
  }
  tools.push(createTodoWriteTool(options.onTodosChange), createAskUserTool(options.askUser));
  if (options.skillsDirs && options.skillsDirs.length > 0) {
    tools.push(createLoadSkillTool(options.skillsDirs, workspace.root));
  }
  tools.push(createSubmitResultTool());
  return tools;
}

/**
 * The `toolPolicies` of a preset. Reading tools always run without asking. `read-only` disables writes and
 * bash (should they be added by hand); `edit` auto-approves writes and leaves bash to the approval callback;
 * `full` auto-approves everything. Tools not named here (plugins, MCP) keep the runtime's default.
 */
export function defaultToolPolicies(preset: ToolPreset): { [toolName: string]: ToolPolicy } {
  if (!PRESETS.includes(preset)) {
    throw new ToolConfigError(`preset must be one of ${PRESETS.join(", ")} (got ${JSON.stringify(preset)}).`);
  }
  const policies: { [toolName: string]: ToolPolicy } = {};
  for (const name of READ_TOOLS) policies[name] = { enabled: true, autoApprove: true };
  for (const name of WRITE_TOOLS)
    policies[name] = preset === "read-only" ? { enabled: false } : { enabled: true, autoApprove: true };
  policies.bash = preset === "read-only" ? { enabled: false } : { enabled: true, autoApprove: preset === "full" };
  return policies;
}
