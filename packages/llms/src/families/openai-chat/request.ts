import type {
  AgentMessage,
  AgentModelRequest,
  ImagePart,
  ModelCallOptions,
  ReasoningOption,
  ToolChoice,
  ToolResultPart,
} from "@heddle/shared";
import { toolArgumentsText } from "../../tool-arguments.js";

// Structural types for the slice of the Chat Completions request we build; kept local so this module does not
// import the `openai` package (it is loaded lazily, on the first request).
type ChatContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

export type ChatMessageParam =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ChatContentPart[] }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
    }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ChatRequestBody {
  model: string;
  messages: ChatMessageParam[];
  stream: true;
  stream_options: { include_usage: true };
  tools?: Array<{ type: "function"; function: { name: string; description: string; parameters: unknown } }>;
  tool_choice?: "auto" | "none" | "required" | { type: "function"; function: { name: string } };
  max_completion_tokens?: number;
  temperature?: number;
  stop?: string[];
  reasoning_effort?: "minimal" | "low" | "medium" | "high";
  [extra: string]: unknown;
}

function dataUrl(image: ImagePart): string {
  return `data:${image.mediaType};base64,${image.data}`;
}

function userContent(message: AgentMessage): string | ChatContentPart[] {
  const parts: ChatContentPart[] = [];
  for (const part of message.content) {
    if (part.type === "text") parts.push({ type: "text", text: part.text });
    else if (part.type === "image") parts.push({ type: "image_url", image_url: { url: dataUrl(part) } });
  }
  // A plain string is what every OpenAI-compatible server accepts; the array form only when images need it.
  if (parts.every((part) => part.type === "text"))
    return parts.map((part) => (part as { text: string }).text).join("\n");
  return parts;
}

function assistantMessage(message: AgentMessage): ChatMessageParam | undefined {
  let text = "";
  const toolCalls: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }> = [];
  for (const part of message.content) {
    if (part.type === "text") text += part.text;
    else if (part.type === "tool-call")
      toolCalls.push({
        id: part.toolCallId,
        type: "function",
        function: {
          name: part.toolName,
          arguments: toolArgumentsText(part.input),
        },
      });
    // Reasoning is not accepted back by Chat Completions (and DeepSeek rejects its own `reasoning_content`).
  }
  if (!text && toolCalls.length === 0) return undefined;
  return { role: "assistant", content: text || null, ...(toolCalls.length > 0 && { tool_calls: toolCalls }) };
}

function resultText(result: ToolResultPart): string {
  const text =
    typeof result.output === "string"
      ? result.output
      : result.output
          .filter((part) => part.type === "text")
          .map((part) => (part as { text: string }).text)
          .join("\n");
  return result.isError && !/^error\b/i.test(text) ? `Error: ${text}` : text;
}

/** Tool messages, then one user message with any images the tools returned (chat tool messages are text-only). */
function toolMessages(message: AgentMessage): ChatMessageParam[] {
  const out: ChatMessageParam[] = [];
  const images: ChatContentPart[] = [];
  for (const part of message.content) {
    if (part.type !== "tool-result") continue;
    out.push({ role: "tool", tool_call_id: part.toolCallId, content: resultText(part) });
    if (typeof part.output === "string") continue;
    const attached = part.output.filter((item): item is ImagePart => item.type === "image");
    if (attached.length === 0) continue;
    images.push({ type: "text", text: `Images returned by tool call ${part.toolCallId} (${part.toolName}):` });
    for (const image of attached) images.push({ type: "image_url", image_url: { url: dataUrl(image) } });
  }
  if (images.length > 0) out.push({ role: "user", content: images });
  return out;
}

/** Neutral messages to Chat Completions messages. The request is already handed off to this family. */
export function toChatMessages(systemPrompt: string | undefined, messages: AgentMessage[]): ChatMessageParam[] {
  const out: ChatMessageParam[] = [];
  if (systemPrompt) out.push({ role: "system", content: systemPrompt });
  for (const message of messages) {
    if (message.role === "user") out.push({ role: "user", content: userContent(message) });
    else if (message.role === "assistant") {
      const converted = assistantMessage(message);
      if (converted) out.push(converted);
    } else out.push(...toolMessages(message));
  }
  return out;
}

function toolChoice(choice: ToolChoice): ChatRequestBody["tool_choice"] {
  if (typeof choice === "string") return choice;
  return { type: "function", function: { name: choice.toolName } };
}

/**
 * Chat Completions has only `reasoning_effort`. A token budget is mapped to the nearest effort; "off" leaves the
 * field out, because non-reasoning models reject it.
 */
export function reasoningEffort(option: ReasoningOption | undefined): ChatRequestBody["reasoning_effort"] {
  if (option === undefined || option === "off") return undefined;
  if (option.effort) return option.effort;
  const budget = option.budgetTokens ?? 0;
  if (budget <= 2048) return "low";
  if (budget <= 16384) return "medium";
  return "high";
}

/** The whole streaming request body for one call. */
export function toChatRequest(modelId: string, request: AgentModelRequest): ChatRequestBody {
  const options: ModelCallOptions = request.options ?? {};
  const body: ChatRequestBody = {
    model: modelId,
    messages: toChatMessages(request.systemPrompt, request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0)
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
  // Provider-side tools go in as given: the caller wrote them in this vendor's shape.
  if (request.modelTools?.length)
    body.tools = [...(body.tools ?? []), ...(request.modelTools as NonNullable<ChatRequestBody["tools"]>)];
  if (options.toolChoice !== undefined && request.tools.length > 0) body.tool_choice = toolChoice(options.toolChoice);
  if (options.maxTokens !== undefined) body.max_completion_tokens = options.maxTokens;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.stopSequences?.length) body.stop = options.stopSequences;
  const effort = reasoningEffort(options.reasoning);
  if (effort) body.reasoning_effort = effort;
  const raw = options.providerOptions?.["openai-chat"];
  return raw ? { ...body, ...raw } : body;
}
