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

  it("maps images (an over-cap one to a note), audio, text resources, described links and unknown content", () => {
    const png = "iVBORw0KGgo=";
    const output = mapMcpToolResult(
      {
        content: [
          { type: "text", text: "look:" },
          { type: "image", mimeType: "image/png", data: png },
          { type: "image", mimeType: "image/jpeg", data: "A".repeat(16) },
          { type: "audio", mimeType: "audio/wav", data: "AAAAAAAA" },
          { type: "resource", resource: { uri: "file:///n.md", mimeType: "text/markdown", text: "# notes" } },
          { type: "resource", resource: { uri: "file:///plain", text: "body" } },
          { type: "resource", resource: { uri: "file:///big.png", mimeType: "image/png", blob: "A".repeat(16) } },
          { type: "resource", resource: { uri: "file:///raw" } },
          { type: "resource_link", uri: "file:///d", description: "the docs" },
          { type: "video", url: "x" },
        ],
      },
      id,
      { maxImageBytes: 9 }, // the PNG is exactly 9 bytes: at the cap it is kept
    );
    expect(output).toEqual([
      { type: "text", text: "look:" },
      { type: "image", mediaType: "image/png", data: png },
      { type: "text", text: "[image image/jpeg omitted: larger than the cap]" },
      { type: "text", text: "[audio audio/wav, 6 bytes, not shown]" },
      { type: "text", text: "[resource <file:///n.md> text/markdown]\n# notes" },
      { type: "text", text: "[resource <file:///plain>]\nbody" },
      { type: "text", text: "[resource <file:///big.png> image/png: 12 bytes of binary data]" },
      { type: "text", text: "[resource <file:///raw>: 0 bytes of binary data]" },
      { type: "text", text: "[resource <file:///d>: the docs]" },
      { type: "text", text: '[unsupported MCP content: {"type":"video","url":"x"}]' },
    ]);
  });

  it("reads an old server's toolResult, and ignores it when the result has content", () => {
    expect(mapMcpToolResult({ toolResult: "plain" }, id)).toBe("plain");
    expect(mapMcpToolResult({ toolResult: { rows: 2 } }, id)).toBe('{"rows":2}');
    expect(mapMcpToolResult({ content: [{ type: "text", text: "new" }], toolResult: "old" }, id)).toBe("new");
    expect(mapMcpToolResult({ content: "not a list", toolResult: "old" } as never, id)).toBe("old");
  });

  it("caps all text of a result with images as one part ahead of the images; joins texts with newlines", () => {
    const image = { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" };
    const output = mapMcpToolResult(
      { content: [{ type: "text", text: "a".repeat(600) }, image, { type: "text", text: "b".repeat(600) }] },
      id,
      { maxOutputBytes: 500 },
    ) as Array<{ type: string; text?: string }>;
    expect(output.map((p) => p.type)).toEqual(["text", "image"]);
    expect(output[0]!.text).toMatch(/^a+[\s\S]*omitted[\s\S]*b+$/);
    expect(Buffer.byteLength(output[0]!.text!)).toBeLessThan(600);
    const two = [
      { type: "text", text: "one" },
      { type: "text", text: "two" },
    ];
    expect(mapMcpToolResult({ content: two }, id)).toBe("one\ntwo");
    // Exactly at the cap nothing is cut.
    expect(mapMcpToolResult({ content: two }, id, { maxOutputBytes: 7 })).toBe("one\ntwo");
  });

  it("an isError result's McpToolError carries the result's text, capped", () => {
    const error = (() => {
      try {
        mapMcpToolResult({ isError: true, content: [{ type: "text", text: "no such repo" }] }, id);
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(McpToolError);
    expect(error!.message).toContain("no such repo");
  });
});
