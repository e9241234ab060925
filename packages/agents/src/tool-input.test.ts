import type { AgentTool } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { invalidJsonMessage, validateToolInput } from "./tool-input.js";

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

describe("invalidJsonMessage", () => {
  it("names the tool and the reason, and shows an excerpt of what the model sent", () => {
    const message = invalidJsonMessage("weather", {
      error: "the arguments are cut off",
      text: `{"city": "Par${"x".repeat(400)}`,
    });
    expect(message).toContain('tool "weather"');
    expect(message).toContain("the arguments are cut off");
    expect(message).toContain('{"city": "Par');
    expect(message.length).toBeLessThan(600);
  });
});
