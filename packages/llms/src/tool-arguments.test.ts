import { describe, expect, it } from "vitest";
import { toolArgumentsText } from "./tool-arguments.js";

describe("toolArgumentsText", () => {
  it("serializes an input object once and returns the same text for it after", () => {
    const input = { path: "a.ts", lines: [1, 2] };
    const first = toolArgumentsText(input);
    expect(first).toBe('{"path":"a.ts","lines":[1,2]}');
    expect(toolArgumentsText(input)).toBe(first);
    expect(toolArgumentsText({ path: "a.ts", lines: [1, 2] })).toBe(first);
  });

  it("sends unparsed argument text back as written, and {} for no input", () => {
    expect(toolArgumentsText('{"broken": ')).toBe('{"broken": ');
    expect(toolArgumentsText(undefined)).toBe("{}");
    expect(toolArgumentsText(null)).toBe("{}");
  });
});
