// Start on Anthropic (with extended thinking and a tool call), continue the same transcript on OpenAI.
// The gateway makes the transcript valid for the target: foreign thinking becomes plain text, signatures stay
// with their vendor, tool-call ids fit the target's rules.
// Run: ANTHROPIC_API_KEY=... OPENAI_API_KEY=... node dist/run.js cross-provider-handoff
import { createAgent } from "@heddle/agents";
import { createTool } from "@heddle/shared";
import { z } from "zod";

type Endpoint = { baseUrl?: string; apiKey?: string };

export async function main(endpoints: { anthropic?: Endpoint; openai?: Endpoint } = {}) {
  const weather = createTool({
    name: "weather",
    description: "Weather for a location",
    input: z.object({ location: z.string() }),
    execute: ({ location }) => `Sunny, 24°C in ${location}.`,
  });

  const claude = createAgent({
    providerId: "anthropic",
    modelId: "claude-sonnet-4-6",
    tools: [weather],
    options: { reasoning: { budgetTokens: 2048 } },
    ...endpoints.anthropic,
  });
  const first = await claude.run("What's the weather in Florence, Italy?");

  const gpt = createAgent({
    providerId: "openai-chat",
    modelId: "gpt-4o",
    tools: [weather],
    initialMessages: first.messages,
    ...endpoints.openai,
  });
  const second = await gpt.run("Now say it in five words.");
  console.log(`Claude: ${first.outputText}\nGPT: ${second.outputText}`);
  return { first, second };
}
