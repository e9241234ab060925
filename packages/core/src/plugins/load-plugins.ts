import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  type AgentPlugin,
  type AgentTool,
  HeddleError,
  type PluginSetupContext,
  type PluginSetupResult,
  setSafeTimeout,
} from "@heddle/shared";

/**
 * Where a plugin failed: importing its module, reading its export, running its `setup`, or one of the tools it
 * gave (that tool is left out; the plugin's other tools load).
 */
export type PluginLoadStage = "import" | "shape" | "setup" | "tool";

/**
 * Codes of `PluginLoadError`: `plugin_invalid` (the module exports no usable `{name, setup}`),
 * `plugin_tool_invalid` (a tool's name or shape a model API would not accept), `plugin_import_timeout` (importing
 * the module did not settle in time: a top-level `await` that never ends) and `plugin_setup_timeout` (`setup` did
 * not settle in time).
 */
export type PluginLoadErrorCode =
  | "plugin_failed"
  | "plugin_invalid"
  | "plugin_tool_invalid"
  | "plugin_import_timeout"
  | "plugin_setup_timeout";

/** A plugin (or one of its tools) was rejected while loading; reported in `failures`. */
export class PluginLoadError extends HeddleError {
  declare readonly code: PluginLoadErrorCode;
  constructor(code: PluginLoadErrorCode, message: string) {
    super(code, message);
    this.name = "PluginLoadError";
  }
}

/** A plugin that did not load; the others did. */
export interface PluginLoadFailure {
  path: string;
  /** Known once the module exported a plugin. */
  name?: string;
  stage: PluginLoadStage;
  error: Error;
}

/** A loaded plugin and the tools it gave, under their final names. */
export interface LoadedPlugin {
  plugin: AgentPlugin;
  path: string;
  /** `original → final` for tools renamed `<plugin>__<tool>` because their name was taken. */
  renamedTools: { [original: string]: string };
}

export interface LoadPluginsResult {
  /** Ready for `AgentRuntimeConfig.plugins` / a session's `plugins`. */
  plugins: AgentPlugin[];
  loaded: LoadedPlugin[];
  failures: PluginLoadFailure[];
}

export interface LoadPluginsContext extends Partial<PluginSetupContext> {
  /** Relative plugin paths are resolved against this (default `process.cwd()`). */
  baseDir?: string;
  /** Tool names already in use (the default tools, MCP tools): a plugin tool with one of them is renamed. */
  reservedToolNames?: Iterable<string>;
  /**
   * An import still pending after this long fails with `plugin_import_timeout`, a `setup` with
   * `plugin_setup_timeout` (each gets the whole time; default 30 000 ms; `Infinity`: no limit).
   */
  setupTimeoutMs?: number;
}

const MAX_TOOL_NAME = 64;
/** The names `createTool` accepts (and every vendor does): a plugin's raw tool objects are held to the same rule. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const DEFAULT_SETUP_TIMEOUT_MS = 30_000;

/**
 * Imports ESM plugin modules (default export, or a named `plugin`, shaped `{name, setup}`) and runs each
 * `setup` once, now, so a plugin that throws on import or in setup is reported and the rest still load. A tool
 * whose name is taken (reserved, or by an earlier plugin) becomes `<plugin>__<tool>`. The plugins returned
 * hand back that one setup's result, with those names.
 */
export async function loadPlugins(paths: readonly string[], ctx: LoadPluginsContext = {}): Promise<LoadPluginsResult> {
  const baseDir = ctx.baseDir ?? process.cwd();
  const setupContext: PluginSetupContext = {
    agentId: ctx.agentId ?? "plugin-loader",
    ...(ctx.sessionId !== undefined && { sessionId: ctx.sessionId }),
    ...(ctx.conversationId !== undefined && { conversationId: ctx.conversationId }),
    metadata: ctx.metadata ?? {},
  };
  const taken = new Set<string>(ctx.reservedToolNames ?? []);
  const names = new Set<string>();
  const result: LoadPluginsResult = { plugins: [], loaded: [], failures: [] };
  const timeoutMs = ctx.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS;

  for (const given of paths) {
    const file = path.resolve(baseDir, given);
    const fail = (stage: PluginLoadStage, error: unknown, name?: string) =>
      result.failures.push({ path: file, stage, error: asError(error), ...(name !== undefined && { name }) });

    let module: { default?: unknown; plugin?: unknown };
    try {
      // A module whose top-level `await` never settles would hold the loader (and every plugin after it) forever.
      // Its evaluation cannot be cancelled; it is left pending and reported.
      module = await withTimeout(
        () => import(pathToFileURL(file).href),
        timeoutMs,
        () => new PluginLoadError("plugin_import_timeout", `${file}: importing the module took over ${timeoutMs} ms`),
      );
    } catch (error) {
      fail("import", error);
      continue;
    }
    const candidate = module.plugin ?? module.default;
    const shapeError = checkShape(candidate, names);
    if (shapeError) {
      fail(
        "shape",
        new PluginLoadError("plugin_invalid", `${file}: ${shapeError}`),
        (candidate as { name?: string })?.name,
      );
      continue;
    }
    const plugin = candidate as AgentPlugin;
    let setup: PluginSetupResult;
    try {
      setup =
        (await withTimeout(
          () => plugin.setup?.(setupContext),
          timeoutMs,
          () => new PluginLoadError("plugin_setup_timeout", `plugin "${plugin.name}" setup took over ${timeoutMs} ms`),
        )) ?? {};
    } catch (error) {
      fail("setup", error, plugin.name);
      continue;
    }
    const renamedTools: { [original: string]: string } = {};
    const valid = (Array.isArray(setup.tools) ? setup.tools : []).filter((tool) => {
      const problem = checkTool(tool);
      if (problem) fail("tool", new PluginLoadError("plugin_tool_invalid", `${plugin.name}: ${problem}`), plugin.name);
      return !problem;
    });
    const tools = valid.map((tool): AgentTool => {
      if (!taken.has(tool.name)) {
        taken.add(tool.name);
        return tool;
      }
      const renamed = `${safeName(plugin.name)}__${tool.name}`.slice(0, MAX_TOOL_NAME);
      renamedTools[tool.name] = renamed;
      taken.add(renamed);
      return { ...tool, name: renamed };
    });
    names.add(plugin.name);
    const finalSetup: PluginSetupResult = { ...setup, tools };
    const loaded: AgentPlugin = { name: plugin.name, setup: () => finalSetup };
    result.plugins.push(loaded);
    result.loaded.push({ plugin: loaded, path: file, renamedTools });
  }
  return result;
}

function checkTool(tool: unknown): string | undefined {
  if (!tool || typeof tool !== "object") return "a tool is not an object; it was left out.";
  const { name, execute } = tool as { name?: unknown; execute?: unknown };
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    return `tool name ${JSON.stringify(name)} is invalid (use 1-64 letters, digits, "_" or "-"); it was left out.`;
  }
  if (typeof execute !== "function") return `tool "${name}" has no execute function; it was left out.`;
  return undefined;
}

/** Runs `work`, failing with `timedOut()` if it has not settled within `ms` (`Infinity`: no limit). */
async function withTimeout<T>(work: () => T | Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  let timer: { clear(): void } | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setSafeTimeout(() => reject(timedOut()), ms);
  });
  try {
    return await Promise.race([Promise.resolve().then(work), timeout]);
  } finally {
    timer?.clear();
  }
}

function checkShape(candidate: unknown, names: Set<string>): string | undefined {
  if (!candidate || typeof candidate !== "object") {
    return "exports no plugin: export default (or `export const plugin =`) an object { name, setup }.";
  }
  const { name, setup } = candidate as { name?: unknown; setup?: unknown };
  if (typeof name !== "string" || name.length === 0) return "the plugin has no `name` string.";
  if (typeof setup !== "function") return `plugin "${name}" has no \`setup\` function.`;
  if (names.has(name)) return `a plugin named "${name}" is already loaded.`;
  return undefined;
}

/** Plugin names become tool-name prefixes, which vendors limit to letters, digits, `_` and `-`. */
function safeName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new PluginLoadError("plugin_failed", String(error));
}
