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

describe("validateToolInput, the message the model reads", () => {
  const base = { description: "", execute: () => "" };

  it("lets any input through a tool without a schema", () => {
    const bare = { ...base, name: "bare" } as unknown as AgentTool;
    expect(validateToolInput(bare, "anything")).toEqual({ ok: true, value: "anything" });
  });

  it("says (input) for a wrong whole input, and gives nested fields as paths without the leading #/", () => {
    const list: AgentTool = {
      ...base,
      name: "list",
      inputSchema: { type: "object", properties: { items: { type: "array", items: { type: "string" } } } },
    };
    const whole = validateToolInput(list, 42) as { error: string };
    expect(whole.error.split("\n")).toContain('- (input): Instance type "number" is invalid. Expected "object".');
    const nested = validateToolInput(list, { items: ["a", 7] }) as { error: string };
    expect(nested.error).toMatch(/^- items\/1: /m);
    expect(nested.error).not.toMatch(/^- #/m);
    expect(nested.error.endsWith("\nFix the arguments and call the tool again.")).toBe(true);
  });

  it("lists at most 10 problems, so a huge wrong input does not flood the context", () => {
    const many: AgentTool = {
      ...base,
      name: "many",
      inputSchema: { type: "object", additionalProperties: { type: "string" } },
    };
    const input = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, i]));
    const error = (validateToolInput(many, input) as { error: string }).error;
    expect(error.split("\n").filter((line) => line.startsWith("- "))).toHaveLength(10);
  });
});

describe("invalidJsonMessage", () => {
  it("shows the whole text up to 300 characters, and cuts longer text with an ellipsis", () => {
    const exactly = "x".repeat(300);
    expect(invalidJsonMessage("t", { error: "e", text: exactly })).toContain(`You sent: ${exactly}\n`);
    const longer = `${"y".repeat(300)}z`;
    const message = invalidJsonMessage("t", { error: "e", text: longer });
    expect(message).toContain(`You sent: ${"y".repeat(300)}…\n`);
    expect(message).not.toContain("z");
    expect(message.endsWith("Call the tool again with the arguments as one JSON object.")).toBe(true);
  });

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
