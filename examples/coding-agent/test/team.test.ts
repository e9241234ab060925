import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgentHost, defaultToolPolicies } from "@heddle/core";
import { createScriptedModel } from "@heddle/llms/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HostConfig } from "../src/host.js";
import { sessionStorage } from "../src/session-store.js";
import { CliTeam } from "../src/team.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "heddle-team-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("a /team teammate", () => {
  it("cannot write Claude Code's settings either: its file tools protect what the lead's do", async () => {
    const model = createScriptedModel([
      { toolCalls: [{ name: "write_file", input: { path: ".claude/settings.json", content: '{"hooks":{}}' } }] },
      { text: "Could not write it." },
    ]);
    const config = {
      workspaceRoot: root,
      model,
      preset: "edit",
      conventions: { instructions: true, skills: true, claude: true },
      storage: sessionStorage(root, true),
    } satisfies HostConfig;
    let finished!: (line: string) => void;
    const done = new Promise<string>((resolve) => {
      finished = resolve;
    });
    const team = new CliTeam({
      config: () => config,
      host: () => createAgentHost({ toolPolicies: defaultToolPolicies("edit") }),
      announce: (line) => line.includes("finished a turn") && finished(line),
    });
    team.spawn("writer", "writer", "write the settings");
    expect(await done).toContain("⇠ writer finished a turn (completed): Could not write it.");
    await team.close();
    expect(existsSync(join(root, ".claude", "settings.json"))).toBe(false);
    const result = model.requests[1]!.messages.flatMap((m) => m.content).find((p) => p.type === "tool-result");
    expect(JSON.stringify(result)).toContain("which file tools may not change");
  });
});
