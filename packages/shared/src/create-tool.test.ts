import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createTool, ToolDefinitionError } from "./create-tool.js";

const readFile = createTool({
  name: "read_file",
  description: "Read a file",
  input: z.object({ path: z.string().describe("Relative path"), limit: z.number().int().positive().optional() }),
  execute: ({ path, limit }) => `${path}:${limit ?? "all"}`,
});

function validationError(input: unknown): string {
  const result = readFile.validate?.(input);
  if (!result || result.ok) throw new Error("expected a validation error");
  return result.error;
}

describe("createTool", () => {
  it("gives the model a JSON Schema built from the zod schema", () => {
    expect(readFile.inputSchema).toMatchObject({
      type: "object",
      properties: { path: { type: "string", description: "Relative path" }, limit: { type: "integer" } },
      required: ["path"],
    });
    expect(readFile.inputSchema).not.toHaveProperty("$schema");
  });

  it("accepts valid input and returns the parsed value", () => {
    expect(readFile.validate?.({ path: "a.ts", limit: 3 })).toEqual({ ok: true, value: { path: "a.ts", limit: 3 } });
  });

  it("explains invalid input field by field, naming the tool", () => {
    const result = readFile.validate?.({ path: 42, limit: -1 });
    expect(result?.ok).toBe(false);
    const error = (result as { error: string }).error;
    expect(error).toContain('Invalid input for tool "read_file"');
    expect(error).toMatch(/- path: .*expected string/i);
    expect(error).toMatch(/- limit: .*(>0|positive|greater)/i);
    expect(error).toContain("call the tool again");
  });

  it("reports a missing required field and a non-object input", () => {
    expect(validationError({})).toMatch(/- path: .*(required|undefined)/i);
    expect(validationError("nope")).toMatch(/- \(input\): .*expected object/i);
  });

  it("runs execute with the typed input", async () => {
    expect(await readFile.execute({ path: "x" }, {} as never)).toBe("x:all");
  });

  it("keeps lifecycle, timeout and retries", () => {
    const tool = createTool({
      name: "submit_result",
      description: "Finish",
      input: z.object({ summary: z.string() }),
      execute: ({ summary }) => summary,
      lifecycle: { completesRun: true },
      timeoutMs: 1000,
      maxRetries: 2,
      readOnly: true,
    });
    expect(tool).toMatchObject({ lifecycle: { completesRun: true }, timeoutMs: 1000, maxRetries: 2, readOnly: true });
  });

  it("refuses a name no vendor accepts, and a non-zod input", () => {
    expect(() => createTool({ name: "read file!", description: "", input: z.object({}), execute: () => "" })).toThrow(
      ToolDefinitionError,
    );
    // A ConfigError like every other configuration mistake: one code to catch.
    expect(() => createTool({ name: "read file!", description: "", input: z.object({}), execute: () => "" })).toThrow(
      expect.objectContaining({ code: "config_invalid" }),
    );
    expect(() =>
      createTool({ name: "ok", description: "", input: { type: "object" } as never, execute: () => "" }),
    ).toThrow(/"input" must be a zod schema/);
  });
});
