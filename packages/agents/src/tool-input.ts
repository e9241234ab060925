import { Validator } from "@cfworker/json-schema";
import type { AgentTool } from "@heddle/shared";

/**
 * How a tool call's arguments were read. The gateway parses (and repairs) them once, in `tool-call-end`; a call
 * whose arguments did not parse carries the raw text and the reason.
 */
export type ToolInputParse = { ok: true; value: unknown } | { ok: false; error: string; text: string };

const EXCERPT = 300;

/** The text the model gets when its arguments could not be read. */
export function invalidJsonMessage(toolName: string, parse: { error: string; text: string }): string {
  const excerpt = parse.text.length > EXCERPT ? `${parse.text.slice(0, EXCERPT)}…` : parse.text;
  return (
    `The arguments for tool "${toolName}" are not valid JSON (${parse.error}). You sent: ${excerpt}\n` +
    "Call the tool again with the arguments as one JSON object."
  );
}

const validators = new WeakMap<object, Validator>();
// Wrapper keywords only say "a child failed"; the child's own error is the one the model can act on.
const WRAPPER_KEYWORDS = new Set(["properties", "items", "prefixItems", "allOf", "$ref", "$dynamicRef", "false"]);

/** Checks input with the tool's own `validate` (zod via `createTool`), else with its JSON Schema. */
export function validateToolInput(
  tool: AgentTool,
  input: unknown,
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (tool.validate) return tool.validate(input);
  if (!tool.inputSchema || typeof tool.inputSchema !== "object") return { ok: true, value: input };
  let validator = validators.get(tool.inputSchema);
  if (!validator) {
    validator = new Validator(tool.inputSchema as any, "2020-12", false);
    validators.set(tool.inputSchema, validator);
  }
  const outcome = validator.validate(input);
  if (outcome.valid) return { ok: true, value: input };
  const lines = outcome.errors
    .filter((error) => !WRAPPER_KEYWORDS.has(error.keyword))
    .slice(0, 10)
    .map((error) => `- ${error.instanceLocation.replace(/^#\/?/, "") || "(input)"}: ${error.error}`);
  return {
    ok: false,
    error: `Invalid input for tool "${tool.name}":\n${lines.join("\n")}\nFix the arguments and call the tool again.`,
  };
}
