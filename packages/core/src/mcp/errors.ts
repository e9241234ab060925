import { ConfigError, HeddleError } from "@heddle/shared";

/** An MCP config file or object is wrong: unreadable, not the `mcpServers` shape, or a `${VAR}` that is not set. */
export class McpConfigError extends ConfigError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "McpConfigError";
  }
}

/** The server answered a tool call with `isError: true`. Code `mcp_tool_error`; the message is the server's text. */
export class McpToolError extends HeddleError {
  readonly server: string;
  readonly tool: string;
  constructor(server: string, tool: string, message: string) {
    super("mcp_tool_error", message);
    this.name = "McpToolError";
    this.server = server;
    this.tool = tool;
  }
}

/** A tool was called on a server that is not connected (failed, died or closed). Code `mcp_server_unavailable`. */
export class McpServerUnavailableError extends HeddleError {
  readonly server: string;
  constructor(server: string, message: string, options?: { cause?: unknown }) {
    super("mcp_server_unavailable", message, options);
    this.name = "McpServerUnavailableError";
    this.server = server;
  }
}

/**
 * Signing in to an MCP server over OAuth failed: the host gives no `onAuthorizationUrl`, the sign-in was refused or
 * did not come in time, or the callback was forged or stale. Code `mcp_auth_failed`.
 */
export class McpAuthError extends HeddleError {
  readonly server: string;
  constructor(server: string, message: string) {
    super("mcp_auth_failed", message);
    this.name = "McpAuthError";
    this.server = server;
  }
}

/**
 * Codes of `McpToolLimitError`: a tool's input or output schema nests deeper than `maxSchemaDepth`
 * (`mcp_schema_too_deep`) or is longer than `maxSchemaChars` (`mcp_schema_too_large`), its description was longer than
 * `maxDescriptionChars` (`mcp_description_too_long`), or the server offered more than `maxToolsPerServer` tools
 * (`mcp_too_many_tools`).
 */
export type McpToolLimitCode =
  | "mcp_schema_too_deep"
  | "mcp_schema_too_large"
  | "mcp_description_too_long"
  | "mcp_too_many_tools";

/** What a server offered went past a limit of `connectMcpServers`: that tool was left out or its description cut. */
export class McpToolLimitError extends HeddleError {
  declare readonly code: McpToolLimitCode;
  readonly server: string;
  /** The server's own name of the tool (cut to 100 characters); unset for `mcp_too_many_tools`. */
  readonly tool: string | undefined;
  constructor(code: McpToolLimitCode, server: string, tool: string | undefined, message: string) {
    super(code, message);
    this.name = "McpToolLimitError";
    this.server = server;
    this.tool = tool;
  }
}
