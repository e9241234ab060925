export {
  type CreateToolOptions,
  createTool,
  formatZodError,
  TOOL_NAME_PATTERN,
  ToolDefinitionError,
  zodToJsonSchema,
} from "./create-tool.js";
export { HEDDLE_ERROR_CODES, type HeddleErrorCode, type HeddleErrorCodeInfo } from "./error-codes.js";
export {
  ConfigError,
  consoleLogger,
  HeddleError,
  isHeddleError,
  type Logger,
  MissingDependencyError,
  silentLogger,
} from "./errors.js";
export { type EventQueue, type EventStream, eventStream, FifoQueue } from "./event-stream.js";
export { createId } from "./ids.js";
export {
  assistantMessage,
  danglingToolCalls,
  getMessageText,
  getToolCalls,
  getToolResults,
  imagePart,
  normalizeRunInput,
  textPart,
  toolOutputText,
  toolResultMessage,
  userMessage,
} from "./messages.js";
export { priceUsage, usageCostUsd } from "./pricing.js";
export { stableStringify } from "./stable-stringify.js";
export { clampTimeoutMs, MAX_TIMEOUT_MS, type SafeTimeout, setSafeTimeout } from "./timers.js";
export { estimateMessageTokens, estimateTokens } from "./tokens.js";
export * from "./types/index.js";
export { addUsage, emptyUsage, promptTokens } from "./usage.js";
