import {
  type AgentHooks,
  type AgentPlugin,
  type AgentRuntimeConfig,
  type AgentTool,
  type AgentToolSource,
  ConfigError,
  type PluginSetupContext,
  type PluginSetupResult,
  type SafeTimeout,
  setSafeTimeout,
  type ToolDefinition,
} from "@heddle/shared";
import { AgentRuntimeError } from "./errors.js";
import { buildHookTable, type HookTable } from "./hooks.js";
import type { Toolset } from "./run-context.js";
import { policyFor } from "./tool-calls.js";
import { assertUniqueToolNames, validateTool } from "./validate-config.js";

/** What plugin setup produced: the tools and every hook, merged once. */
export interface Setup {
  /** The tools when `config.tools` is an array; `undefined` when a function gives them before each model call. */
  toolset: Toolset | undefined;
  /** The plugins' own tools, added to whatever the config's tool function returns. */
  pluginTools: AgentTool[];
  hooks: HookTable;
}

/** An empty setup: what a run aborted before its plugins were ready runs with. */
export function emptySetup(): Setup {
  return { toolset: EMPTY_TOOLSET, pluginTools: [], hooks: buildHookTable([], () => "") };
}

export const EMPTY_TOOLSET: Toolset = { tools: new Map(), definitions: [], disabled: new Set() };

/**
 * The tools of a model call, checked: every tool like `createTool` checks one (name, description, schema,
 * `execute`), two tools with one name are a `ConfigError`, and a required completion tool must be enabled.
 */
export function buildToolset(tools: readonly AgentTool[], config: AgentRuntimeConfig, where: string): Toolset {
  assertUniqueToolNames(tools, where);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const disabled = new Set<string>();
  const definitions: ToolDefinition[] = [];
  for (const tool of byName.values()) {
    // A disabled tool is not offered to the model; a call to it anyway is answered as disabled.
    if (policyFor(config.toolPolicies, tool.name).enabled === false) disabled.add(tool.name);
    else definitions.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
  }
  if (
    config.completionPolicy?.requireCompletionTool &&
    ![...byName.values()].some((t) => t.lifecycle?.completesRun && !disabled.has(t.name))
  ) {
    throw new ConfigError(
      "completionPolicy.requireCompletionTool is set but no enabled tool has lifecycle.completesRun",
    );
  }
  return { tools: byName, definitions, disabled };
}

/**
 * Reads a tool function before a model call: the toolset is rebuilt (and checked) only when the function returns
 * a different array than last time, so an unchanged list costs one call and one comparison.
 */
export function toolsetReader(
  source: AgentToolSource,
  pluginTools: readonly AgentTool[],
  config: AgentRuntimeConfig,
): () => Promise<Toolset> {
  let lastList: readonly AgentTool[] | undefined;
  let last: Toolset | undefined;
  return async () => {
    const list = await source();
    if (!Array.isArray(list)) throw new ConfigError("AgentRuntime: the tools function must return an array of tools");
    if (list === lastList && last) return last;
    for (const tool of list) validateTool(tool, "AgentRuntime tools()");
    last = buildToolset([...list, ...pluginTools], config, "AgentRuntime tools()");
    lastList = list;
    return last;
  };
}

/**
 * Sets up every plugin (in order, each within `timeoutMs`) and merges their tools and hooks with the config's.
 * Every tool is checked like `createTool` checks one (a valid name, a description, a schema, `execute`), and two
 * tools with one name are a `ConfigError`, before anything is sent to a model.
 */
export async function setUpPlugins(
  config: AgentRuntimeConfig,
  context: PluginSetupContext,
  timeoutMs: number,
): Promise<Setup> {
  const pluginTools: AgentTool[] = [];
  const hookSets: Array<AgentHooks | undefined> = [config.hooks];
  const owners = ["config.hooks"];
  for (const plugin of config.plugins ?? []) {
    const contributed = await setUpPlugin(plugin, context, timeoutMs);
    for (const tool of contributed.tools ?? []) validateTool(tool, `plugin "${plugin.name}" tool`);
    pluginTools.push(...(contributed.tools ?? []));
    hookSets.push(plugin.hooks, contributed.hooks);
    owners.push(`plugin "${plugin.name}"`, `plugin "${plugin.name}"`);
  }
  const toolset =
    typeof config.tools === "function"
      ? undefined
      : buildToolset([...(config.tools ?? []), ...pluginTools], config, "AgentRuntime");
  const hooks = buildHookTable(hookSets, (index) => owners[index]!);
  return { toolset, pluginTools, hooks };
}

/** One plugin's contribution: its own `tools`, then what its optional `setup` returns, within the timeout. */
async function setUpPlugin(
  plugin: AgentPlugin,
  context: PluginSetupContext,
  timeoutMs: number,
): Promise<PluginSetupResult> {
  const own = plugin.tools ?? [];
  if (!plugin.setup) return { tools: own };
  let timer: SafeTimeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    // Past 2^31-1 ms a plain timer fired at once and failed every run.
    timer = setSafeTimeout(
      () =>
        reject(
          new AgentRuntimeError(
            "plugin_setup_timeout",
            `plugin "${plugin.name}" did not finish setting up within ${timeoutMs} ms (pluginSetupTimeoutMs)`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    const result = await Promise.race([Promise.resolve().then(() => plugin.setup!(context)), timeout]);
    return { ...(result ?? {}), tools: [...own, ...(result?.tools ?? [])] };
  } catch (error) {
    if (error instanceof AgentRuntimeError) throw error;
    throw new AgentRuntimeError(
      "plugin_setup_failed",
      `plugin "${plugin.name}" failed to set up: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  } finally {
    timer?.clear();
  }
}

/** Resolves with `promise`, or with `aborted` as soon as `signal` aborts; a later rejection is not unhandled. */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  promise.catch(() => {});
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** What `unlessAborted` resolves with when the signal won. */
export const ABORTED: unique symbol = Symbol("aborted");
