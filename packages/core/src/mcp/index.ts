// MCP client on the official SDK: servers over stdio and HTTP, their tools as AgentTools. See docs/mcp.md.

export type { McpRoot } from "./client-features.js";
export {
  expandEnvVars,
  isHttpServerConfig,
  loadMcpConfig,
  type McpConfig,
  type McpConfigOptions,
  type McpHttpServerConfig,
  type McpOAuthConfig,
  type McpServerConfig,
  type McpStdioServerConfig,
  parseMcpConfig,
} from "./config.js";
export {
  connectMcpServers,
  isMcpTool,
  type McpAgentTool,
  type McpConnection,
  type McpConnectOptions,
  type McpServerInfo,
  type McpServerStatus,
  type McpStatusChange,
  withMcpTools,
} from "./connection.js";
export type { McpElicitationHandler, McpElicitationRequest, McpElicitationResult } from "./elicitation.js";
export {
  McpAuthError,
  McpConfigError,
  McpServerUnavailableError,
  McpToolError,
  type McpToolLimitCode,
  McpToolLimitError,
} from "./errors.js";
export { assignMcpToolNames, MAX_TOOL_NAME_LENGTH, type McpToolIdentity, mcpToolName } from "./names.js";
export {
  DEFAULT_OAUTH_REDIRECT_URL,
  FileMcpOAuthStore,
  type McpAuthorizationUrlHandler,
  type McpOAuthRecord,
  type McpOAuthStore,
  MemoryMcpOAuthStore,
} from "./oauth.js";
export { type McpPrompt, type McpPromptResult, promptMessagesToAgentMessages } from "./prompts.js";
export { createMcpResourceTools, type McpResourceToolsOptions } from "./resource-tools.js";
export type { McpResource, McpResourceContents, McpResourceTemplate, McpResourceUpdate } from "./resources.js";
export { type McpCallToolResultLike, type McpResultLimits, mapMcpToolResult } from "./results.js";
export type { McpSamplingDecision, McpSamplingOptions, McpSamplingRequest } from "./sampling.js";
export { DEFAULT_MCP_TOOL_LIMITS, type McpToolIssue, type McpToolLimits } from "./tool-limits.js";
export { McpTransportFallbackError } from "./transport.js";
