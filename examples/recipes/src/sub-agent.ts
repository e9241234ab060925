// A lead delegates a check to a sub-agent: spawn_agent runs a child with its own context and a subset of tools;
// its answer is the tool result and its spend counts against the lead's budget.
import { AgentRuntime } from "@heddle/agents";
import { createSpawnAgentTool, isSubagentUpdate } from "@heddle/core";
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentModel, type AgentTool, createTool } from "@heddle/shared";
import { z } from "zod";

const readChangelog: AgentTool = createTool({
  name: "read_changelog",
  description: "Reads the project's changelog.",
  input: z.object({}),
  readOnly: true,
  execute: () => "## 2.1.0\n- Added retries\n## 2.0.0\n- Dropped Node 18",
});

export async function main(
  leadModel: AgentModel = createScriptedModel([
    {
      toolCalls: [
        {
          name: "spawn_agent",
          input: {
            description: "check the changelog",
            prompt: "Which release dropped Node 18? Answer in one line.",
            tools: ["read_changelog"],
          },
        },
      ],
    },
    { text: "Node 18 support ended in 2.0.0 (checked by a sub-agent)." },
  ]),
  childModel: AgentModel = createScriptedModel([
    { toolCalls: [{ name: "read_changelog", input: {} }] },
    { text: "2.0.0 dropped Node 18." },
  ]),
) {
  const spawnAgent = createSpawnAgentTool({
    model: childModel,
    tools: [readChangelog],
    systemPrompt: "You are a careful checker. Answer briefly.",
    maxIterations: 10,
  });
  const lead = new AgentRuntime({ model: leadModel, tools: [spawnAgent], agentId: "lead", maxBudgetUsd: 1 });
  lead.subscribe((event) => {
    // The child's events arrive as updates of the lead's spawn_agent call.
    if (event.type === "tool-updated" && isSubagentUpdate(event.update) && event.update.event.type === "tool-started")
      console.log(`  [${event.update.description}] uses ${event.update.event.toolCall.toolName}`);
  });
  const result = await lead.run("When did we drop Node 18?");
  console.log(result.outputText);
  console.log(`tokens in: ${result.usage.inputTokens} (the lead's and the sub-agent's)`);
  return result;
}
