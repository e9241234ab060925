import { AgentRuntime } from "@heddle/agents";
import { createSpawnAgentTool, isSubagentUpdate } from "@heddle/core";
import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentTool } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import type { ReplState } from "../src/interactive.js";
import { TerminalRenderer } from "../src/render.js";
import { runSlashCommand } from "../src/slash-commands.js";
import { CliTeam } from "../src/team.js";
import { TeamView } from "../src/team-view.js";

describe("/team", () => {
  it("lists the sub-agents the lead started, with their state, tools and cost", async () => {
    let output = "";
    const write = (text: string) => {
      output += text;
    };
    const renderer = new TerminalRenderer({ write, color: false, tty: false });
    const team = new TeamView();
    const teammates = new CliTeam({
      config: () => {
        throw new Error("no teammate is started here");
      },
      host: () => {
        throw new Error("no teammate is started here");
      },
      announce: () => {},
    });
    const state = { renderer, team, teammates } as unknown as ReplState;

    await runSlashCommand("/team", state);
    expect(output).toContain("no sub-agents yet");

    const echo: AgentTool = {
      name: "echo",
      description: "echoes",
      inputSchema: { type: "object" },
      execute: () => "echoed",
    };
    const spawn = createSpawnAgentTool({
      model: createScriptedModel([
        { toolCalls: [{ name: "echo", input: {} }], usage: { costUsd: 0.001 } },
        { text: "checked", usage: { costUsd: 0.001 } },
      ]),
      tools: [echo],
    });
    const lead = new AgentRuntime({
      model: createScriptedModel([
        { toolCalls: [{ name: "spawn_agent", input: { description: "check the thing", prompt: "check it" } }] },
        { text: "done" },
      ]),
      tools: [spawn],
    });
    lead.subscribe((event) => {
      if (event.type === "tool-updated" && isSubagentUpdate(event.update)) team.record(event.update);
    });
    await lead.run("go");

    output = "";
    await runSlashCommand("/team", state);
    expect(output).toMatch(/agent_\w+ {2}done {4} {2}"check the thing" {2}1 tool call \(last: echo\) · \$0\.0020/);
  });
});
