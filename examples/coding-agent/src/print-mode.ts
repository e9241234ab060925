import { isSubagentUpdate, type SessionRuntime, type SubagentUpdate } from "@heddle/core";
import type { AgentRunResult } from "@heddle/shared";
import type { TerminalRenderer } from "./render.js";

/** Streams one task through a session. `json`: one event per line on stdout; else text and tool lines. */
export async function runTask(
  session: SessionRuntime,
  task: string,
  options: {
    json: boolean;
    renderer: TerminalRenderer;
    onSigint?: () => void;
    /** Every event of a sub-agent the lead started (for the `/team` view). */
    onSubagent?: (update: SubagentUpdate) => void;
  },
): Promise<AgentRunResult> {
  const { renderer } = options;
  const onSigint = () => session.abort("interrupted (Ctrl-C)");
  process.once("SIGINT", onSigint);
  try {
    const stream = session.stream(task);
    for await (const event of stream) {
      if (event.type === "tool-updated" && isSubagentUpdate(event.update)) {
        options.onSubagent?.(event.update);
        if (!options.json) renderer.subagent(event.update);
      }
      if (options.json) {
        process.stdout.write(`${JSON.stringify(event)}\n`);
        continue;
      }
      switch (event.type) {
        case "assistant-text-delta":
          renderer.text(event.text);
          break;
        case "assistant-reasoning-delta":
          renderer.reasoning(event.text);
          break;
        case "tool-started":
          renderer.toolStarted(event.toolCall);
          break;
        case "tool-finished":
          renderer.toolFinished(event.toolCall, event.result, event.durationMs);
          break;
        case "status-notice":
          renderer.notice(event.message);
          break;
        case "loop-warning":
        case "circuit-breaker":
          renderer.notice(event.type === "loop-warning" ? "loop detected: the model was warned" : "repeated failures");
          break;
      }
    }
    const result = await stream.result;
    if (!options.json) {
      const usage = await session.usage();
      renderer.turnSummary(result, usage.total.costUsd);
    }
    return result;
  } finally {
    process.off("SIGINT", onSigint);
  }
}
