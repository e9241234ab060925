import type { ModelPricing } from "@heddle/shared";

/**
 * The model catalog: every chat model id named in the model-id types of the pinned vendor clients
 * (`@anthropic-ai/sdk` 1.14.0 `Model`, `openai` 6.49.0 `ChatModel` + `ResponsesModel`, `@google/genai` 2.32.0
 * `Model`), with limits and USD prices per million tokens. Each row says where its numbers came from; `pricing` is
 * absent where no source was found (the gateway then reports cost 0), and limits marked "assumed" are the gateway's
 * defaults, not a vendor figure. Cache writes are priced at the 5-minute (default) rate.
 */
export interface CatalogEntry {
  vendor: "anthropic" | "openai" | "gemini";
  id: string;
  contextWindow: number;
  maxOutputTokens: number;
  pricing?: ModelPricing;
  supports: { tools: boolean; reasoning: boolean; images: boolean };
  sources: { pricing?: string; limits?: string };
}

type Group = Omit<CatalogEntry, "vendor" | "id">;

const ASSUMED_LIMITS = "assumed (no vendor figure found): gateway default 128k window, 8k output";
const ANT_PRICING = "platform.claude.com/docs/en/about-claude/pricing, model pricing table";
const ANT_OPUS5 = "platform.claude.com/docs/about-claude/models/whats-new-opus-5 (spec and lineup table)";
const OAI_PRICING = "OpenAI API pricing page as quoted by benchlm.ai/blog/posts/openai-api-pricing (2026-04)";
const OAI_LEGACY = "openai.com/api/pricing as tabulated by docs.rs openai-models 0.1.1 (third party)";
const OAI_GPT5 = "openai.com/api/pricing as tabulated by docs.rs openai-cost 0.1.0 (third party)";
const ANT_PRICING_ZH = "platform.claude.com/docs/zh-CN/about-claude/pricing, model pricing table";
const ANT_SONNET5 = "platform.claude.com/docs/zh-CN/models/sonnet-5/overview (specifications)";
const ANT_FABLE5 = "platform.claude.com/docs/en/models/fable-5/overview (Mythos 5 shares its specifications)";
const ANT_LINEUP = "platform.claude.com/docs/id/models/sonnet-5/overview.md (current-lineup comparison table)";
const OAI_MODEL = (id: string, locale = "") =>
  `developers.openai.com${locale ? `/${locale}` : ""}/api/docs/models/${id} (model page: limits and text-token prices)`;
const VERCEL = (id: string) => `vercel.com/ai-gateway/models/${id} (third party)`;
const GEMINI_PRICING =
  "ai.google.dev/gemini-api/docs/pricing as transcribed verbatim by github.com/api-evangelist/gemini plans/gemini-plans-pricing.yml, read 2026-09-20 (third party)";

const REASONING_ALL = { tools: true, reasoning: true, images: true };
const PLAIN = { tools: true, reasoning: false, images: true };
const TEXT_ONLY = { tools: true, reasoning: false, images: false };

const unknownLimits = (supports = PLAIN): Group => ({
  contextWindow: 128_000,
  maxOutputTokens: 8_192,
  supports,
  sources: { limits: ASSUMED_LIMITS },
});

function group(vendor: CatalogEntry["vendor"], ids: string[], spec: Group): CatalogEntry[] {
  return ids.map((id) => ({ vendor, id, ...spec }));
}

const anthropic: CatalogEntry[] = [
  ...group("anthropic", ["claude-fable-5-1", "claude-mythos-5-1"], {
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    pricing: { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 },
    supports: REASONING_ALL,
    sources: { pricing: ANT_PRICING, limits: `${ANT_OPUS5} (Fable 5.1 row)` },
  }),
  ...group("anthropic", ["claude-fable-5", "claude-mythos-5"], {
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    pricing: { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 },
    supports: REASONING_ALL,
    sources: { pricing: ANT_PRICING, limits: ANT_FABLE5 },
  }),
  ...group("anthropic", ["claude-fable-5-2"], {
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    pricing: { input: 8, output: 40, cacheRead: 0.2, cacheWrite: 10 },
    supports: REASONING_ALL,
    sources: {
      pricing: `${ANT_LINEUP} ($8/$40); cache read $0.20 and 5m write $10 from docs.laozhang.ai/en/announcements/claude-fable-5-2-2026-11 and github.com/archid21/rightsize v0.10.2 (third party)`,
      limits: ANT_LINEUP,
    },
  }),
  ...group("anthropic", ["claude-opus-5"], {
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    pricing: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    supports: REASONING_ALL,
    sources: { pricing: `${ANT_PRICING}; ${ANT_OPUS5}`, limits: ANT_OPUS5 },
  }),
  ...group("anthropic", ["claude-opus-5-5"], {
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    pricing: { input: 4, output: 20, cacheRead: 0.2 },
    supports: REASONING_ALL,
    sources: {
      pricing: `${ANT_OPUS5} ($4/$20); cache read 0.05x from docs.rs synaps 0.10.2 pricing table (third party)`,
      limits: ANT_OPUS5,
    },
  }),
  ...group("anthropic", ["claude-sonnet-5-5"], {
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    pricing: { input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5 },
    supports: REASONING_ALL,
    sources: {
      pricing: `${ANT_OPUS5} ($2/$10); cache read $0.10 after the 2026-10-07 cut and 5m write $2.50 as reported by github.com/kurofune/claudit v1.9.2 and uttamdeb/agent-telemetry v1.6.4 (third party)`,
      limits: ANT_OPUS5,
    },
  }),
  ...group("anthropic", ["claude-sonnet-5"], {
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    pricing: { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
    supports: REASONING_ALL,
    sources: { pricing: ANT_SONNET5, limits: ANT_SONNET5 },
  }),
  ...group("anthropic", ["claude-haiku-5-5"], {
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    pricing: { input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125 },
    supports: REASONING_ALL,
    sources: {
      pricing:
        "prompts up to 100k tokens (longer prompts cost 5x; not modelled): github.com/kurofune/claudit v1.9.2, TheKrush/PromptFuel v1.0.23 (third party)",
      limits: ANT_OPUS5,
    },
  }),
  ...group("anthropic", ["claude-opus-4-8"], {
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    pricing: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    supports: REASONING_ALL,
    sources: { pricing: ANT_PRICING, limits: "platform.claude.com/docs/de/models/opus-4-8/overview.md" },
  }),
  ...group("anthropic", ["claude-opus-4-7"], {
    ...unknownLimits(REASONING_ALL),
    pricing: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    sources: { pricing: ANT_PRICING, limits: ASSUMED_LIMITS },
  }),
  ...group("anthropic", ["claude-opus-4-6"], {
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    pricing: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    supports: REASONING_ALL,
    sources: { pricing: ANT_PRICING, limits: "deploybase.ai/articles/claude-api-pricing (third party)" },
  }),
  ...group("anthropic", ["claude-opus-4-5", "claude-opus-4-5-20251101"], {
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    pricing: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    supports: REASONING_ALL,
    sources: { pricing: ANT_PRICING, limits: "deploybase.ai/articles/claude-api-pricing (third party)" },
  }),
  ...group("anthropic", ["claude-sonnet-4-6"], {
    contextWindow: 1_000_000,
    maxOutputTokens: 64_000,
    pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    supports: REASONING_ALL,
    sources: {
      pricing: ANT_PRICING_ZH,
      limits: "deploybase.ai/articles/claude-api-pricing (third party)",
    },
  }),
  ...group("anthropic", ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929"], {
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    supports: REASONING_ALL,
    sources: {
      pricing: ANT_PRICING_ZH,
      limits: "deploybase.ai/articles/claude-api-pricing (third party); 1M window is a beta, not the default",
    },
  }),
  ...group("anthropic", ["claude-haiku-4-5", "claude-haiku-4-5-20251001"], {
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    pricing: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    supports: REASONING_ALL,
    sources: { pricing: ANT_PRICING_ZH, limits: `${ANT_SONNET5}, Haiku 4.5 row of the comparison table` },
  }),
  ...group("anthropic", ["claude-mythos-5-2", "claude-mythos-preview"], unknownLimits(REASONING_ALL)),
];

const openai: CatalogEntry[] = [
  ...group("openai", ["gpt-5.6-sol"], {
    contextWindow: 1_050_000,
    maxOutputTokens: 128_000,
    pricing: { input: 4, output: 20, cacheRead: 0.4, cacheWrite: 5 },
    supports: REASONING_ALL,
    sources: {
      pricing: `${OAI_MODEL("gpt-5.6-sol", "ja-JP")}: promotional $4/$20 "at least until 2026-11-21"; cache writes 1.25x uncached input; prompts over 272k input tokens cost 2x input and 1.5x output for the whole request (not modelled)`,
      limits: OAI_MODEL("gpt-5.6-sol", "pt-BR"),
    },
  }),
  ...group("openai", ["gpt-5.6-terra"], {
    ...unknownLimits(REASONING_ALL),
    pricing: { input: 2, output: 12, cacheRead: 0.2 },
    sources: {
      pricing:
        "rates after OpenAI's 2026-07-30 cut, prompts up to 272k input tokens: docs.laozhang.ai/en/announcements/gpt-5-6-pricing-2026-07 and github.com/TheKrush/PromptFuel v1.0.19 (third party)",
      limits: ASSUMED_LIMITS,
    },
  }),
  ...group("openai", ["gpt-5.6-luna"], {
    ...unknownLimits(REASONING_ALL),
    pricing: { input: 0.2, output: 1.2, cacheRead: 0.02 },
    sources: {
      pricing:
        "rates after OpenAI's 2026-07-30 cut, prompts up to 272k input tokens: docs.laozhang.ai/en/announcements/gpt-5-6-pricing-2026-07 and github.com/TheKrush/PromptFuel v1.0.19 (third party)",
      limits: ASSUMED_LIMITS,
    },
  }),
  ...group("openai", ["gpt-5.4"], {
    contextWindow: 1_050_000,
    maxOutputTokens: 128_000,
    pricing: { input: 2.5, output: 15, cacheRead: 0.25 },
    supports: REASONING_ALL,
    sources: {
      pricing: `${OAI_PRICING}; prompts up to 272k input tokens (above: $5 input / $22.50 output per wavespeed.ai/llm/openai/gpt-5.4, third party; not modelled)`,
      limits: "wavespeed.ai/llm/openai/gpt-5.4 and getmaxim.ai bifrost model library (third party)",
    },
  }),
  ...group("openai", ["gpt-5.4-mini", "gpt-5.4-mini-2026-03-17"], {
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 0.75, output: 4.5, cacheRead: 0.075 },
    supports: REASONING_ALL,
    sources: { pricing: OAI_PRICING, limits: VERCEL("openai/gpt-5.4-mini") },
  }),
  ...group("openai", ["gpt-5.4-nano", "gpt-5.4-nano-2026-03-17"], {
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 0.2, output: 1.25, cacheRead: 0.02 },
    supports: REASONING_ALL,
    sources: { pricing: OAI_PRICING, limits: VERCEL("openai/gpt-5.4-nano") },
  }),
  ...group("openai", ["gpt-5.2", "gpt-5.2-2025-12-11"], {
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 1.75, output: 14, cacheRead: 0.175 },
    supports: REASONING_ALL,
    sources: { pricing: OAI_PRICING, limits: VERCEL("openai/gpt-5.2-fast") },
  }),
  ...group("openai", ["gpt-5.2-pro", "gpt-5.2-pro-2025-12-11"], {
    ...unknownLimits(REASONING_ALL),
    pricing: { input: 21, output: 168 },
    sources: { pricing: OAI_PRICING, limits: ASSUMED_LIMITS },
  }),
  ...group("openai", ["gpt-5.1", "gpt-5.1-2025-11-13"], {
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 1.25, output: 10, cacheRead: 0.125 },
    supports: REASONING_ALL,
    sources: {
      pricing: OAI_PRICING,
      limits:
        "github.com/continuedev/openai-continue-hub blocks/public/gpt-5.1.yaml; deploybase.ai/articles/openai-api-pricing-2026 (third party)",
    },
  }),
  ...group("openai", ["gpt-5", "gpt-5-2025-08-07"], {
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 1.25, output: 10 },
    supports: REASONING_ALL,
    sources: { pricing: OAI_GPT5, limits: VERCEL("gpt-5-fast") },
  }),
  ...group("openai", ["gpt-5-mini", "gpt-5-mini-2025-08-07"], {
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 0.25, output: 2, cacheRead: 0.025 },
    supports: REASONING_ALL,
    sources: { pricing: OAI_MODEL("gpt-5-mini", "ko-KR"), limits: OAI_MODEL("gpt-5-mini", "ko-KR") },
  }),
  ...group("openai", ["gpt-5-nano", "gpt-5-nano-2025-08-07"], {
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 0.05, output: 0.4, cacheRead: 0.005 },
    supports: REASONING_ALL,
    sources: {
      pricing: OAI_MODEL("gpt-5-nano"),
      limits: `${OAI_MODEL("gpt-5-nano")}; maximum input 272,000 tokens`,
    },
  }),
  ...group("openai", ["gpt-5-pro", "gpt-5-pro-2025-10-06"], {
    contextWindow: 400_000,
    maxOutputTokens: 272_000,
    pricing: { input: 15, output: 120 },
    supports: REASONING_ALL,
    sources: {
      pricing: OAI_PRICING,
      limits: "api.koog.ai OpenAIModels.Chat.GPT5Pro, quoting the OpenAI model card (third party)",
    },
  }),
  ...group("openai", ["o3", "o3-2025-04-16"], {
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    pricing: { input: 2, output: 8, cacheRead: 0.5 },
    supports: REASONING_ALL,
    sources: {
      pricing:
        "deploybase.ai/articles/openai-pricing ($2/$8); cached input $0.50 from blog.csdn.net/2501_93608822/article/details/152910541 (third party)",
      limits: VERCEL("o3-fast"),
    },
  }),
  ...group("openai", ["o4-mini", "o4-mini-2025-04-16"], {
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    pricing: { input: 1.1, output: 4.4, cacheRead: 0.275 },
    supports: REASONING_ALL,
    sources: { pricing: "helicone.ai/model/o4-mini, OpenAI provider row (third party)", limits: VERCEL("o4-mini") },
  }),
  ...group("openai", ["gpt-4o", "gpt-4o-2024-11-20", "gpt-4o-2024-08-06"], {
    ...unknownLimits(PLAIN),
    pricing: { input: 2.5, output: 10, cacheRead: 1.25 },
    sources: { pricing: OAI_LEGACY, limits: ASSUMED_LIMITS },
  }),
  ...group("openai", ["gpt-4o-mini", "gpt-4o-mini-2024-07-18"], {
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    pricing: { input: 0.15, output: 0.6, cacheRead: 0.075 },
    supports: PLAIN,
    sources: { pricing: OAI_LEGACY, limits: VERCEL("gpt-4o-mini-fast") },
  }),
  ...group("openai", ["gpt-4.1", "gpt-4.1-2025-04-14"], {
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    pricing: { input: 2, output: 8, cacheRead: 0.5 },
    supports: PLAIN,
    sources: {
      pricing: `${VERCEL("gpt-4.1/providers")} OpenAI row; github.com/github/docs data/tables/copilot/models-and-pricing.yml (third party)`,
      limits: VERCEL("gpt-4.1-fast"),
    },
  }),
  ...group("openai", ["gpt-4.1-mini", "gpt-4.1-mini-2025-04-14"], {
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    pricing: { input: 0.4, output: 1.6, cacheRead: 0.1 },
    supports: PLAIN,
    sources: { pricing: VERCEL("gpt-4.1-mini/api"), limits: VERCEL("gpt-4.1-mini-fast") },
  }),
  ...group("openai", ["gpt-4.1-nano", "gpt-4.1-nano-2025-04-14"], {
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    pricing: { input: 0.1, output: 0.4, cacheRead: 0.025 },
    supports: PLAIN,
    sources: { pricing: OAI_MODEL("gpt-4.1-nano", "ko-KR"), limits: OAI_MODEL("gpt-4.1-nano", "ko-KR") },
  }),
  ...group("openai", ["gpt-4", "gpt-4-0613"], {
    contextWindow: 8_192,
    maxOutputTokens: 8_192,
    pricing: { input: 30, output: 60 },
    supports: TEXT_ONLY,
    sources: {
      pricing: "developers.openai.com/api/docs/models/gpt-4.md (default snapshot gpt-4-0613)",
      limits: "developers.openai.com/api/docs/models/gpt-4.md (window and max output are both 8,192)",
    },
  }),
  ...group("openai", ["o1", "o1-2024-12-17"], {
    ...unknownLimits(REASONING_ALL),
    pricing: { input: 15, output: 60, cacheRead: 7.5 },
    sources: { pricing: OAI_LEGACY, limits: ASSUMED_LIMITS },
  }),
  ...group(
    "openai",
    [
      "gpt-5.3-chat-latest",
      "gpt-5.2-chat-latest",
      "gpt-5.1-codex",
      "gpt-5.1-mini",
      "gpt-5.1-chat-latest",
      "gpt-5.1-codex-max",
      "gpt-5-chat-latest",
      "gpt-5-codex",
      "o3-mini",
      "o3-mini-2025-01-31",
      "o3-pro",
      "o3-pro-2025-06-10",
      "o1-pro",
      "o1-pro-2025-03-19",
      "o1-preview",
      "o1-preview-2024-09-12",
      "o1-mini",
      "o1-mini-2024-09-12",
      "codex-mini-latest",
    ],
    unknownLimits(REASONING_ALL),
  ),
  ...group(
    "openai",
    ["gpt-4o-2024-05-13", "chatgpt-4o-latest", "gpt-4-turbo", "gpt-4-turbo-2024-04-09", "gpt-4-vision-preview"],
    unknownLimits(PLAIN),
  ),
  ...group(
    "openai",
    [
      "gpt-4o-search-preview",
      "gpt-4o-mini-search-preview",
      "gpt-4o-search-preview-2025-03-11",
      "gpt-4o-mini-search-preview-2025-03-11",
      "gpt-4o-audio-preview",
      "gpt-4o-audio-preview-2024-10-01",
      "gpt-4o-audio-preview-2024-12-17",
      "gpt-4o-audio-preview-2025-06-03",
      "gpt-4o-mini-audio-preview",
      "gpt-4o-mini-audio-preview-2024-12-17",
      "gpt-4-0125-preview",
      "gpt-4-turbo-preview",
      "gpt-4-1106-preview",
      "gpt-4-0314",
      "gpt-4-32k",
      "gpt-4-32k-0314",
      "gpt-4-32k-0613",
      "gpt-3.5-turbo",
      "gpt-3.5-turbo-16k",
      "gpt-3.5-turbo-0301",
      "gpt-3.5-turbo-0613",
      "gpt-3.5-turbo-1106",
      "gpt-3.5-turbo-0125",
      "gpt-3.5-turbo-16k-0613",
      "o3-deep-research",
      "o3-deep-research-2025-06-26",
      "o4-mini-deep-research",
      "o4-mini-deep-research-2025-06-26",
      "computer-use-preview",
      "computer-use-preview-2025-03-11",
    ],
    unknownLimits(TEXT_ONLY),
  ),
];

const GEMINI_WINDOW =
  "1,048,576-token input limit as stated in Gemini's own overflow error (research/vendor-streams.md 5.6); 65,536 output assumed from the 2.5 family";

const gemini: CatalogEntry[] = [
  ...group("gemini", ["gemini-2.5-pro"], {
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    pricing: { input: 1.25, output: 10 },
    supports: REASONING_ALL,
    sources: {
      pricing: `prompts up to 200k tokens; above, input is $2.50 (not modelled): ${GEMINI_PRICING}; output $10 from docs.rs gemini-cost 0.1.0 (third party)`,
      limits: GEMINI_WINDOW,
    },
  }),
  ...group(
    "gemini",
    [
      "gemini-2.5-flash",
      "gemini-2.5-flash-lite",
      "gemini-flash-latest",
      "gemini-flash-lite-latest",
      "gemini-pro-latest",
    ],
    { contextWindow: 1_048_576, maxOutputTokens: 65_536, supports: REASONING_ALL, sources: { limits: GEMINI_WINDOW } },
  ),
  ...group("gemini", ["gemini-3.8-flash"], {
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    pricing: { input: 0.75, output: 3.75, cacheRead: 0.075 },
    supports: REASONING_ALL,
    sources: {
      pricing: `promotional rate through 2026-12-31, then $1.50 / $7.50 (not modelled): ${GEMINI_PRICING}; cache read from github.com/BerriAI/litellm discussion 39357 (third party)`,
      limits: "github.com/BerriAI/litellm discussion 39357 (third party)",
    },
  }),
  ...group("gemini", ["gemini-3.5-flash"], {
    ...unknownLimits(REASONING_ALL),
    pricing: { input: 1.5, output: 9 },
    sources: { pricing: GEMINI_PRICING, limits: ASSUMED_LIMITS },
  }),
  ...group("gemini", ["gemini-3.1-pro-preview"], {
    ...unknownLimits(REASONING_ALL),
    pricing: { input: 2, output: 12 },
    sources: {
      pricing: `prompts up to 200k tokens; above, $4 input / $18 output (not modelled): ${GEMINI_PRICING}`,
      limits: ASSUMED_LIMITS,
    },
  }),
  ...group(
    "gemini",
    [
      "gemini-3.5-flash-lite",
      "gemini-3-flash-preview",
      "gemini-3.1-pro-preview-customtools",
      "gemini-3.1-flash-lite",
      "gemini-3.6-flash",
      "gemini-3.7-flash",
      "gemini-4-argon",
      "gemini-omni-1.1-flash",
      "gemini-omni-flash-preview",
    ],
    unknownLimits(REASONING_ALL),
  ),
  ...group(
    "gemini",
    ["gemini-2.0-flash", "gemini-2.0-flash-001", "gemma-4-26b-a4b-it", "gemma-4-31b-it"],
    unknownLimits(PLAIN),
  ),
];

export const CATALOG: readonly CatalogEntry[] = [...anthropic, ...openai, ...gemini];
