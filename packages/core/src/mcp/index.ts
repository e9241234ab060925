// MCP client on the official SDK: servers over stdio and HTTP, their tools as AgentTools. See docs/mcp.md.
export {
  expandEnvVars,
  isHttpServerConfig,
  loadMcpConfig,
  type McpConfig,
  type McpConfigOptions,
  type McpHttpServerConfig,
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
export {
  McpConfigError,
  McpServerUnavailableError,
  McpToolError,
  type McpToolLimitCode,
  McpToolLimitError,
} from "./errors.js";
export { assignMcpToolNames, MAX_TOOL_NAME_LENGTH, type McpToolIdentity, mcpToolName } from "./names.js";
export { type McpCallToolResultLike, type McpResultLimits, mapMcpToolResult } from "./results.js";
export { DEFAULT_MCP_TOOL_LIMITS, type McpToolIssue, type McpToolLimits } from "./tool-limits.js";
