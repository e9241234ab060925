export { Agent, type AgentRunStream, AgentRuntime, createAgent, createAgentRuntime } from "./agent-runtime.js";
export { isContextMessage } from "./context-message.js";
export {
  AgentRuntimeAbortError,
  AgentRuntimeError,
  type AgentRuntimeErrorCode,
  isAgentRuntimeAbortError,
} from "./errors.js";
export { allOf, anyOf, costExceeds, hasToolCall, stepCountIs, tokensExceed } from "./stop-conditions.js";
export { DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_PARALLEL_TOOLS } from "./validate-config.js";
