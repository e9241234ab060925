// Policy as hooks: a shell-command hook (Claude Code settings shape) blocks `rm -rf`, a function hook adds context.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent } from "@heddle/agents";
import { createDefaultTools, createHookEngine, mergeHooks } from "@heddle/core";
import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentHooks, AgentModel } from "@heddle/shared";

const GUARD = `#!/bin/sh
# PreToolUse hook: reads the call as JSON on stdin; exit 2 blocks it, stderr is the reason.
if grep -q 'rm -rf' ; then echo "rm -rf is not allowed here" >&2; exit 2; fi
exit 0
`;

export async function main(
  model: AgentModel = createScriptedModel([
    { toolCalls: [{ name: "bash", input: { command: "rm -rf build" } }] },
    { toolCalls: [{ name: "bash", input: { command: "echo cleaned" } }] },
    { text: "Cleaned up without rm -rf." },
  ]),
) {
  const workspaceRoot = mkdtempSync(join(tmpdir(), "heddle-hooks-"));
  mkdirSync(join(workspaceRoot, ".heddle"));
  writeFileSync(join(workspaceRoot, ".heddle", "guard.sh"), GUARD);
  chmodSync(join(workspaceRoot, ".heddle", "guard.sh"), 0o755);
  writeFileSync(
    join(workspaceRoot, ".heddle", "settings.json"),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "bash", hooks: [{ type: "command", command: "./.heddle/guard.sh" }] }] },
    }),
  );
  // Command hooks (the repository's settings file) and hooks in code are one model: AgentHooks, merged.
  const engine = createHookEngine({ workspaceRoot });
  const remind: AgentHooks = {
    afterTool: ({ toolCall }) =>
      toolCall.toolName === "bash" ? { appendContext: "Remember: keep commands idempotent." } : undefined,
  };
  const agent = createAgent({
    model,
    tools: createDefaultTools({ workspaceRoot, preset: "full" }),
    hooks: mergeHooks(engine.agentHooks, remind),
  });
  const result = await agent.run("Clean the build folder.");
  console.log(result.outputText);
  return result;
}
