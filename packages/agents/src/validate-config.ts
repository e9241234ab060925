import { type AgentRuntimeConfig, ConfigError, TOOL_NAME_PATTERN } from "@heddle/shared";
import { z } from "zod";

/** Default cap on model calls per run: a run must always end, even when a model never stops calling tools. */
export const DEFAULT_MAX_ITERATIONS = 50;
/** Default bound on tools running at once in parallel mode. */
export const DEFAULT_MAX_PARALLEL_TOOLS = 8;
/** Default bound on `completionGuard` reminders per run. */
export const DEFAULT_MAX_COMPLETION_REMINDERS = 3;
/** Default time a plugin's `setup` may take. */
export const DEFAULT_PLUGIN_SETUP_TIMEOUT_MS = 10_000;

const fn = (what: string) =>
  z.custom<(...args: any[]) => unknown>((v) => typeof v === "function", `${what} must be a function`);
const fnOrList = (what: string) =>
  z.union([fn(what), z.array(fn(what))], { error: `${what} must be a function or an array of functions` });

/** A tool's name and shape, checked the way `createTool` checks it, whatever built the tool. */
export const toolSchema = z.looseObject(
  {
    name: z
      .string({ error: "every tool needs a name" })
      .regex(TOOL_NAME_PATTERN, 'a tool name must be 1-64 letters, digits, "_" or "-" (every vendor accepts these)'),
    description: z.string({ error: "a tool needs a description" }),
    inputSchema: z.record(z.string(), z.unknown(), { error: "a tool needs an inputSchema (a JSON Schema object)" }),
    execute: fn("a tool's execute"),
  },
  { error: "every tool needs a name and an execute() function" },
);

const hooksSchema = z
  .looseObject({
    beforeRun: fnOrList("hooks.beforeRun").optional(),
    afterRun: fnOrList("hooks.afterRun").optional(),
    beforeModel: fnOrList("hooks.beforeModel").optional(),
    afterModel: fnOrList("hooks.afterModel").optional(),
    beforeTool: fnOrList("hooks.beforeTool").optional(),
    afterTool: fnOrList("hooks.afterTool").optional(),
    afterTurn: fnOrList("hooks.afterTurn").optional(),
    onEvent: fnOrList("hooks.onEvent").optional(),
  })
  .optional();

const messageSchema = z.looseObject(
  { role: z.enum(["user", "assistant", "tool"]), content: z.array(z.unknown()) },
  { error: "expected an AgentMessage (role user|assistant|tool and a content array)" },
);

const positiveInteger = (name: string) => z.number().int().min(1, `"${name}" must be an integer >= 1`);

const configSchema = z
  .looseObject({
    model: z
      .custom((v) => typeof (v as { stream?: unknown })?.stream === "function", {
        error: '"model" must be an AgentModel with a stream() method',
      })
      .optional(),
    providerId: z.string().min(1).optional(),
    modelId: z.string().min(1).optional(),
    systemPrompt: z.string().optional(),
    tools: z.array(toolSchema, { error: '"tools" must be an array' }).optional(),
    hooks: hooksSchema,
    plugins: z
      .array(
        z.looseObject(
          {
            name: z.string().min(1),
            setup: fn("plugin setup").optional(),
            tools: z.array(toolSchema).optional(),
            hooks: hooksSchema,
          },
          { error: "every plugin needs a name" },
        ),
        { error: '"plugins" must be an array' },
      )
      .optional(),
    initialMessages: z.array(messageSchema).optional(),
    maxIterations: z
      .number()
      .refine((v) => v === Number.POSITIVE_INFINITY || (Number.isInteger(v) && v >= 1), {
        error: '"maxIterations" must be a positive integer or Infinity',
      })
      .optional(),
    maxBudgetUsd: z.number().min(0, '"maxBudgetUsd" must be a number >= 0').optional(),
    maxParallelTools: positiveInteger("maxParallelTools").optional(),
    maxCompletionReminders: z.number().int().min(0).optional(),
    pluginSetupTimeoutMs: z.number().positive().optional(),
    stopWhen: fnOrList('"stopWhen"').optional(),
    toolExecution: z.enum(["sequential", "parallel"]).optional(),
    toolPolicies: z.record(z.string(), z.looseObject({})).optional(),
    requestToolApproval: fn("requestToolApproval").optional(),
    prepareTurn: fn("prepareTurn").optional(),
    consumePendingUserMessage: fn("consumePendingUserMessage").optional(),
    completionGuard: fn("completionGuard").optional(),
    logger: z
      .looseObject({
        debug: fn("logger.debug"),
        info: fn("logger.info"),
        warn: fn("logger.warn"),
        error: fn("logger.error"),
      })
      .optional(),
    agentId: z.string().min(1).optional(),
    conversationId: z.string().optional(),
    sessionId: z.string().optional(),
    parentAgentId: z.string().optional(),
    agentRole: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((config) => config.model !== undefined || (config.providerId && config.modelId), {
    error: 'give "model", or "providerId" and "modelId"',
  });

/** Throws a `ConfigError` naming the field and the problem of each issue. */
function fail(error: z.ZodError, where: string): never {
  const text = error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ` : "";
      return `${path}${issue.message}`;
    })
    .join("; ");
  throw new ConfigError(`${where}: ${text}`, { cause: error });
}

/** Two tools with one name would make every call to it ambiguous. */
export function assertUniqueToolNames(tools: ReadonlyArray<{ name: string }>, where: string): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) throw new ConfigError(`${where}: two tools are named "${tool.name}"`);
    seen.add(tool.name);
  }
}

/** Checks a tool another part produced (a plugin's setup) the way config tools are checked. */
export function validateTool(tool: unknown, where: string): void {
  const parsed = toolSchema.safeParse(tool);
  if (!parsed.success) fail(parsed.error, where);
}

/** Checks a config up front, naming the field that is wrong: one `ConfigError` for every problem. */
export function validateConfig(config: AgentRuntimeConfig): void {
  if (typeof config !== "object" || config === null) throw new ConfigError("AgentRuntime: config must be an object");
  const parsed = configSchema.safeParse(config);
  if (!parsed.success) fail(parsed.error, "AgentRuntime");
  assertUniqueToolNames(config.tools ?? [], "AgentRuntime tools");
}
