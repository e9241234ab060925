import { describe, expect, it } from "vitest";
import { assignMcpToolNames, MAX_TOOL_NAME_LENGTH, mcpToolName } from "./names.js";

const VALID = /^[A-Za-z0-9_-]+$/;

describe("MCP tool names", () => {
  it("are mcp__<server>__<tool> with every other character replaced by _", () => {
    expect(mcpToolName("github", "create_issue")).toBe("mcp__github__create_issue");
    expect(mcpToolName("my.server", "read file/v2")).toBe("mcp__my_server__read_file_v2");
    expect(mcpToolName("ünï", "tool:é")).toBe("mcp___n___tool__");
    expect(assignMcpToolNames([{ server: "fs", tool: "read-file" }])).toEqual(["mcp__fs__read-file"]);
  });

  it("are cut to 64 characters with a hash suffix, so two long names sharing a prefix stay apart", () => {
    const long = "x".repeat(80);
    const names = assignMcpToolNames([
      { server: "server", tool: `${long}_one` },
      { server: "server", tool: `${long}_two` },
    ]);
    for (const name of names) {
      expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
      expect(name).toMatch(VALID);
      expect(name).toMatch(/^mcp__server__x+_[0-9a-f]{6}$/);
    }
    expect(new Set(names).size).toBe(2);
  });

  it("tell apart tools that sanitize to the same name; the one spelled so keeps the plain name", () => {
    const names = assignMcpToolNames([
      { server: "fs", tool: "read.file" },
      { server: "fs", tool: "read_file" },
      { server: "fs", tool: "read file" },
    ]);
    expect(names[1]).toBe("mcp__fs__read_file");
    expect(names[0]).toMatch(/^mcp__fs__read_file_[0-9a-f]{6}$/);
    expect(names[2]).toMatch(/^mcp__fs__read_file_[0-9a-f]{6}$/);
    expect(new Set(names).size).toBe(3);
  });

  it("tell apart servers whose names sanitize alike", () => {
    const names = assignMcpToolNames([
      { server: "my.server", tool: "t" },
      { server: "my server", tool: "t" },
    ]);
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(name).toMatch(VALID);
  });

  it("are stable: a tool's name does not depend on the order or on the other tools", () => {
    const a = { server: "fs", tool: "read.file" };
    const b = { server: "fs", tool: "read file" };
    const c = { server: "fs", tool: "read_file" };
    const first = assignMcpToolNames([a, b, c]);
    const reordered = assignMcpToolNames([c, b, a]);
    expect(reordered).toEqual([first[2], first[1], first[0]]);
    // `a` keeps its suffixed name when `b` goes away, as long as a look-alike (`c`) remains.
    expect(assignMcpToolNames([a, c])[0]).toBe(first[0]);
  });
});
