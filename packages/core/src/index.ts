// @heddle/core: the names most hosts need, by name. Each concern has its own subpath with everything it exports:
// @heddle/core/sessions, /tools, /hooks, /safety, /compaction, /checkpoints, /plugins, /host, /testing (vitest).
// teams/ and mcp/ get their subpaths (@heddle/core/teams, @heddle/core/mcp) the same way: a folder with an
// index.ts, an entry in tsup.config.ts and in package.json "exports", and their front-door names below.

// File checkpoints
export { FileCheckpointer, type FileRestoreChange } from "./checkpoints/index.js";
// Compaction
export {
  type CompactionOptions,
  type CompactionStrategy,
  summarizingCompaction,
  truncatingCompaction,
} from "./compaction/index.js";
// Command hooks
export { createHookEngine, type HookEngine, type HookEngineOptions } from "./hooks/index.js";
// The agent host: every agent starts under a policy a child can only narrow
export {
  AgentHost,
  type AgentHostOptions,
  type AgentPolicy,
  type AgentSpec,
  createAgentHost,
  narrowPolicy,
  type PolicyNarrowing,
} from "./host/index.js";
// MCP
export {
  connectMcpServers,
  createMcpResourceTools,
  FileMcpOAuthStore,
  loadMcpConfig,
  McpAuthError,
  type McpConfig,
  McpConfigError,
  type McpConnection,
  type McpConnectOptions,
  type McpElicitationRequest,
  type McpElicitationResult,
  type McpSamplingRequest,
  type McpServerInfo,
  McpServerUnavailableError,
  type McpStatusChange,
  McpToolError,
  McpToolLimitError,
  promptMessagesToAgentMessages,
  withMcpTools,
} from "./mcp/index.js";
// Plugins
export { loadPlugins } from "./plugins/index.js";
// Safety
export { mergeHooks, type SafetyOptions } from "./safety/index.js";
// A session's own hook kinds, in code (command hooks are one source of them)
export type {
  PreCompactHookContext,
  SessionEndContext,
  SessionHookOptions,
  SessionLifecycleHooks,
  SessionStartContext,
  UserPromptSubmitContext,
} from "./sessions/index.js";
// Sessions
export {
  type CheckpointStore,
  createSession,
  defaultSessionDbPath,
  type FileCheckpoint,
  InvalidSessionInputError,
  MemorySessionStore,
  MessageNotFoundError,
  openSession,
  PostgresSessionStore,
  type PostgresSessionStoreOptions,
  type RewindPreview,
  type RewindResult,
  SessionConflictError,
  SessionDatabaseError,
  type SessionEvent,
  type SessionEventType,
  SessionExistsError,
  type SessionListener,
  SessionNotFoundError,
  type SessionOptions,
  type SessionRecord,
  type SessionRunStream,
  SessionRuntime,
  type SessionStore,
  SessionStoreClosedError,
  SessionStoreError,
  type SessionStoreErrorCode,
  type SessionTools,
  type SessionUsage,
  SessionWriteError,
  SqliteSessionStore,
  type SqliteSessionStoreOptions,
  type StoredMessage,
  type TranscriptStore,
  type UnreadableRow,
  type UsageStore,
  type WorkingContext,
  type WorkingContextStore,
} from "./sessions/index.js";
// Sub-agents and teams
export {
  AgentTeamManager,
  type AgentTeamManagerOptions,
  type BuildTeammate,
  createSpawnAgentTool,
  createTeamTaskTool,
  createTeamTools,
  DEFAULT_MAX_SPAWNS,
  DEFAULT_SUBAGENT_PROMPT,
  formatShutdownApproved,
  formatShutdownRequest,
  InMemoryTeamMailbox,
  InMemoryTeamRoster,
  isSubagentUpdate,
  parseTeamControlMessage,
  RedisTeamMailbox,
  type RedisTeamMailboxOptions,
  RedisTeamRoster,
  type RedisTeamRosterOptions,
  runTeamWorker,
  type SpawnAgentToolOptions,
  SqliteTeamMailbox,
  SqliteTeamRoster,
  type SubagentUpdate,
  TeamAgentExistsError,
  TeamDatabaseError,
  TeamError,
  TeamLimitError,
  type TeamLimits,
  type TeamMailbox,
  type TeamMailboxMessage,
  type TeamMessageKind,
  TeamMessageTooLargeError,
  type TeammateEvent,
  type TeammateOptions,
  TeammateRunner,
  type TeammateSpec,
  type TeammateStatus,
  type TeamRoster,
  type TeamRosterEntry,
  type TeamTask,
  TeamTaskError,
  type TeamUsage,
  type TeamWorkerOptions,
  type TeamWorkerResult,
  type TeamWorkerTeammate,
  type TeamWorkerTeammateResult,
} from "./teams/index.js";
// Default tools
export { createDefaultTools, type DefaultToolsOptions, defaultToolPolicies, type ToolPreset } from "./tools/index.js";
