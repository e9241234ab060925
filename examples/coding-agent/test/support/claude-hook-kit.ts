// The shape of a Claude Code hook case and the helpers the table is written with (claude-hook-cases.ts).
import type { SessionRuntime } from "@heddle/core";
import type { ScriptedResponse } from "@heddle/llms/testing";
import type { AgentModelRequest, AgentRunResult, ToolApprovalRequest } from "@heddle/shared";
import { expect } from "vitest";
import type { HostConfig } from "../../src/host.js";

/** What a case's check gets: the run, every request the model saw, the project, the approvals asked, the logs. */
export interface CaseRun {
  root: string;
  home: string;
  result: AgentRunResult;
  requests: AgentModelRequest[];
  approvals: ToolApprovalRequest[];
  /** What heddle-code printed for the person (hook errors and system messages). */
  logs: string;
  read(file: string): string;
  exists(file: string): boolean;
  /** All text of one request (system prompt and messages). */
  text(request: AgentModelRequest | undefined): string;
}

export interface HookCase {
  /** What Claude Code's documentation says the hook does. */
  name: string;
  /** Where in Claude Code's documentation the example is. */
  source: string;
  /** `.claude/settings.json`, as the documentation shows it. */
  settings: object;
  /** Other files of the example (its hook scripts), relative to the project; `.sh` and `.py` are made executable. */
  files?: { [file: string]: string };
  model: ScriptedResponse[];
  preset?: HostConfig["preset"];
  prompt?: string;
  /** Runs the session some other way than one `send(prompt)` (a compaction, two prompts). */
  run?(session: SessionRuntime): Promise<AgentRunResult>;
  check(run: CaseRun): void;
}

export const command = (c: string, timeout?: number) => ({ type: "command", command: c, ...(timeout && { timeout }) });
export const on = (event: string, hooks: object[], matcher?: string) => ({
  hooks: { [event]: [{ ...(matcher !== undefined && { matcher }), hooks }] },
});
export const call = (name: string, input: object, id?: string): ScriptedResponse => ({
  toolCalls: [{ ...(id && { id }), name, input }],
});
export const say = (text: string): ScriptedResponse => ({ text });
/** The tool results the model got back in a request, joined. */
export const results = (request: AgentModelRequest | undefined) =>
  (request?.messages ?? [])
    .filter((m) => m.role === "tool")
    .flatMap((m) => m.content)
    .map((part) => (part.type === "tool-result" ? JSON.stringify(part.output) : ""))
    .join("\n");

export const twoTurns =
  (...prompts: string[]) =>
  async (session: SessionRuntime): Promise<AgentRunResult> => {
    let last: AgentRunResult | undefined;
    for (const prompt of prompts) last = await session.send(prompt);
    return last!;
  };
export const withCompaction = async (session: SessionRuntime): Promise<AgentRunResult> => {
  await session.send("hello");
  expect((await session.compact()).compacted).toBe(true);
  return session.send("go on");
};
