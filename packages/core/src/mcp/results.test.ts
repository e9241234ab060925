import { describe, expect, it } from "vitest";
import { McpToolError } from "./errors.js";
import { mapMcpToolResult } from "./results.js";

const id = { server: "s", tool: "t" };

describe("mapMcpToolResult", () => {
  it("appends structuredContent as JSON when the result has no text of its own, and not when it has", () => {
    expect(mapMcpToolResult({ content: [], structuredContent: { temperature: 21 } }, id)).toBe('{"temperature":21}');
    expect(
      mapMcpToolResult({ content: [{ type: "text", text: "21 degrees" }], structuredContent: { temperature: 21 } }, id),
    ).toBe("21 degrees");
  });

  it("shows resource links and binary resources as text with their URIs, an image resource as an image", () => {
    const output = mapMcpToolResult(
      {
        content: [
          { type: "resource_link", uri: "file:///a.txt", name: "a.txt" },
          { type: "resource", resource: { uri: "file:///b.bin", mimeType: "application/zip", blob: "AAAA" } },
          { type: "resource", resource: { uri: "file:///c.png", mimeType: "image/png", blob: "iVBORw0K" } },
        ],
      },
      id,
    );
    expect(output).toEqual([
      { type: "text", text: "[resource a.txt <file:///a.txt>]" },
      { type: "text", text: "[resource <file:///b.bin> application/zip: 3 bytes of binary data]" },
      { type: "image", mediaType: "image/png", data: "iVBORw0K" },
    ]);
  });

  it("caps text like bash output: head and tail kept, the middle counted", () => {
    const text = `${"a".repeat(5000)}${"b".repeat(5000)}`;
    const output = mapMcpToolResult({ content: [{ type: "text", text }] }, id, { maxOutputBytes: 1000 }) as string;
    expect(output.length).toBeLessThan(1100);
    expect(output.startsWith("a".repeat(500))).toBe(true);
    expect(output.endsWith("b".repeat(500))).toBe(true);
    expect(output).toContain("9000 bytes of output omitted");
  });

  it("throws McpToolError with the text of an isError result", () => {
    expect(() => mapMcpToolResult({ isError: true, content: [{ type: "text", text: "no such repo" }] }, id)).toThrow(
      McpToolError,
    );
    expect(() => mapMcpToolResult({ isError: true, content: [] }, id)).toThrow(/without a message/);
  });
});
