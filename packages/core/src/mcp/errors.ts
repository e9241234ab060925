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
