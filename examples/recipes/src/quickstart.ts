// The README's example: one tool, one run, on a real provider (Anthropic here).
// Run: ANTHROPIC_API_KEY=... node dist/run.js quickstart
import { createAgent } from "@heddle/agents";
import { createTool } from "@heddle/shared";
import { z } from "zod";

export async function main(options: { baseUrl?: string; apiKey?: string } = {}) {
  const weather = createTool({
    name: "get_weather",
    description: "Current weather for a city",
    input: z.object({ city: z.string() }),
    execute: async ({ city }) => `It is 18°C and sunny in ${city}.`,
  });

  const agent = createAgent({
    providerId: "anthropic",
    modelId: "claude-sonnet-4-6",
    tools: [weather],
    ...options, // the tests point baseUrl at a loopback server that speaks Anthropic's wire format
  });
  const result = await agent.run("What's the weather in Lisbon?");
  console.log(result.outputText, result.usage.costUsd);
  return result;
}
