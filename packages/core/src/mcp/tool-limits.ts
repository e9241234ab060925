import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { McpToolLimitError } from "./errors.js";

/**
 * Bounds on what one MCP server may hand the host. A server is a program someone else wrote: its tool list goes
 * into every model request, and its schemas are walked by validators and serializers that recurse.
 */
export interface McpToolLimits {
  /** Tools taken from one server, in the order it lists them; the rest are left out (default 128, OpenAI's cap per request). */
  maxToolsPerServer?: number;
  /** Characters of a tool description kept once control characters are removed; longer ones are cut (default 2,048). */
  maxDescriptionChars?: number;
  /** Deepest nesting of a tool's input or output schema, in JSON levels; a deeper tool is left out (default 64). */
  maxSchemaDepth?: number;
  /** Longest input or output schema, in characters of its JSON; a longer tool is left out (default 65,536). */
  maxSchemaChars?: number;
}

export const DEFAULT_MCP_TOOL_LIMITS: Readonly<Required<McpToolLimits>> = {
  maxToolsPerServer: 128,
  maxDescriptionChars: 2048,
  maxSchemaDepth: 64,
  maxSchemaChars: 65_536,
};

/** A tool a server offered that a limit left out (`omitted`) or whose description it cut (`trimmed`). */
export interface McpToolIssue {
  action: "omitted" | "trimmed";
  error: McpToolLimitError;
}

/** What `admitMcpTools` keeps of a server's list, and what it reports. */
export interface AdmittedTools {
  tools: Tool[];
  issues: McpToolIssue[];
}

/**
 * Applies `limits` to the tools a server listed: only the first `maxToolsPerServer` are considered (`more`: the
 * listing stopped early because the server had more), a tool whose input or output schema is too deep or too long
 * is left out, and descriptions are cleaned and cut. Never throws, whatever the server sent: it walks schemas
 * without recursion.
 */
export function admitMcpTools(
  server: string,
  offered: readonly Tool[],
  limits: Readonly<Required<McpToolLimits>>,
  more = false,
): AdmittedTools {
  const issues: McpToolIssue[] = [];
  const considered = offered.slice(0, limits.maxToolsPerServer);
  if (more || offered.length > limits.maxToolsPerServer) {
    const count = `${more ? "more than " : ""}${offered.length}`;
    issues.push({
      action: "omitted",
      error: new McpToolLimitError(
        "mcp_too_many_tools",
        server,
        undefined,
        `MCP server "${server}" offered ${count} tools; only the first ${limits.maxToolsPerServer} are used ` +
          "(maxToolsPerServer).",
      ),
    });
  }
  const tools: Tool[] = [];
  for (const tool of considered) {
    const name = displayName(tool.name);
    const schemaProblem = checkSchema(tool.inputSchema, limits) ?? checkSchema(tool.outputSchema, limits);
    if (schemaProblem) {
      const [code, what] =
        schemaProblem === "depth"
          ? (["mcp_schema_too_deep", `nests deeper than ${limits.maxSchemaDepth} levels (maxSchemaDepth)`] as const)
          : (["mcp_schema_too_large", `is longer than ${limits.maxSchemaChars} characters (maxSchemaChars)`] as const);
      const message = `MCP server "${server}": the schema of tool "${name}" ${what}; the tool was left out.`;
      issues.push({ action: "omitted", error: new McpToolLimitError(code, server, name, message) });
      continue;
    }
    const admitted: Tool = { ...tool };
    for (const field of ["description", "title"] as const) {
      const raw = tool[field];
      if (typeof raw !== "string") continue;
      const cleaned = cleanDescription(raw);
      const kept = cutText(cleaned, limits.maxDescriptionChars);
      admitted[field] = kept;
      if (kept === cleaned) continue;
      const message =
        `MCP server "${server}": the ${field} of tool "${name}" had ${cleaned.length} characters; it was cut to ` +
        `${limits.maxDescriptionChars} (maxDescriptionChars).`;
      issues.push({
        action: "trimmed",
        error: new McpToolLimitError("mcp_description_too_long", server, name, message),
      });
    }
    tools.push(admitted);
  }
  return { tools, issues };
}

/**
 * The SDK client compiles every tool's output schema with Ajv inside `listTools`, recursively: a 5,000-level schema
 * overflowed the stack there and failed the whole server. This provider refuses an out-of-bounds schema (its tool is
 * left out by `admitMcpTools` anyway) and turns any compile error into a failed validation of that tool's output.
 */
export function boundedSchemaValidator(limits: Readonly<Required<McpToolLimits>>): jsonSchemaValidator {
  const ajv = new AjvJsonSchemaValidator();
  const refuse = (errorMessage: string) => () => ({ valid: false as const, data: undefined, errorMessage });
  return {
    getValidator(schema) {
      if (checkSchema(schema, limits)) return refuse("the tool's output schema is outside the host's limits");
      try {
        return ajv.getValidator(schema);
      } catch (error) {
        return refuse(`the tool's output schema could not be compiled: ${(error as Error)?.message}`);
      }
    },
  };
}

/**
 * `depth` when `value` nests deeper than `maxSchemaDepth` (the root object is level 1), `size` when its JSON text
 * would be longer than `maxSchemaChars`, else undefined. Iterative, and it stops at the first limit crossed.
 */
export function checkSchema(
  value: unknown,
  limits: Pick<Required<McpToolLimits>, "maxSchemaDepth" | "maxSchemaChars">,
): "depth" | "size" | undefined {
  if (value === undefined) return undefined;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  let chars = 0;
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop()!;
    if (item !== null && typeof item === "object") {
      if (depth > limits.maxSchemaDepth) return "depth";
      const entries = Array.isArray(item) ? item.map((v) => ["", v] as const) : Object.entries(item);
      // Brackets, the commas between entries, and for objects each key with its quotes and colon.
      chars += 2 + Math.max(0, entries.length - 1);
      for (const [key, child] of entries) {
        if (!Array.isArray(item)) chars += jsonStringLength(key) + 1;
        stack.push({ value: child, depth: depth + 1 });
      }
    } else {
      chars += typeof item === "string" ? jsonStringLength(item) : String(JSON.stringify(item) ?? "null").length;
    }
    if (chars > limits.maxSchemaChars) return "size";
  }
  return undefined;
}

function jsonStringLength(text: string): number {
  return JSON.stringify(text).length;
}

// Terminal escape sequences (CSI and OSC), then control characters other than tab and line feed, bidirectional
// embeddings, overrides and isolates (text that reads differently than it is), and Unicode tag characters
// (invisible text a model still reads).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what these are for
const ESCAPE_SEQUENCES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?)/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what these are for
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]/gu;

/** A description as a model should see it: no escape sequences, control, bidi-override or tag characters. */
export function cleanDescription(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, "").replace(INVISIBLE, "");
}

/** `text` cut to at most `max` characters (the last one `…`), never inside a surrogate pair. */
function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** A tool name fit for a report: cleaned and at most 100 characters. */
function displayName(name: string): string {
  return cutText(cleanDescription(String(name)), 100);
}
