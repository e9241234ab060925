// What a host writes against, so a host can depend on @heddle/agents alone: the tool factory and the contract's
// host-facing types, the same objects as @heddle/shared's.
export {
  type AgentHooks,
  type AgentMessage,
  type AgentPlugin,
  type AgentRunResult,
  type AgentRuntimeConfig,
  type AgentRuntimeEvent,
  type AgentSnapshot,
  type AgentTool,
  createTool,
  type ToolContext,
} from "@heddle/shared";
export { Agent, type AgentRunStream, AgentRuntime, createAgent, createAgentRuntime } from "./agent-runtime.js";
export { isContextMessage } from "./context-message.js";
export {
  AgentRuntimeAbortError,
  AgentRuntimeError,
  type AgentRuntimeErrorCode,
  HookError,
  isAgentRuntimeAbortError,
} from "./errors.js";
export { mergeHooks } from "./hooks.js";
export { MAX_PENDING_UPDATES_PER_CALL } from "./run-stream.js";
export { allOf, anyOf, costExceeds, hasToolCall, stepCountIs, tokensExceed } from "./stop-conditions.js";
export { type AgentTelemetryOptions, childTelemetry, DEFAULT_MAX_CONTENT_LENGTH } from "./telemetry.js";
export {
  DEFAULT_MAX_COMPLETION_REMINDERS,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_MAX_PARALLEL_TOOLS,
  DEFAULT_PLUGIN_SETUP_TIMEOUT_MS,
} from "./validate-config.js";
