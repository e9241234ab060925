import { type AgentRuntimeConfig, ConfigError } from "@heddle/shared";

/**
 * Cline's SDK names for settings Heddle has under its own: each works under either name, and a config that gives
 * both names of one setting is a `ConfigError`, so a key is never silently ignored.
 */
export function resolveConfigNames(config: AgentRuntimeConfig): AgentRuntimeConfig {
  const { toolContextMetadata, modelOptions, prepareTurn } = config;
  const guard = config.completionPolicy?.completionGuard;
  if (toolContextMetadata === undefined && modelOptions === undefined && guard === undefined && !prepareTurn)
    return config;
  const resolved: AgentRuntimeConfig = { ...config };
  if (prepareTurn) {
    if (config.prepareStep !== undefined)
      throw new ConfigError('AgentRuntime: "prepareTurn" is the old name of "prepareStep"; give one of them, not both');
    resolved.prepareStep = (ctx) => prepareTurn.call(config, ctx);
    delete resolved.prepareTurn;
  }
  if (toolContextMetadata !== undefined) {
    if (config.metadata !== undefined) throw both("toolContextMetadata", "metadata");
    resolved.metadata = toolContextMetadata;
  }
  if (modelOptions !== undefined) {
    if (config.options !== undefined) throw both("modelOptions", "options");
    resolved.options = modelOptions;
  }
  if (guard !== undefined) {
    if (config.completionGuard !== undefined) throw both("completionPolicy.completionGuard", "completionGuard");
    const policy = config.completionPolicy!;
    resolved.completionGuard = (ctx) => guard.call(policy, ctx);
  }
  return resolved;
}

function both(cline: string, heddle: string): ConfigError {
  return new ConfigError(`AgentRuntime: "${cline}" is Cline's name for "${heddle}"; give one of them, not both`);
}
