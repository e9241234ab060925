/**
 * The one catalog of Heddle's error codes: every `code` a `HeddleError` can carry, what it means, which classes
 * raise it and from which package. `HeddleErrorCode` is the closed union of its keys, so a code that is not listed
 * here does not compile. docs/errors.md is generated from this object (`pnpm docs:errors`); a test fails when the
 * two differ. This file imports nothing: the docs script reads it as it is.
 */

/** What the catalog records about one error code. */
export interface HeddleErrorCodeInfo {
  /** One line: what went wrong. */
  readonly meaning: string;
  /** The error classes that carry this code. */
  readonly classes: readonly string[];
  /** The package (or packages) that raise it. */
  readonly packages: readonly ("shared" | "llms" | "agents" | "core")[];
}

export const HEDDLE_ERROR_CODES = {
  // shared
  config_invalid: {
    meaning: "A configuration value is wrong (a programmer error); thrown at construction, never mid-run.",
    classes: ["ConfigError", "ToolDefinitionError", "ToolConfigError", "McpConfigError"],
    packages: ["shared", "core"],
  },
  dependency_missing: {
    meaning:
      "An optional peer dependency the feature needs (ioredis, pg) is not installed; the message says how to install it.",
    classes: ["MissingDependencyError"],
    packages: ["core"],
  },
  // llms
  gateway_error: {
    meaning: "A gateway configuration mistake with no more specific code.",
    classes: ["GatewayError"],
    packages: ["llms"],
  },
  unknown_provider: {
    meaning: "No provider with this id; `knownProviders` lists the ids that exist.",
    classes: ["UnknownProviderError"],
    packages: ["llms"],
  },
  unknown_model: {
    meaning: "The provider does not list this model; `knownModels` lists the ids it does.",
    classes: ["UnknownModelError"],
    packages: ["llms"],
  },
  missing_api_key: {
    meaning: "No API key in the config or in the provider's environment variables.",
    classes: ["MissingApiKeyError"],
    packages: ["llms"],
  },
  missing_base_url: {
    meaning: "A provider without a default base URL (`openai-compatible`) was used without one.",
    classes: ["MissingBaseUrlError"],
    packages: ["llms"],
  },
  invalid_provider_spec: {
    meaning: "A provider spec given to `registerProvider` is not usable.",
    classes: ["InvalidProviderSpecError"],
    packages: ["llms"],
  },
  vendor_sdk_missing: {
    meaning:
      "A provider's vendor client (an optional peer of @heddle/llms) is not installed; `installCommand` installs it.",
    classes: ["MissingVendorSdkError"],
    packages: ["llms"],
  },
  stream_limit: {
    meaning: "A model response went past a size or time cap of the call; reported as the call's `finish` error.",
    classes: ["StreamLimitError"],
    packages: ["llms"],
  },
  stream_malformed: {
    meaning: "A provider's stream could not be read (a chunk that is not JSON, a cut-off segment).",
    classes: ["HeddleError"],
    packages: ["llms"],
  },
  invalid_request: {
    meaning:
      "A request the provider family cannot express; reported as an `invalid_request` model error, nothing is sent.",
    classes: ["AnthropicRequestError", "GeminiRequestError"],
    packages: ["llms"],
  },
  // agents
  invalid_input: {
    meaning:
      "An `AgentRuntime` call got an argument it cannot use (empty or malformed run input or messages, empty steer text).",
    classes: ["AgentRuntimeError"],
    packages: ["agents"],
  },
  busy: {
    meaning: "A second `run` (or `restore`) while a run of the same agent is going.",
    classes: ["AgentRuntimeError"],
    packages: ["agents"],
  },
  gateway_unavailable: {
    meaning: "A `providerId` was given but the installed @heddle/llms cannot resolve it; pass a `model` instead.",
    classes: ["AgentRuntimeError"],
    packages: ["agents"],
  },
  plugin_setup_failed: {
    meaning: "An agent plugin's `setup` threw.",
    classes: ["AgentRuntimeError"],
    packages: ["agents"],
  },
  plugin_setup_timeout: {
    meaning: "A plugin's `setup` did not settle within its timeout.",
    classes: ["AgentRuntimeError", "PluginLoadError"],
    packages: ["agents", "core"],
  },
  aborted: {
    meaning: "The run (or the command) was aborted; the reason of a run's abort signal.",
    classes: ["AgentRuntimeAbortError", "HeddleError"],
    packages: ["agents", "core"],
  },
  hook_failed: {
    meaning: "A hook threw or a command hook failed; the hook is named in the message.",
    classes: ["HookError", "HookExecutionError"],
    packages: ["agents", "core"],
  },
  tool_timeout: {
    meaning: "A tool ran past its `timeoutMs`; the reason of the tool call's abort signal.",
    classes: ["HeddleError"],
    packages: ["agents"],
  },
  // core: sessions
  store_closed: {
    meaning: "A call on a session store (or session) after `close()`.",
    classes: ["SessionStoreClosedError"],
    packages: ["core"],
  },
  session_not_found: {
    meaning: "No session with this id (or it was deleted from its store).",
    classes: ["SessionNotFoundError", "SessionStoreError"],
    packages: ["core"],
  },
  session_exists: {
    meaning: "`createSession` with an id that is already taken.",
    classes: ["SessionExistsError"],
    packages: ["core"],
  },
  message_not_found: {
    meaning: "A message id that is not part of the session.",
    classes: ["MessageNotFoundError"],
    packages: ["core"],
  },
  session_invalid_input: {
    meaning: "Input a session store cannot store (a message without an id, a duplicate message id, ...).",
    classes: ["InvalidSessionInputError", "SessionStoreError"],
    packages: ["core"],
  },
  session_busy: {
    meaning: "A session call (`send`, or a change of its history) while a turn of that session is running.",
    classes: ["SessionStoreError"],
    packages: ["core"],
  },
  write_failed: {
    meaning: "A session store write failed during a turn; the run was aborted.",
    classes: ["SessionWriteError"],
    packages: ["core"],
  },
  session_conflict: {
    meaning: "Another writer extended the session first; nothing was stored, reopen the session.",
    classes: ["SessionConflictError"],
    packages: ["core"],
  },
  database_corrupt: {
    meaning: "An SQLite file is not a database or is damaged.",
    classes: ["SessionDatabaseError", "TeamDatabaseError"],
    packages: ["core"],
  },
  database_read_only: {
    meaning: "An SQLite file (or its folder) cannot be written.",
    classes: ["SessionDatabaseError", "TeamDatabaseError"],
    packages: ["core"],
  },
  database_unavailable: {
    meaning: "A database cannot be used for another reason (an SQLite error, a lost PostgreSQL connection).",
    classes: ["SessionDatabaseError", "TeamDatabaseError", "SessionStoreError"],
    packages: ["core"],
  },
  database_too_new: {
    meaning:
      "The session database (SQLite file or PostgreSQL schema) has a schema version newer than this Heddle knows.",
    classes: ["SessionStoreError"],
    packages: ["core"],
  },
  // core: teams
  team_invalid_input: {
    meaning: "A team, mailbox, roster or sub-agent option or input is not usable.",
    classes: ["TeamError"],
    packages: ["core"],
  },
  team_mailbox_closed: {
    meaning: "A call on a team mailbox after `close()`, or a wait the close ended.",
    classes: ["TeamError"],
    packages: ["core"],
  },
  team_agent_exists: {
    meaning: "An agent id that is already in the team.",
    classes: ["TeamAgentExistsError"],
    packages: ["core"],
  },
  team_agent_running: {
    meaning: "A teammate was started a second time; also the abort reason a teammate's run gets when it is stopped.",
    classes: ["TeamError"],
    packages: ["core"],
  },
  team_limit_reached: {
    meaning: "A team limit refused something; `limit` names it.",
    classes: ["TeamLimitError"],
    packages: ["core"],
  },
  team_message_too_large: {
    meaning: "A mailbox refused a message over its own `maxMessageBytes`; nothing was stored.",
    classes: ["TeamMessageTooLargeError"],
    packages: ["core"],
  },
  team_roster_closed: {
    meaning: "A call on a team roster after `close()`.",
    classes: ["TeamError"],
    packages: ["core"],
  },
  team_lease_lost: {
    meaning: "This worker's lease on a teammate ended; another worker may hold it now.",
    classes: ["TeamError"],
    packages: ["core"],
  },
  team_task_not_found: {
    meaning: "No task with this id in the team's task list.",
    classes: ["TeamTaskError"],
    packages: ["core"],
  },
  team_task_conflict: {
    meaning: "A task claimed by someone else, already done, or completed by an agent that did not claim it.",
    classes: ["TeamTaskError"],
    packages: ["core"],
  },
  subagent_failed: {
    meaning:
      "`spawn_agent` could not start a sub-agent (no model or tools to give, a SubagentStart hook blocked it) or its run failed.",
    classes: ["TeamError"],
    packages: ["core"],
  },
  subagent_limit_reached: {
    meaning: "`spawn_agent` was called after the task already started `maxSpawns` sub-agents.",
    classes: ["TeamError"],
    packages: ["core"],
  },
  // core: tools and workspace
  invalid_path: {
    meaning: "A tool got a path it cannot use (empty, a NUL byte, unresolvable, too many symlinks).",
    classes: ["ToolInputError"],
    packages: ["core"],
  },
  not_found: { meaning: "A tool's file or folder does not exist.", classes: ["ToolInputError"], packages: ["core"] },
  is_directory: {
    meaning: "A tool expected a file and got a folder.",
    classes: ["ToolInputError"],
    packages: ["core"],
  },
  not_a_directory: {
    meaning: "A tool expected a folder and got something else.",
    classes: ["ToolInputError"],
    packages: ["core"],
  },
  not_regular_file: {
    meaning: "A tool's path is not a regular file (a device, a socket, a FIFO).",
    classes: ["ToolInputError"],
    packages: ["core"],
  },
  binary_file: {
    meaning: "A file a tool would read as text is binary.",
    classes: ["ToolInputError"],
    packages: ["core"],
  },
  too_large: { meaning: "A file is too large for the tool.", classes: ["ToolInputError"], packages: ["core"] },
  no_match: {
    meaning: "The text an edit should replace is not in the file.",
    classes: ["ToolInputError"],
    packages: ["core"],
  },
  not_unique: {
    meaning: "The text an edit should replace (or an id a tool got) occurs more than once.",
    classes: ["ToolInputError"],
    packages: ["core"],
  },
  no_change: { meaning: "An edit that would not change the file.", classes: ["ToolInputError"], packages: ["core"] },
  invalid_pattern: {
    meaning: "A search or glob pattern that does not compile.",
    classes: ["ToolInputError"],
    packages: ["core"],
  },
  invalid_todos: {
    meaning: "A todo list the `todo` tool refuses (more than one item in progress).",
    classes: ["ToolInputError"],
    packages: ["core"],
  },
  unknown_skill: { meaning: "No skill with this name.", classes: ["ToolInputError"], packages: ["core"] },
  no_user: {
    meaning: "A tool asked the user a question and the host has no one to ask.",
    classes: ["ToolInputError"],
    packages: ["core"],
  },
  timeout: { meaning: "A tool's own time limit (a search) ran out.", classes: ["ToolInputError"], packages: ["core"] },
  workspace_escape: {
    meaning: "A path resolves outside the workspace root (after following symlinks).",
    classes: ["WorkspaceEscapeError"],
    packages: ["core"],
  },
  protected_path: {
    meaning: "A path under a protected folder that file tools may not change.",
    classes: ["ProtectedPathError"],
    packages: ["core"],
  },
  // core: MCP
  mcp_tool_error: {
    meaning: "An MCP server answered a tool call with `isError: true`; the message is the server's text.",
    classes: ["McpToolError"],
    packages: ["core"],
  },
  mcp_server_unavailable: {
    meaning: "A tool or resource was asked of an MCP server that is not connected or does not offer it.",
    classes: ["McpServerUnavailableError"],
    packages: ["core"],
  },
  mcp_auth_failed: {
    meaning: "An MCP server's OAuth sign-in failed: refused, a forged or stale callback, or none in time.",
    classes: ["McpAuthError"],
    packages: ["core"],
  },
  mcp_schema_too_deep: {
    meaning: "An MCP tool's schema nests deeper than `maxSchemaDepth`; the tool was left out.",
    classes: ["McpToolLimitError"],
    packages: ["core"],
  },
  mcp_schema_too_large: {
    meaning: "An MCP tool's schema is longer than `maxSchemaChars`; the tool was left out.",
    classes: ["McpToolLimitError"],
    packages: ["core"],
  },
  mcp_description_too_long: {
    meaning: "An MCP tool's description was longer than `maxDescriptionChars` and was cut.",
    classes: ["McpToolLimitError"],
    packages: ["core"],
  },
  mcp_too_many_tools: {
    meaning: "An MCP server offered more than `maxToolsPerServer` tools; the rest were left out.",
    classes: ["McpToolLimitError"],
    packages: ["core"],
  },
  // core: plugins, hooks, process, compaction, checkpoints
  plugin_failed: {
    meaning: "A plugin module threw something that is not an `Error` on import or in `setup` (wrapped with this code).",
    classes: ["PluginLoadError"],
    packages: ["core"],
  },
  plugin_invalid: {
    meaning: "A plugin module did not export a usable plugin.",
    classes: ["PluginLoadError"],
    packages: ["core"],
  },
  plugin_tool_invalid: {
    meaning: "A plugin's tool is not usable; the plugin's other tools load.",
    classes: ["PluginLoadError"],
    packages: ["core"],
  },
  plugin_import_timeout: {
    meaning: "A plugin module did not settle in time (a top-level `await` that never ends).",
    classes: ["PluginLoadError"],
    packages: ["core"],
  },
  hook_settings_invalid: {
    meaning: "A hook settings file or object is malformed; the message names the file and the field.",
    classes: ["HookSettingsError"],
    packages: ["core"],
  },
  sandbox_unavailable: {
    meaning: "The process sandbox a host asked for cannot be set up on this machine.",
    classes: ["SandboxUnavailableError"],
    packages: ["core"],
  },
  compaction_failed: {
    meaning: "Compacting the conversation failed.",
    classes: ["CompactionError"],
    packages: ["core"],
  },
  checkpoint_failed: {
    meaning: "Saving or restoring a file checkpoint failed.",
    classes: ["FileCheckpointError"],
    packages: ["core"],
  },
} as const satisfies Record<string, HeddleErrorCodeInfo>;

/** Every code a `HeddleError` can carry: the closed union of the catalog's keys. */
export type HeddleErrorCode = keyof typeof HEDDLE_ERROR_CODES;
