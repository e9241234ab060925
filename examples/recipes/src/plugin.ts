// Plugins from a path: loadPlugins imports ESM modules and isolates one that fails.
import { fileURLToPath } from "node:url";
import { createAgent } from "@heddle/agents";
import { loadPlugins } from "@heddle/core";
import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentModel } from "@heddle/shared";

export async function main(
  model: AgentModel = createScriptedModel([
    { toolCalls: [{ name: "count_words", input: { text: "the quick brown fox" } }] },
    { text: "It has 4 words." },
  ]),
) {
  const pluginPath = fileURLToPath(new URL("../plugins/word-count.mjs", import.meta.url));
  const { plugins, failures } = await loadPlugins([pluginPath, "./does-not-exist.mjs"]);
  for (const failure of failures) console.log(`plugin not loaded: ${failure.path}: ${failure.error.message}`);
  const agent = createAgent({ model, plugins });
  const result = await agent.run("How many words are in 'the quick brown fox'?");
  console.log(result.outputText);
  return { result, failures };
}
