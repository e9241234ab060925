export {
  createInMemoryTeamMailboxData,
  createInMemoryTeamRosterData,
  InMemoryTeamMailbox,
  type InMemoryTeamMailboxData,
  type InMemoryTeamMailboxOptions,
  InMemoryTeamRoster,
  type InMemoryTeamRosterData,
  type InMemoryTeamRosterOptions,
} from "../backends/memory/index.js";
export {
  type RedisClientLike,
  type RedisRosterClientLike,
  RedisTeamMailbox,
  type RedisTeamMailboxOptions,
  RedisTeamRoster,
  type RedisTeamRosterOptions,
} from "../backends/redis/index.js";
export {
  SqliteTeamMailbox,
  type SqliteTeamMailboxOptions,
  SqliteTeamRoster,
  type SqliteTeamRosterOptions,
} from "../backends/sqlite/index.js";
export {
  TeamAgentExistsError,
  TeamDatabaseError,
  TeamError,
  type TeamErrorCode,
  TeamLimitError,
  type TeamLimitName,
  TeamMessageTooLargeError,
  TeamTaskError,
} from "./errors.js";
export { escapeFrameBody } from "./frames.js";
export {
  DEFAULT_MAILBOX_MAX_MESSAGE_BYTES,
  type SendTeamMessageInput,
  TEAM_MESSAGE_KINDS,
  type TeamMailbox,
  type TeamMailboxMessage,
  type TeamMessageKind,
} from "./mailbox.js";
export {
  formatShutdownApproved,
  formatShutdownRequest,
  parseTeamControlMessage,
  type TeamControlKind,
  type TeamControlMessage,
} from "./protocol.js";
export type {
  CreateTeamRosterEntry,
  TeamLeaseGrant,
  TeammateSpec,
  TeamRoster,
  TeamRosterEntry,
  TeamTask,
  TeamTaskBoard,
} from "./roster.js";
export {
  createSpawnAgentTool,
  DEFAULT_MAX_SPAWNS,
  DEFAULT_SUBAGENT_PROMPT,
  isSubagentUpdate,
  SPAWN_AGENT_TOOL_NAME,
  type SpawnAgentInput,
  type SpawnAgentToolOptions,
  type SubagentUpdate,
} from "./spawn-agent.js";
export { DEFAULT_TEAM_LIMITS, type TeamLimits } from "./team-governor.js";
export {
  AgentTeamManager,
  type AgentTeamManagerOptions,
  type TeamListener,
  type WithRoster,
} from "./team-manager.js";
export { createTeamTaskTool } from "./team-task-tool.js";
export { createTeamTools, type TeamToolName, type TeamToolsOptions } from "./team-tools.js";
export { createTeamWaitTool, TEAM_WAIT_DEFAULT_SECONDS, TEAM_WAIT_MAX_SECONDS } from "./team-wait-tool.js";
export {
  runTeamWorker,
  type TeamWorkerOptions,
  type TeamWorkerResult,
  type TeamWorkerTeammate,
  type TeamWorkerTeammateResult,
} from "./team-worker.js";
export {
  type TeammateEvent,
  type TeammateOptions,
  TeammateRunner,
  type TeammateState,
  type TeammateStatus,
  type TeammateStopReason,
  type TeammateTurnResult,
  type TeamUsage,
  teamTurnMessageId,
} from "./teammate-runner.js";
export type { BuildTeammate } from "./teammate-spec.js";
