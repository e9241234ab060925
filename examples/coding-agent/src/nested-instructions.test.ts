import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AfterToolContext, AgentMessage } from "@heddle/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNestedInstructionsHooks, offeredIn } from "./nested-instructions.js";

let root: string;
const on = { instructions: true, skills: true, claude: true };
const write = (file: string, text: string) => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "heddle-nested-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function after(hooks: ReturnType<typeof createNestedInstructionsHooks>, toolName: string, input: object) {
  const fn = hooks.afterTool as (ctx: AfterToolContext) => { appendContext?: string } | undefined;
  return fn({
    toolCall: { type: "tool-call", toolCallId: "c", toolName, input },
    input,
    result: { type: "tool-result", toolCallId: "c", toolName, output: "ok" },
  } as unknown as AfterToolContext)?.appendContext;
}

describe("nested instructions", () => {
  it("are offered once per session when a file tool works below them, never from node_modules or dot-folders", () => {
    write("pkg/api/AGENTS.md", "API-RULES");
    write("pkg/api/src/index.ts", "x");
    write("node_modules/dep/AGENTS.md", "DEPENDENCY-RULES");
    write(".github/AGENTS.md", "DOT-RULES");
    const offered = new Set<string>();
    const hooks = createNestedInstructionsHooks({ workspaceRoot: root, conventions: on, offered });
    expect(after(hooks, "read_file", { path: "pkg/api/src/index.ts" })).toContain("API-RULES");
    expect(after(hooks, "read_file", { path: "pkg/api/src/index.ts" })).toBeUndefined();
    expect(after(hooks, "read_file", { path: "node_modules/dep/index.js" })).toBeUndefined();
    expect(after(hooks, "list_files", { path: ".github" })).toBeUndefined();
    expect(after(hooks, "bash", { command: "cat pkg/api/AGENTS.md" })).toBeUndefined();
  });

  it("a resumed session does not get again what its transcript already holds", () => {
    write("pkg/AGENTS.md", "PKG-RULES");
    const first = new Set<string>();
    const context = after(
      createNestedInstructionsHooks({ workspaceRoot: root, conventions: on, offered: first }),
      "read_file",
      {
        path: "pkg/a.ts",
      },
    )!;
    const history = [{ role: "user", content: [{ type: "text", text: context }] }] as unknown as AgentMessage[];
    const resumed = createNestedInstructionsHooks({
      workspaceRoot: root,
      conventions: on,
      offered: offeredIn(history),
    });
    expect(after(resumed, "read_file", { path: "pkg/a.ts" })).toBeUndefined();
  });
});
