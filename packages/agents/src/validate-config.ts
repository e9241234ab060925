import { type AgentRuntimeConfig, ConfigError, TOOL_NAME_PATTERN } from "@heddle/shared";
import * as z from "zod/mini";

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
  z.optional(z.union([fn(what), z.array(fn(what))], { error: `${what} must be a function or an array of functions` }));

/** A tool's name and shape, checked the way `createTool` checks it, whatever built the tool. */
export const toolSchema = z.looseObject(
  {
    name: z
      .string({ error: "every tool needs a name" })
      .check(
        z.regex(TOOL_NAME_PATTERN, 'a tool name must be 1-64 letters, digits, "_" or "-" (every vendor accepts these)'),
      ),
    description: z.string({ error: "a tool needs a description" }),
    inputSchema: z.record(z.string(), z.unknown(), { error: "a tool needs an inputSchema (a JSON Schema object)" }),
    execute: fn("a tool's execute"),
  },
  { error: "every tool needs a name and an execute() function" },
);

const hooksSchema = z.optional(
  z.looseObject({
    beforeRun: fnOrList("hooks.beforeRun"),
    afterRun: fnOrList("hooks.afterRun"),
    beforeModel: fnOrList("hooks.beforeModel"),
    afterModel: fnOrList("hooks.afterModel"),
    beforeTool: fnOrList("hooks.beforeTool"),
    afterTool: fnOrList("hooks.afterTool"),
    afterStep: fnOrList("hooks.afterStep"),
    afterTurn: fnOrList("hooks.afterTurn"),
    onEvent: fnOrList("hooks.onEvent"),
  }),
);

const messageSchema = z.looseObject(
  { role: z.enum(["user", "assistant", "tool"]), content: z.array(z.unknown()) },
  { error: "expected an AgentMessage (role user|assistant|tool and a content array)" },
);

const positiveInteger = (name: string) =>
  z.optional(
    z.int({ error: `"${name}" must be an integer >= 1` }).check(z.minimum(1, `"${name}" must be an integer >= 1`)),
  );
const optionalString = z.optional(z.string());

const configSchema = z
  .looseObject({
    model: z.optional(
      z.custom((v) => typeof (v as { stream?: unknown })?.stream === "function", {
        error: '"model" must be an AgentModel with a stream() method',
      }),
    ),
    providerId: optionalString,
    modelId: optionalString,
    systemPrompt: optionalString,
    tools: z.optional(
      z.union([z.array(toolSchema), fn('"tools"')], { error: '"tools" must be an array of tools or a function' }),
    ),
    modelTools: z.optional(z.array(z.unknown(), { error: '"modelTools" must be an array' })),
    hooks: hooksSchema,
    plugins: z.optional(
      z.array(
        z.looseObject(
          {
            name: z.string().check(z.minLength(1)),
            setup: z.optional(fn("plugin setup")),
            tools: z.optional(z.array(toolSchema)),
            hooks: hooksSchema,
          },
          { error: "every plugin needs a name" },
        ),
        { error: '"plugins" must be an array' },
      ),
    ),
    initialMessages: z.optional(z.array(messageSchema)),
    // zod's number() refuses Infinity, which "no limit" needs.
    maxIterations: z.optional(
      z.custom<number>(
        (v) => typeof v === "number" && (v === Number.POSITIVE_INFINITY || (Number.isInteger(v) && v >= 1)),
        { error: '"maxIterations" must be a positive integer or Infinity' },
      ),
    ),
    maxBudgetUsd: z.optional(z.number().check(z.minimum(0, '"maxBudgetUsd" must be a number >= 0'))),
    maxParallelTools: positiveInteger("maxParallelTools"),
    maxCompletionReminders: z.optional(z.int().check(z.minimum(0))),
    pluginSetupTimeoutMs: z.optional(z.number().check(z.positive())),
    stopWhen: fnOrList('"stopWhen"'),
    toolExecution: z.optional(z.enum(["sequential", "parallel"])),
    toolPolicies: z.optional(z.record(z.string(), z.looseObject({}))),
    requestToolApproval: z.optional(fn("requestToolApproval")),
    prepareStep: z.optional(fn("prepareStep")),
    prepareTurn: z.optional(fn("prepareTurn")),
    consumePendingUserMessage: z.optional(fn("consumePendingUserMessage")),
    completionGuard: z.optional(fn("completionGuard")),
    logger: z.optional(
      z.looseObject({
        debug: fn("logger.debug"),
        info: fn("logger.info"),
        warn: fn("logger.warn"),
        error: fn("logger.error"),
      }),
    ),
    agentId: z.optional(z.string().check(z.minLength(1))),
    conversationId: optionalString,
    sessionId: optionalString,
    parentAgentId: optionalString,
    agentRole: optionalString,
    metadata: z.optional(z.record(z.string(), z.unknown())),
    toolContextMetadata: z.optional(z.record(z.string(), z.unknown())),
    modelOptions: z.optional(z.record(z.string(), z.unknown())),
    messageModelInfo: z.optional(
      z.object({ provider: z.string().check(z.minLength(1)), id: z.string().check(z.minLength(1)) }),
    ),
    distinctId: optionalString,
    clientName: optionalString,
    clientVersion: optionalString,
    clineCoreVersion: optionalString,
    completionPolicy: z.optional(
      z.looseObject({
        requireCompletionTool: z.optional(z.boolean()),
        reminder: optionalString,
        completionGuard: z.optional(fn("completionPolicy.completionGuard")),
      }),
    ),
  })
  .check(
    z.refine((config) => config.model !== undefined || Boolean(config.providerId && config.modelId), {
      error: 'give "model", or "providerId" and "modelId"',
    }),
  );

// zod/mini carries no locale (it would cost load time): its bare "Invalid input" gets the expectation spelled out.
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.message !== "Invalid input") return issue.message;
  if (issue.code === "invalid_type") return `expected ${issue.expected}`;
  if (issue.code === "invalid_value") return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  return issue.message;
}

/** Throws a `ConfigError` naming the field and the problem of each issue (the first three). */
function fail(error: z.core.$ZodError, where: string): never {
  const text = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ` : ""}${describeIssue(issue)}`)
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
  if (Array.isArray(config.tools)) assertUniqueToolNames(config.tools, "AgentRuntime tools");
}
