import type { ProviderSpec, WireFamilyId } from "./types.js";

/**
 * The built-in providers. Base URLs and key variables are the vendors' documented ones:
 * - OpenRouter `https://openrouter.ai/api/v1` (openrouter.ai/docs/quickstart, OpenAI SDK example)
 * - DeepSeek `https://api.deepseek.com/v1` (api-docs.deepseek.com: base_url `https://api.deepseek.com`, `/v1` also
 *   accepted "for compatibility with OpenAI")
 * - Groq `https://api.groq.com/openai/v1` (console.groq.com/docs/openai)
 * - xAI `https://api.x.ai/v1` (docs.x.ai/api/integrations)
 * - Together `https://api.together.ai/v1` (docs.together.ai/docs/inference/openai-compatibility)
 * - Mistral `https://api.mistral.ai/v1` (the default base of Mistral clients, e.g. docs.continue.dev Codestral guide)
 * - Cerebras `https://api.cerebras.ai/v1`, Fireworks `https://api.fireworks.ai/inference/v1` (their OpenAI-compatible
 *   endpoints as documented by integrations: docs.pipecat.ai, strandsagents.com)
 * - Ollama, LM Studio, vLLM and llama.cpp servers: their default local ports.
 */
export const BUILTIN_PROVIDERS: readonly ProviderSpec[] = [
  { id: "anthropic", name: "Anthropic", family: "anthropic", apiKeyEnv: ["ANTHROPIC_API_KEY"] },
  { id: "openai", name: "OpenAI (Responses API)", family: "openai", apiKeyEnv: ["OPENAI_API_KEY"] },
  {
    id: "openai-chat",
    name: "OpenAI (Chat Completions)",
    family: "openai-chat",
    baseUrl: "https://api.openai.com/v1",
    apiKeyEnv: ["OPENAI_API_KEY"],
  },
  { id: "gemini", name: "Google Gemini", family: "gemini", apiKeyEnv: ["GEMINI_API_KEY", "GOOGLE_API_KEY"] },
  {
    id: "openai-compatible",
    name: "Any OpenAI-compatible server",
    family: "openai-chat",
    apiKeyEnv: ["OPENAI_COMPATIBLE_API_KEY"],
    requiresApiKey: false,
    requiresBaseUrl: true,
  },
  { id: "ollama", name: "Ollama", family: "openai-chat", baseUrl: "http://localhost:11434/v1", requiresApiKey: false },
  {
    id: "lmstudio",
    name: "LM Studio",
    family: "openai-chat",
    baseUrl: "http://localhost:1234/v1",
    requiresApiKey: false,
  },
  {
    id: "vllm",
    name: "vLLM",
    family: "openai-chat",
    baseUrl: "http://localhost:8000/v1",
    apiKeyEnv: ["VLLM_API_KEY"],
    requiresApiKey: false,
  },
  {
    id: "llamacpp",
    name: "llama.cpp server",
    family: "openai-chat",
    baseUrl: "http://localhost:8080/v1",
    apiKeyEnv: ["LLAMA_API_KEY"],
    requiresApiKey: false,
  },
  {
    id: "openrouter",
    name: "OpenRouter",
    family: "openai-chat",
    baseUrl: "https://openrouter.ai/api/v1",
    apiKeyEnv: ["OPENROUTER_API_KEY"],
  },
  {
    id: "deepseek",
    name: "DeepSeek",
    family: "openai-chat",
    baseUrl: "https://api.deepseek.com/v1",
    apiKeyEnv: ["DEEPSEEK_API_KEY"],
  },
  {
    id: "groq",
    name: "Groq",
    family: "openai-chat",
    baseUrl: "https://api.groq.com/openai/v1",
    apiKeyEnv: ["GROQ_API_KEY"],
  },
  { id: "xai", name: "xAI", family: "openai-chat", baseUrl: "https://api.x.ai/v1", apiKeyEnv: ["XAI_API_KEY"] },
  {
    id: "together",
    name: "Together AI",
    family: "openai-chat",
    baseUrl: "https://api.together.ai/v1",
    apiKeyEnv: ["TOGETHER_API_KEY"],
  },
  {
    id: "mistral",
    name: "Mistral AI",
    family: "openai-chat",
    baseUrl: "https://api.mistral.ai/v1",
    apiKeyEnv: ["MISTRAL_API_KEY"],
    toolCallIds: "nine-alphanumeric",
  },
  {
    id: "cerebras",
    name: "Cerebras",
    family: "openai-chat",
    baseUrl: "https://api.cerebras.ai/v1",
    apiKeyEnv: ["CEREBRAS_API_KEY"],
  },
  {
    id: "fireworks",
    name: "Fireworks AI",
    family: "openai-chat",
    baseUrl: "https://api.fireworks.ai/inference/v1",
    apiKeyEnv: ["FIREWORKS_API_KEY"],
  },
];

/** Provider id to wire family, for the built-in providers (handoff uses it to place a message's origin). */
export const BUILTIN_PROVIDER_FAMILIES: Readonly<Record<string, WireFamilyId>> = Object.fromEntries(
  BUILTIN_PROVIDERS.map((spec) => [spec.id, spec.family]),
);
