import type { AgentTool } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { parseToolInput, validateToolInput } from "./tool-input.js";

describe("parseToolInput", () => {
  it("parses plain JSON and treats empty text as an empty object", () => {
    expect(parseToolInput('{"a":1}')).toEqual({ ok: true, value: { a: 1 }, repaired: false });
    expect(parseToolInput("")).toEqual({ ok: true, value: {}, repaired: false });
  });

  it("repairs common model mistakes", () => {
    expect(parseToolInput("{'a': 1, b: True,}")).toEqual({ ok: true, value: { a: 1, b: true }, repaired: true });
    expect(parseToolInput('{"path": "x.txt"')).toEqual({ ok: true, value: { path: "x.txt" }, repaired: true });
    expect(parseToolInput(JSON.stringify('{"a":2}'))).toEqual({ ok: true, value: { a: 2 }, repaired: true });
  });

  it("reports text that cannot be repaired", () => {
    const parse = parseToolInput("{]:::");
    expect(parse.ok).toBe(false);
  });
});

describe("validateToolInput", () => {
  const tool: AgentTool = {
    name: "read",
    description: "",
    inputSchema: {
      type: "object",
      properties: { path: { type: "string" }, limit: { type: "integer" } },
      required: ["path"],
      additionalProperties: false,
    },
    execute: () => "",
  };

  it("checks a JSON Schema and names each field that is wrong", () => {
    const outcome = validateToolInput(tool, { limit: "x", extra: 1 });
    expect(outcome.ok).toBe(false);
    const error = (outcome as { error: string }).error;
    expect(error).toContain('Invalid input for tool "read"');
    expect(error).toContain('required property "path"');
    expect(error).toContain("limit:");
    expect(error).toContain('"extra"');
    expect(error).not.toContain("False boolean schema");
  });

  it("accepts valid input, and prefers the tool's own validate()", () => {
    expect(validateToolInput(tool, { path: "a" })).toEqual({ ok: true, value: { path: "a" } });
    const own: AgentTool = { ...tool, validate: () => ({ ok: false, error: "custom says no" }) };
    expect(validateToolInput(own, { path: "a" })).toEqual({ ok: false, error: "custom says no" });
  });
});
