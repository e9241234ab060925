// Ask a person before a tool runs: approve, deny with a reason, or approve with changed input.
import { createInterface } from "node:readline/promises";
import { createAgent } from "@heddle/agents";
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentModel, createTool, type ToolApprovalDecision, type ToolApprovalRequest } from "@heddle/shared";
import { z } from "zod";

const deleteBranch = createTool({
  name: "delete_branch",
  description: "Delete a git branch",
  input: z.object({ branch: z.string() }),
  execute: ({ branch }) => `deleted ${branch}`,
});

/** Asks on the terminal: y approves, n denies, anything else is taken as the branch to delete instead. */
export async function askOnTerminal(request: ToolApprovalRequest): Promise<ToolApprovalDecision> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = (
    await rl.question(`Run ${request.toolCall.toolName} ${JSON.stringify(request.input)}? [y/n/other branch] `)
  ).trim();
  rl.close();
  if (answer === "y") return { approved: true };
  if (answer === "n" || answer === "") return { approved: false, reason: "The user said no." };
  return { approved: true, updatedInput: { branch: answer } };
}

export async function main(
  approve: (request: ToolApprovalRequest) => Promise<ToolApprovalDecision> = askOnTerminal,
  model: AgentModel = createScriptedModel([
    { toolCalls: [{ name: "delete_branch", input: { branch: "main" } }] },
    { text: "Done." },
  ]),
) {
  const agent = createAgent({
    model,
    tools: [deleteBranch],
    toolPolicies: { delete_branch: { autoApprove: false } },
    requestToolApproval: approve,
  });
  const result = await agent.run("Clean up the old branch.");
  console.log("denials:", result.permissionDenials);
  return result;
}
