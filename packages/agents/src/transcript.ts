import type { AgentMessage, ToolCallPart, ToolResultPart } from "@heddle/shared";
import { AgentRuntimeError } from "./errors.js";

/** An error result for a call that never ran, saying why. */
export function notRunResult(call: ToolCallPart, why: string): ToolResultPart {
  return {
    type: "tool-result",
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: `Not run: ${why}`,
    isError: true,
  };
}

/** Checks that restored or initial messages have the neutral shape, naming the first bad one. */
export function assertMessages(messages: unknown, where: string): asserts messages is AgentMessage[] {
  if (!Array.isArray(messages)) throw new AgentRuntimeError("invalid_input", `${where}: expected an array of messages`);
  messages.forEach((message, index) => {
    const m = message as Partial<AgentMessage> | null;
    if (
      typeof m !== "object" ||
      m === null ||
      (m.role !== "user" && m.role !== "assistant" && m.role !== "tool") ||
      !Array.isArray(m.content)
    ) {
      throw new AgentRuntimeError(
        "invalid_input",
        `${where}: message ${index} is not an AgentMessage (needs role user|assistant|tool and a content array)`,
      );
    }
  });
}
