import { type AgentModel, type AgentRuntimeConfig, ConfigError } from "@heddle/shared";
import { AgentRuntimeError } from "./errors.js";

/**
 * The model for the provider form, built by `@heddle/llms`'s gateway. Imported on first use so a host that
 * passes its own `model` never loads the gateway (or any vendor client).
 */
export async function resolveProviderModel(config: AgentRuntimeConfig): Promise<AgentModel> {
  const llms = (await import("@heddle/llms")) as { createGateway?: unknown };
  if (typeof llms.createGateway !== "function") {
    throw new AgentRuntimeError(
      "gateway_unavailable",
      `Cannot resolve providerId "${config.providerId}": this version of @heddle/llms has no createGateway(). Pass a "model" instead.`,
    );
  }
  const gateway = (llms.createGateway as () => { createAgentModel(options: unknown): AgentModel })();
  try {
    return await gateway.createAgentModel({
      providerId: config.providerId,
      modelId: config.modelId,
      ...(config.apiKey !== undefined && { apiKey: config.apiKey }),
      ...(config.baseUrl !== undefined && { baseUrl: config.baseUrl }),
      ...(config.headers !== undefined && { headers: config.headers }),
      ...(config.options !== undefined && { options: config.options }),
    });
  } catch (error) {
    throw new ConfigError(
      `Cannot create a model for provider "${config.providerId}" and model "${config.modelId}": ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  }
}
