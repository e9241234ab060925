import { createHash } from "node:crypto";

/** The longest tool name every vendor accepts (OpenAI and Anthropic allow 64). */
export const MAX_TOOL_NAME_LENGTH = 64;

/** One MCP tool to be named: the server's name in the config and the tool's name on that server. */
export interface McpToolIdentity {
  server: string;
  tool: string;
}

/** Replaces every character outside `[A-Za-z0-9_-]` with `_`. */
export function sanitizeToolNamePart(part: string): string {
  const cleaned = part.replace(/[^A-Za-z0-9_-]/g, "_");
  return cleaned === "" ? "_" : cleaned;
}

/** `mcp__<server>__<tool>`, sanitized; may exceed 64 characters (see `assignMcpToolNames`). */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${sanitizeToolNamePart(server)}__${sanitizeToolNamePart(tool)}`;
}

/**
 * Names for a set of MCP tools: `mcp__<server>__<tool>`, only `[A-Za-z0-9_-]`, at most 64 characters, all unique.
 * A name that had to be cut, or that collides with another after sanitizing, gets `_` and six hex digits of a hash
 * of its original server and tool names. The suffix depends only on that identity, never on order, so a tool
 * keeps its name across restarts and when other tools come and go; a tool whose sanitized name is its own
 * (nothing replaced, nothing cut) keeps the plain name even when a look-alike appears.
 * Returns the names in the order of `tools`.
 */
export function assignMcpToolNames(tools: readonly McpToolIdentity[]): string[] {
  const plain = tools.map((t) => mcpToolName(t.server, t.tool));
  const exact = tools.map((t, i) => plain[i] === `mcp__${t.server}__${t.tool}`);
  const groups = new Map<string, number[]>();
  // Names over the limit are grouped too but never looked up: each is cut and hashed on its own below.
  plain.forEach((name, i) => {
    groups.set(name, [...(groups.get(name) ?? []), i]);
  });
  const names = plain.map((name, i) => {
    if (name.length > MAX_TOOL_NAME_LENGTH) return suffixed(name, tools[i]!);
    const group = groups.get(name)!;
    if (group.length === 1) return name;
    // Among look-alikes, the one spelled exactly so keeps the name; the others are told apart by their hash.
    const owner = group.find((j) => exact[j]);
    return owner === i ? name : suffixed(name, tools[i]!);
  });
  // A hash suffix could, in theory, still collide: settle it deterministically by position.
  const seen = new Set<string>();
  return names.map((name) => {
    let unique = name;
    for (let n = 2; seen.has(unique); n++) {
      const tail = `_${n}`;
      unique = `${name.slice(0, MAX_TOOL_NAME_LENGTH - tail.length)}${tail}`;
    }
    seen.add(unique);
    return unique;
  });
}

function suffixed(name: string, identity: McpToolIdentity): string {
  const hash = createHash("sha256").update(`${identity.server}\u0000${identity.tool}`).digest("hex").slice(0, 6);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - 7)}_${hash}`;
}
