import { createGateway, type Gateway } from "@heddle/llms";
import type { AgentModel } from "@heddle/shared";

/** A provider the CLI can pick on its own from the environment, with the model it uses by default. */
const AUTO_PROVIDERS = [
  { providerId: "anthropic", env: ["ANTHROPIC_API_KEY"], modelId: "claude-sonnet-4-6" },
  { providerId: "openai", env: ["OPENAI_API_KEY"], modelId: "gpt-5" },
  { providerId: "gemini", env: ["GEMINI_API_KEY", "GOOGLE_API_KEY"], modelId: "gemini-2.5-flash" },
];

/** No model could be chosen: the message lists what to set or pass. */
export class NoModelError extends Error {
  override name = "NoModelError";
}

/**
 * The model for a run: `--provider`/`--model` (and `--base-url`) when given; `--base-url` alone means
 * `openai-compatible`, else the first provider whose key is in the environment.
 * Unknown ids and missing keys come back as the gateway's typed errors, whose messages list the options.
 */
export function resolveModel(
  flags: { provider?: string; model?: string; baseUrl?: string },
  env: Record<string, string | undefined> = process.env,
  gateway: Gateway = createGateway({ env }),
): AgentModel {
  const providerId = flags.provider ?? (flags.baseUrl ? "openai-compatible" : undefined);
  if (providerId) {
    const auto = AUTO_PROVIDERS.find((p) => p.providerId === providerId);
    const modelId = flags.model ?? auto?.modelId ?? gateway.listModels(providerId)[0]?.id;
    if (!modelId) throw new NoModelError(`Pass --model for provider "${providerId}".`);
    return gateway.createAgentModel({ providerId, modelId, ...(flags.baseUrl && { baseUrl: flags.baseUrl }) });
  }
  const found = AUTO_PROVIDERS.find((p) => p.env.some((name) => env[name]));
  if (found) return gateway.createAgentModel({ providerId: found.providerId, modelId: flags.model ?? found.modelId });
  const providers = gateway
    .listProviders()
    .map((p) => `  ${p.id.padEnd(18)} ${p.name}${p.apiKeyEnv?.length ? ` (key: ${p.apiKeyEnv.join(" or ")})` : ""}`)
    .join("\n");
  throw new NoModelError(
    `No model key found. Set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY, or pass --provider (and --model).\n` +
      `Providers:\n${providers}\nOr try the offline demo: heddle-code --demo`,
  );
}
