import type { AgentRuntimeConfig } from "@heddle/shared";
import { AgentRuntimeError } from "./errors.js";
import { assertMessages } from "./transcript.js";

/** Default cap on model calls per run: a run must always end, even when a model never stops calling tools. */
export const DEFAULT_MAX_ITERATIONS = 50;
/** Default bound on tools running at once in parallel mode. */
export const DEFAULT_MAX_PARALLEL_TOOLS = 8;

function invalid(message: string): never {
  throw new AgentRuntimeError("invalid_config", message);
}

/** Checks a config up front, naming the first field that is wrong. */
export function validateConfig(config: AgentRuntimeConfig): void {
  if (typeof config !== "object" || config === null) invalid("AgentRuntime: config must be an object");
  const hasModel = config.model !== undefined;
  if (hasModel && typeof config.model?.stream !== "function")
    invalid('AgentRuntime: "model" must be an AgentModel with a stream() method');
  if (!hasModel && (!config.providerId || !config.modelId)) {
    invalid('AgentRuntime: give "model", or "providerId" and "modelId"');
  }
  const { maxIterations, maxBudgetUsd, maxParallelTools } = config;
  if (
    maxIterations !== undefined &&
    !(maxIterations === Number.POSITIVE_INFINITY || (Number.isInteger(maxIterations) && maxIterations >= 1))
  ) {
    invalid(`AgentRuntime: "maxIterations" must be a positive integer or Infinity, got ${String(maxIterations)}`);
  }
  if (maxBudgetUsd !== undefined && !(typeof maxBudgetUsd === "number" && maxBudgetUsd >= 0)) {
    invalid(`AgentRuntime: "maxBudgetUsd" must be a number >= 0, got ${String(maxBudgetUsd)}`);
  }
  if (maxParallelTools !== undefined && !(Number.isInteger(maxParallelTools) && maxParallelTools >= 1)) {
    invalid(`AgentRuntime: "maxParallelTools" must be an integer >= 1, got ${String(maxParallelTools)}`);
  }
  if (
    config.toolExecution !== undefined &&
    config.toolExecution !== "sequential" &&
    config.toolExecution !== "parallel"
  ) {
    invalid(`AgentRuntime: "toolExecution" must be "sequential" or "parallel", got ${String(config.toolExecution)}`);
  }
  const stops =
    config.stopWhen === undefined ? [] : Array.isArray(config.stopWhen) ? config.stopWhen : [config.stopWhen];
  if (stops.some((stop) => typeof stop !== "function"))
    invalid('AgentRuntime: "stopWhen" must be a function or an array of functions');
  if (config.tools !== undefined && !Array.isArray(config.tools)) invalid('AgentRuntime: "tools" must be an array');
  if (config.plugins !== undefined && !Array.isArray(config.plugins))
    invalid('AgentRuntime: "plugins" must be an array');
  for (const plugin of config.plugins ?? []) {
    if (!plugin || typeof plugin.name !== "string" || typeof plugin.setup !== "function") {
      invalid("AgentRuntime: every plugin needs a name and a setup() function");
    }
  }
  if (config.initialMessages !== undefined) assertMessages(config.initialMessages, "AgentRuntime initialMessages");
}
