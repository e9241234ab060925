import { defineConfig } from "vitest/config";
import { workspaceAlias } from "./vitest.shared.js";

/**
 * The tests `pnpm mutation` runs against each mutant: the ones that exercise the guarantee modules listed in
 * stryker.config.mjs. One flat project (Stryker's vitest runner measures per-test coverage on it), with the same
 * source aliases as the packages' own configs.
 */
export const mutationTests = [
  // session write ordering and repair
  "packages/core/src/sessions/write-queue.test.ts",
  "packages/core/src/sessions/repair.test.ts",
  "packages/core/src/sessions/session-runtime.test.ts",
  "packages/core/src/backends/sqlite/stores.test.ts",
  "packages/core/src/backends/sqlite/sqlite-damage.test.ts",
  // loop detection and the breaker
  "packages/core/src/safety/safety-hooks.test.ts",
  "packages/core/src/safety/safety-session.test.ts",
  "packages/core/src/safety/safety-limits.test.ts",
  // the workspace guard, file tools, the shell process kill
  "packages/core/src/workspace/workspace.test.ts",
  "packages/core/src/workspace/workspace.property.test.ts",
  "packages/core/src/workspace/workspace-inputs.test.ts",
  "packages/core/src/tools/file-tools.test.ts",
  "packages/core/src/tools/edit-file.test.ts",
  "packages/core/src/tools/protected-paths.test.ts",
  "packages/core/src/tools/special-files.test.ts",
  "packages/core/src/tools/process-kill.test.ts",
  "packages/core/src/tools/bash.test.ts",
  "packages/core/src/process/shell-process.test.ts",
  "packages/core/src/process/process-tree.test.ts",
  // retries, stream assembly, tool-input parsing
  "packages/llms/src/retry.test.ts",
  "packages/llms/src/retry-edges.test.ts",
  "packages/llms/src/tool-call-accumulator.test.ts",
  "packages/llms/src/tool-input.property.test.ts",
  "packages/agents/src/stream-assembler.test.ts",
  "packages/agents/src/tool-input.test.ts",
  // the agent host and governed teams
  "packages/core/src/host/policy.test.ts",
  "packages/core/src/host/limits.test.ts",
  "packages/core/src/teams/frames.test.ts",
  "packages/core/src/teams/team-governor.test.ts",
  "packages/core/test/teams/subagent-governance.test.ts",
  "packages/core/test/teams/team-governance.test.ts",
  "packages/core/test/teams/team-guarantees.test.ts",
  "packages/core/test/teams/team-manager.test.ts",
  "packages/core/test/teams/spawn-agent.test.ts",
  // mailboxes and MCP tool mapping
  "packages/core/test/teams/mailbox-conformance.test.ts",
  "packages/core/test/teams/sqlite-mailbox-damage.test.ts",
  "packages/core/test/teams/sqlite-mailbox-polling.test.ts",
  "packages/core/test/teams/protocol.test.ts",
  "packages/core/src/backends/redis/redis-mailbox.test.ts",
  "packages/core/src/backends/redis/redis-close-race.test.ts",
  "packages/core/src/backends/redis/redis-mailbox-edges.test.ts",
  "packages/core/src/mcp/names.test.ts",
  "packages/core/src/mcp/results.test.ts",
];

export default defineConfig({
  resolve: { alias: workspaceAlias },
  // MUTATION_TESTS (comma-separated paths) narrows the set for a scoped run: `MUTATION_TESTS=a.test.ts,b.test.ts`.
  // A per-test budget a loaded two-core machine meets: a slow test must not fail the initial run.
  test: { include: process.env.MUTATION_TESTS?.split(",") ?? mutationTests, environment: "node", testTimeout: 30_000 },
});
