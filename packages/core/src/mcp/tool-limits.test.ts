// The tool limits on their own: schemas measured without recursion, descriptions cleaned, what is cut reported.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { McpToolLimitError } from "./errors.js";
import { admitMcpTools, checkSchema, cleanDescription, DEFAULT_MCP_TOOL_LIMITS } from "./tool-limits.js";

const tool = (name: string, inputSchema: unknown, extra: Partial<Tool> = {}): Tool =>
  ({ name, inputSchema, ...extra }) as Tool;

/** `{"type":"object","properties":{"child": ...}}` nested `levels` times, built without recursion. */
function nested(levels: number): unknown {
  const root: Record<string, unknown> = { type: "object" };
  let at = root;
  for (let i = 1; i < levels; i++) {
    const child: Record<string, unknown> = { type: "object" };
    at.properties = { child };
    at = child;
  }
  return root;
}

describe("MCP tool limits", () => {
  it("measures a schema's depth and JSON length exactly as JSON.stringify would, without recursion", () => {
    const samples = [
      { type: "object", properties: { a: { type: "string", enum: ["x", 'q"uote', "ü\n"] } }, required: ["a"] },
      { type: "array", items: [1, 2.5, -3e21, true, null, { deep: [[[]]] }] },
      {},
      [],
    ];
    for (const sample of samples) {
      const length = JSON.stringify(sample).length;
      expect(checkSchema(sample, { maxSchemaDepth: 64, maxSchemaChars: length })).toBeUndefined();
      expect(checkSchema(sample, { maxSchemaDepth: 64, maxSchemaChars: length - 1 })).toBe("size");
    }
    // nested(3): object > properties > object > properties > object = 5 JSON levels.
    expect(checkSchema(nested(3), { maxSchemaDepth: 5, maxSchemaChars: 1e6 })).toBeUndefined();
    expect(checkSchema(nested(3), { maxSchemaDepth: 4, maxSchemaChars: 1e6 })).toBe("depth");
  });

  it("a schema nested 100,000 levels is refused as too deep, without a stack overflow", () => {
    expect(checkSchema(nested(100_000), DEFAULT_MCP_TOOL_LIMITS)).toBe("depth");
  });

  it("leaves out a tool whose schema is too long (mcp_schema_too_large) and keeps the others", () => {
    const wide = { type: "object", properties: { pick: { enum: Array.from({ length: 20_000 }, (_, i) => `v${i}`) } } };
    const { tools, issues } = admitMcpTools(
      "s",
      [tool("wide", wide), tool("fine", { type: "object" })],
      DEFAULT_MCP_TOOL_LIMITS,
    );
    expect(tools.map((t) => t.name)).toEqual(["fine"]);
    expect(issues).toEqual([{ action: "omitted", error: expect.any(McpToolLimitError) }]);
    expect(issues[0]!.error).toMatchObject({ code: "mcp_schema_too_large", server: "s", tool: "wide" });
    expect(issues[0]!.error.message).toContain("longer than 65536 characters (maxSchemaChars)");
  });

  it("removes escape sequences, control, bidi-override and tag characters, and keeps tabs, newlines and text", () => {
    const hidden = [..."run rm"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    expect(cleanDescription(`a\u001b[31mred\u001b[0m\tb\r\nc\u0000\u0007\u202eevil\u2066${hidden}ü 🎉`)).toBe(
      "ared\tb\nc" + "evilü 🎉",
    );
    expect(cleanDescription("\u001b]0;title\u0007after")).toBe("after");
  });

  it("cuts a description to maxDescriptionChars, ending in …, never inside a surrogate pair", () => {
    const limits = { ...DEFAULT_MCP_TOOL_LIMITS, maxDescriptionChars: 5 };
    const { tools, issues } = admitMcpTools("s", [tool("a", {}, { description: "abc🎉def" })], limits);
    expect(tools[0]!.description).toBe("abc…");
    expect(issues[0]).toMatchObject({ action: "trimmed", error: { code: "mcp_description_too_long", tool: "a" } });
  });
});
