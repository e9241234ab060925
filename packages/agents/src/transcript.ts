import type { AgentMessage, ToolCallPart, ToolResultPart } from "@heddle/shared";
import { AgentRuntimeError } from "./errors.js";

/** Tool calls of the last assistant message that have no result yet (a transcript cut by a crash or a restore). */
export function danglingToolCalls(messages: readonly AgentMessage[]): ToolCallPart[] {
  let lastAssistant = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "assistant") {
      lastAssistant = i;
      break;
    }
  }
  if (lastAssistant < 0) return [];
  const calls = messages[lastAssistant]!.content.filter((part): part is ToolCallPart => part.type === "tool-call");
  if (calls.length === 0) return [];
  const answered = new Set<string>();
  for (let i = lastAssistant + 1; i < messages.length; i++) {
    for (const part of messages[i]!.content) if (part.type === "tool-result") answered.add(part.toolCallId);
  }
  return calls.filter((call) => !answered.has(call.toolCallId));
}

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

/**
 * A cheap measure of a request's size (characters of text, arguments, outputs and images), used only to tell
 * whether an overflow-recovery projection is smaller than the request that overflowed.
 */
export function estimateRequestSize(messages: readonly AgentMessage[], systemPrompt: string | undefined): number {
  let size = systemPrompt?.length ?? 0;
  for (const message of messages) {
    for (const part of message.content) {
      switch (part.type) {
        case "text":
        case "reasoning":
          size += part.text.length;
          break;
        case "image":
          size += part.data.length;
          break;
        case "tool-call":
          size += part.toolName.length + (JSON.stringify(part.input)?.length ?? 0);
          break;
        case "tool-result":
          if (typeof part.output === "string") size += part.output.length;
          else for (const p of part.output) size += p.type === "text" ? p.text.length : p.data.length;
          break;
      }
    }
  }
  return size;
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
