// Resources offered to the model as tools, for hosts that want the model to find and read them itself.
import { type AgentTool, createTool } from "@heddle/shared";
import { z } from "zod";
import type { McpConnection } from "./connection.js";
import { DEFAULT_MCP_MAX_OUTPUT_BYTES, mapMcpToolResult } from "./results.js";

/** Options of `createMcpResourceTools`. */
export interface McpResourceToolsOptions {
  /** Text kept from one read, head and tail (default 30 000 bytes, as for tool results). */
  maxOutputBytes?: number;
  /** The most resources and templates one listing shows the model (default 200). */
  maxListed?: number;
}

/**
 * Two read-only tools over a connection's resources: `mcp_list_resources {server?}` (the resources and resource
 * templates of every connected server, or one) and `mcp_read_resource {server, uri}` (text as text, images as
 * images). Add them to a session's tools where the model should see resources; they follow the same policies and
 * approvals as any tool. See docs/mcp.md#resources.
 */
export function createMcpResourceTools(
  connection: Pick<McpConnection, "listResources" | "listResourceTemplates" | "readResource">,
  options: McpResourceToolsOptions = {},
): AgentTool[] {
  const maxListed = options.maxListed ?? 200;
  const list = createTool({
    name: "mcp_list_resources",
    description:
      "List the resources (files, records, documents) that the connected MCP servers offer, with their URIs, and " +
      "the URI templates they accept. Read one with mcp_read_resource.",
    input: z.object({ server: z.string().optional().describe("Only this server's resources") }),
    execute: async ({ server }) => {
      const [resources, templates] = await Promise.all([
        connection.listResources(server),
        connection.listResourceTemplates(server),
      ]);
      const lines = [
        ...resources.map((r) => {
          const about = [r.mimeType, r.description].filter(Boolean).join(", ");
          return `${r.server}  ${r.uri}  ${r.title ?? r.name}${about ? ` (${about})` : ""}`;
        }),
        ...templates.map((t) => `${t.server}  ${t.uriTemplate}  ${t.title ?? t.name} (template)`),
      ];
      if (lines.length === 0) return "No MCP server offers resources.";
      const shown = lines.slice(0, maxListed);
      const more = lines.length > shown.length ? `\n... and ${lines.length - shown.length} more` : "";
      return `server  uri  name\n${shown.join("\n")}${more}`;
    },
  });
  const read = createTool({
    name: "mcp_read_resource",
    description: "Read one resource of an MCP server by its URI (from mcp_list_resources, or a filled-in template).",
    input: z.object({ server: z.string().describe("The server's name"), uri: z.string().describe("The resource URI") }),
    execute: async ({ server, uri }, ctx) => {
      const contents = await connection.readResource(server, uri, { signal: ctx.signal });
      return mapMcpToolResult(
        { content: contents.map((resource) => ({ type: "resource", resource })) },
        { server, tool: "resources/read" },
        { maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MCP_MAX_OUTPUT_BYTES },
      );
    },
  });
  return [
    { ...list, readOnly: true },
    { ...read, readOnly: true },
  ];
}
