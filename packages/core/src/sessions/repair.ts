import { type AgentMessage, type ToolCallPart, toolResultMessage } from "@heddle/shared";

/** The tool calls of the last assistant message that have no result after it (one definition, in shared). */
export { danglingToolCalls } from "@heddle/shared";

/** The error results that close dangling calls, so the next request is valid for every vendor. */
export function repairMessage(calls: ToolCallPart[]): AgentMessage {
  return toolResultMessage(
    calls.map((call) => ({
      type: "tool-result" as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output:
        "Interrupted: the session stopped (a crash or a kill) before this tool call finished. It may or may not " +
        "have taken effect; check before repeating it.",
      isError: true,
    })),
    { metadata: { heddle: { kind: "repair" } } },
  );
}

/**
 * A history with messages missing (unreadable rows that were skipped) made valid for the next request: a tool
 * result whose call is gone is dropped, and so is a call (not the last message's) whose result is gone; a message
 * left empty is dropped. Ids are kept, so later appends still link to the stored rows.
 */
export function pairToolMessages(messages: readonly AgentMessage[]): AgentMessage[] {
  const out: AgentMessage[] = [];
  messages.forEach((message, index) => {
    if (message.role === "tool") {
      const previous = out.at(-1);
      const calls = new Set(previous?.role === "assistant" ? callIds(previous) : []);
      const content = message.content.filter((p) => p.type !== "tool-result" || calls.has(p.toolCallId));
      if (content.some((p) => p.type === "tool-result")) out.push({ ...message, content });
      return;
    }
    const next = messages[index + 1];
    if (message.role === "assistant" && next) {
      const answered = new Set(
        next.role === "tool" ? next.content.flatMap((p) => (p.type === "tool-result" ? [p.toolCallId] : [])) : [],
      );
      const content = message.content.filter((p) => p.type !== "tool-call" || answered.has(p.toolCallId));
      if (content.length > 0) out.push(content.length === message.content.length ? message : { ...message, content });
      return;
    }
    out.push(message);
  });
  return out;
}

function callIds(message: AgentMessage): string[] {
  return message.content.flatMap((p) => (p.type === "tool-call" ? [p.toolCallId] : []));
}
