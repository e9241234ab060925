import { type AgentMessage, type ToolCallPart, toolResultMessage } from "@heddle/shared";

/** The tool calls of the last assistant message that have no result after it (a crash mid-turn leaves them). */
export function danglingToolCalls(messages: readonly AgentMessage[]): ToolCallPart[] {
  let last = messages.length - 1;
  while (last >= 0 && messages[last]!.role !== "assistant") last--;
  if (last < 0) return [];
  const answered = new Set<string>();
  for (const message of messages.slice(last + 1))
    for (const part of message.content) if (part.type === "tool-result") answered.add(part.toolCallId);
  return messages[last]!.content.filter(
    (part): part is ToolCallPart => part.type === "tool-call" && !answered.has(part.toolCallId),
  );
}

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
