import { describe, expect, it } from "vitest";
import { assignMcpToolNames, MAX_TOOL_NAME_LENGTH, mcpToolName } from "./names.js";

const VALID = /^[A-Za-z0-9_-]+$/;

describe("MCP tool names", () => {
  it("are mcp__<server>__<tool> with every other character replaced by _", () => {
    expect(mcpToolName("github", "create_issue")).toBe("mcp__github__create_issue");
    expect(mcpToolName("my.server", "read file/v2")).toBe("mcp__my_server__read_file_v2");
    expect(mcpToolName("ünï", "tool:é")).toBe("mcp___n___tool__");
    expect(assignMcpToolNames([{ server: "fs", tool: "read-file" }])).toEqual(["mcp__fs__read-file"]);
    // A sanitized name with no look-alike is the plain name too: no hash suffix.
    expect(assignMcpToolNames([{ server: "my.server", tool: "read file/v2" }])).toEqual([
      "mcp__my_server__read_file_v2",
    ]);
    // An empty part still leaves a part, so the name keeps its mcp__<server>__<tool> shape.
    expect(mcpToolName("fs", "")).toBe("mcp__fs___");
  });

  it("keep a name of exactly 64 characters whole, and cut one of 65", () => {
    const prefix = "mcp__s__";
    const exactly = { server: "s", tool: "t".repeat(MAX_TOOL_NAME_LENGTH - prefix.length) };
    const over = { server: "s", tool: "u".repeat(MAX_TOOL_NAME_LENGTH - prefix.length + 1) };
    const [kept, cut] = assignMcpToolNames([exactly, over]);
    expect(kept).toBe(`${prefix}${exactly.tool}`);
    expect(kept).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(cut).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(cut).toMatch(/^mcp__s__u+_[0-9a-f]{6}$/);
  });

  it("stay unique when a tool is literally named like another tool's hashed name", () => {
    const [hashed] = assignMcpToolNames([
      { server: "fs", tool: "read.file" },
      { server: "fs", tool: "read_file" },
    ]);
    const literal = (name: string) => ({ server: "fs", tool: name.slice("mcp__fs__".length) });
    const names = assignMcpToolNames([
      { server: "fs", tool: "read.file" },
      { server: "fs", tool: "read_file" },
      literal(`${hashed}_2`),
      literal(hashed!),
    ]);
    // Earlier positions keep their names; the later twin counts up past every name already taken.
    expect(names).toEqual([hashed, "mcp__fs__read_file", `${hashed}_2`, `${hashed}_3`]);
    for (const name of names) expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
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
