// Types only: zod is the caller's (a peer dependency), so loading @heddle/shared does not load zod. The schema's own
// methods (`safeParse`, `toJSONSchema`, zod 4.6+) do the work.
import type { z } from "zod";
import { ConfigError } from "./errors.js";
import type { AgentTool, JsonSchema, ToolContext, ToolInputValidation } from "./types/index.js";

/** What `createTool` takes: a zod schema for the input instead of a JSON Schema. */
export interface CreateToolOptions<S extends z.ZodType, O> {
  name: string;
  description: string;
  input: S;
  execute(input: z.output<S>, ctx: ToolContext): O | Promise<O>;
  timeoutMs?: number;
  maxRetries?: number;
  lifecycle?: { completesRun?: boolean };
  readOnly?: boolean;
}

/** Thrown by `createTool` when its options are unusable: a `ConfigError` (code `config_invalid`). */
export class ToolDefinitionError extends ConfigError {
  override name = "ToolDefinitionError";
}

/** What a tool name may be: 1-64 letters, digits, "_" or "-" (every vendor accepts these). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A tool whose input is checked by a zod schema before `execute` runs. The model sees the JSON Schema from
 * `z.toJSONSchema`; when its input fails the check, it gets the zod error as readable text instead.
 */
export function createTool<S extends z.ZodType, O>(options: CreateToolOptions<S, O>): AgentTool<z.output<S>, O> {
  if (!TOOL_NAME_PATTERN.test(options.name)) {
    throw new ToolDefinitionError(
      `Tool name ${JSON.stringify(options.name)} is invalid: use 1-64 letters, digits, "_" or "-" (every vendor accepts these).`,
    );
  }
  if (!isZodSchema(options.input)) {
    throw new ToolDefinitionError(`Tool "${options.name}": "input" must be a zod schema.`);
  }
  const schema = options.input;
  const inputSchema = zodToJsonSchema(schema);
  return {
    name: options.name,
    description: options.description,
    inputSchema,
    execute: options.execute,
    validate(input: unknown): ToolInputValidation<z.output<S>> {
      const parsed = schema.safeParse(input);
      if (parsed.success) return { ok: true, value: parsed.data };
      return { ok: false, error: formatZodError(options.name, parsed.error) };
    },
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
    ...(options.lifecycle && { lifecycle: options.lifecycle }),
    ...(options.readOnly !== undefined && { readOnly: options.readOnly }),
  };
}

/**
 * A zod error as text a model can act on: one line per problem, naming the field.
 * e.g. `Invalid input for tool "read_file":\n- path: expected string, received number`.
 */
export function formatZodError(toolName: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join(".") : "(input)";
    return `- ${where}: ${issue.message}`;
  });
  return `Invalid input for tool "${toolName}":\n${lines.join("\n")}\nFix the arguments and call the tool again.`;
}

/** The JSON Schema for a zod schema, as tools present it to models. */
export function zodToJsonSchema(schema: z.ZodType): JsonSchema {
  const json = schema.toJSONSchema({ io: "input", unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
}

function isZodSchema(value: unknown): value is z.ZodType {
  const candidate = value as { safeParse?: unknown; toJSONSchema?: unknown } | null;
  return typeof candidate?.safeParse === "function" && typeof candidate.toJSONSchema === "function";
}
