import type { SubagentUpdate } from "@heddle/core";
import { formatUsd } from "./render.js";

interface SubagentRecord {
  id: string;
  description: string;
  state: "running" | "done" | "stopped";
  toolCalls: number;
  costUsd: number;
  lastTool?: string;
  reason?: string;
}

/** What `/team` shows: the sub-agents this process started, live from the lead's `spawn_agent` updates. */
export class TeamView {
  readonly #subagents = new Map<string, SubagentRecord>();

  /** Takes one sub-agent update (the `update` of a `tool-updated` event). */
  record(update: SubagentUpdate): void {
    const { event } = update;
    let entry = this.#subagents.get(update.subagentId);
    if (!entry) {
      entry = { id: update.subagentId, description: update.description, state: "running", toolCalls: 0, costUsd: 0 };
      this.#subagents.set(update.subagentId, entry);
    }
    if (event.type === "tool-started") {
      entry.toolCalls += 1;
      entry.lastTool = event.toolCall.toolName;
    } else if (event.type === "usage-updated") entry.costUsd = event.usage.costUsd;
    else if (event.type === "run-finished") {
      entry.state = event.result.status === "completed" ? "done" : "stopped";
      entry.reason = event.result.reason;
    }
  }

  lines(): string[] {
    if (this.#subagents.size === 0)
      return ["no sub-agents yet (with --preset full the agent can delegate a task with spawn_agent)"];
    return [...this.#subagents.values()].map((s) => {
      const tools = `${s.toolCalls} tool call${s.toolCalls === 1 ? "" : "s"}${s.lastTool ? ` (last: ${s.lastTool})` : ""}`;
      const state = s.state === "stopped" ? `stopped: ${s.reason}` : s.state;
      return `  ${s.id}  ${state.padEnd(8)}  "${s.description}"  ${tools} · ${formatUsd(s.costUsd)}`;
    });
  }
}
