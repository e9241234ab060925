import { createId } from "./ids.js";
import type {
  AgentMessage,
  AgentRunInput,
  ContentPart,
  ImagePart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from "./types/index.js";

type MessageExtras = Partial<Omit<AgentMessage, "role" | "content">>;

function build(role: AgentMessage["role"], content: ContentPart[], extras: MessageExtras = {}): AgentMessage {
  return { id: extras.id ?? createId("msg"), createdAt: extras.createdAt ?? Date.now(), ...extras, role, content };
}

/** A user message from text or parts. */
export function userMessage(content: string | ContentPart[], extras?: MessageExtras): AgentMessage {
  return build("user", typeof content === "string" ? [{ type: "text", text: content }] : content, extras);
}

/** An assistant message from text or parts. */
export function assistantMessage(content: string | ContentPart[], extras?: MessageExtras): AgentMessage {
  return build("assistant", typeof content === "string" ? [{ type: "text", text: content }] : content, extras);
}

/** A tool message carrying the results of one assistant turn, in call order. */
export function toolResultMessage(results: ToolResultPart[], extras?: MessageExtras): AgentMessage {
  return build("tool", results, extras);
}

/** A text part. */
export function textPart(text: string): TextPart {
  return { type: "text", text };
}

/** An image part from base64 data. */
export function imagePart(data: string, mediaType: string): ImagePart {
  return { type: "image", data, mediaType };
}

/** The concatenated text parts of a message (reasoning excluded). */
export function getMessageText(message: AgentMessage): string {
  let text = "";
  for (const part of message.content) if (part.type === "text") text += part.text;
  return text;
}

/** The tool calls of a message, in order. */
export function getToolCalls(message: AgentMessage): ToolCallPart[] {
  return message.content.filter((part): part is ToolCallPart => part.type === "tool-call");
}

/** The tool results of a message, in order. */
export function getToolResults(message: AgentMessage): ToolResultPart[] {
  return message.content.filter((part): part is ToolResultPart => part.type === "tool-result");
}

/** The text of a tool result's output (image parts are left out). */
export function toolOutputText(output: ToolResultPart["output"]): string {
  if (typeof output === "string") return output;
  return output.map((part) => (part.type === "text" ? part.text : `[image ${part.mediaType}]`)).join("\n");
}

/** Turns any run input into the messages to append: text and parts become one user message. */
export function normalizeRunInput(input: AgentRunInput): AgentMessage[] {
  if (typeof input === "string") return [userMessage(input)];
  if (Array.isArray(input)) {
    if (input.length === 0) return [];
    if (isMessage(input[0])) return input as AgentMessage[];
    return [userMessage(input as ContentPart[])];
  }
  return [input];
}

function isMessage(value: unknown): value is AgentMessage {
  return typeof value === "object" && value !== null && "role" in value && "content" in value;
}

/**
 * The tool calls of the last assistant message that have no result after it: what a crash mid-turn or a cut
 * transcript leaves. The agent loop closes them before its next request; a session closes them when it reopens.
 */
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
