import type {
  AgentMessage,
  AgentModelRequest,
  ImagePart,
  ModelInfo,
  ReasoningOption,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolChoice,
  ToolResultPart,
} from "@heddle/shared";
import { toolArgumentsText } from "../../tool-arguments.js";

/** The key this family's vendor data lives under in event metadata and `providerMetadata`. */
export const OPENAI_METADATA_KEY = "openai";

/** What the family keeps about a reasoning item so it can be sent back statelessly (`store: false`). */
export interface OpenAIReasoningMetadata {
  itemId: string;
  encryptedContent?: string | null;
  summary?: Array<{ type: "summary_text"; text: string }>;
}

/** What the family keeps about a function call item: its `fc_…` id, sent back only beside its reasoning. */
export interface OpenAIToolCallMetadata {
  itemId: string;
}

/** A Responses request body. Loosely typed: `providerOptions.openai` may add any vendor field. */
export type ResponsesBody = { [key: string]: unknown; model: string; input: unknown[]; stream: true };

type Effort = "minimal" | "low" | "medium" | "high";

/**
 * Nearest effort for a token budget. OpenAI has no budget knob; these bands follow the budgets other vendors
 * document for the same effort names (Anthropic's minimum 1024, "high" from about 16k).
 */
export function effortForBudget(budgetTokens: number): Effort {
  if (budgetTokens < 1024) return "minimal";
  if (budgetTokens < 4096) return "low";
  if (budgetTokens < 16384) return "medium";
  return "high";
}

function reasoningEffort(option: ReasoningOption | undefined): Effort | undefined {
  if (option === undefined || option === "off") return undefined;
  return option.effort ?? (option.budgetTokens !== undefined ? effortForBudget(option.budgetTokens) : undefined);
}

function toolChoice(choice: ToolChoice): unknown {
  return typeof choice === "string" ? choice : { type: "function", name: choice.toolName };
}

function dataUrl(image: ImagePart): string {
  return `data:${image.mediaType};base64,${image.data}`;
}

function metadataOf<T>(part: ReasoningPart | ToolCallPart): Partial<T> | undefined {
  return part.providerMetadata?.[OPENAI_METADATA_KEY] as Partial<T> | undefined;
}

function userContent(parts: Array<TextPart | ImagePart>): unknown[] {
  return parts.map((part) =>
    part.type === "text"
      ? { type: "input_text", text: part.text }
      : { type: "input_image", image_url: dataUrl(part), detail: "auto" },
  );
}

function toolOutput(result: ToolResultPart): unknown {
  if (typeof result.output === "string") return result.output;
  if (!result.output.some((part) => part.type === "image")) {
    return result.output.map((part) => (part as TextPart).text).join("\n");
  }
  return result.output.map((part) =>
    part.type === "text"
      ? { type: "input_text", text: part.text }
      : { type: "input_image", image_url: dataUrl(part), detail: "auto" },
  );
}

function functionCallOutput(result: ToolResultPart): unknown {
  return { type: "function_call_output", call_id: result.toolCallId, output: toolOutput(result) };
}

function reasoningItem(meta: Partial<OpenAIReasoningMetadata> | undefined, stored: boolean, text = ""): unknown {
  if (meta?.itemId === undefined || !(meta.encryptedContent || stored)) return undefined;
  const item: Record<string, unknown> = {
    type: "reasoning",
    id: meta.itemId,
    summary: meta.summary ?? (text ? [{ type: "summary_text", text }] : []),
  };
  if (meta.encryptedContent) item.encrypted_content = meta.encryptedContent;
  return item;
}

/**
 * One assistant message as Responses input items, in the order the parts arrived: each reasoning part is one
 * reasoning item of the response, where it was in the output.
 *
 * The API pairs a reasoning item with the item that followed it: a reasoning item without that following item is
 * a 400, and a function call carrying its `fc_` id without its reasoning item is a 400 too. So reasoning goes back
 * only when it can be replayed (encrypted content, or an id with `store: true`) and a call follows it in the
 * message; function-call ids go back only beside replayed reasoning (`call_id` pairs the tool result in every
 * case).
 */
function assistantItems(message: AgentMessage, stored: boolean): unknown[] {
  const parts = message.content;
  let lastCall = -1;
  parts.forEach((part, position) => {
    if (part.type === "tool-call") lastCall = position;
  });
  const items: unknown[] = [];
  let text: string[] = [];
  let sentReasoning = false;
  const flushText = () => {
    if (text.length > 0) items.push({ role: "assistant", content: [{ type: "output_text", text: text.join("") }] });
    text = [];
  };
  parts.forEach((part, position) => {
    if (part.type === "text") {
      if (part.text !== "") text.push(part.text);
    } else if (part.type === "reasoning") {
      const item =
        position < lastCall ? reasoningItem(metadataOf<OpenAIReasoningMetadata>(part), stored, part.text) : undefined;
      if (item === undefined) return;
      flushText();
      items.push(item);
      sentReasoning = true;
    } else if (part.type === "tool-call") {
      flushText();
      const item: Record<string, unknown> = {
        type: "function_call",
        call_id: part.toolCallId,
        name: part.toolName,
        arguments: toolArgumentsText(part.input),
      };
      const itemId = metadataOf<OpenAIToolCallMetadata>(part)?.itemId;
      if (sentReasoning && itemId) item.id = itemId;
      items.push(item);
    } else if (part.type === "tool-result") {
      flushText();
      items.push(functionCallOutput(part));
    }
    // Images in an assistant turn have no Responses input form; they are dropped.
  });
  flushText();
  return items;
}

function userItems(message: AgentMessage): unknown[] {
  const items: unknown[] = [];
  let pending: Array<TextPart | ImagePart> = [];
  const flush = () => {
    if (pending.length > 0) items.push({ role: "user", content: userContent(pending) });
    pending = [];
  };
  for (const part of message.content) {
    if (part.type === "text" || part.type === "image") pending.push(part);
    else if (part.type === "tool-result") {
      flush();
      items.push(functionCallOutput(part));
    }
  }
  flush();
  return items;
}

/** The neutral transcript as Responses `input` items. */
export function toResponsesInput(messages: AgentMessage[], stored = false): unknown[] {
  const input: unknown[] = [];
  for (const message of messages) {
    if (message.role === "assistant") input.push(...assistantItems(message, stored));
    else if (message.role === "tool") {
      for (const part of message.content) if (part.type === "tool-result") input.push(functionCallOutput(part));
    } else input.push(...userItems(message));
  }
  return input;
}

/**
 * The Responses request for a neutral request. `store: false` keeps no server state, so reasoning round-trips
 * through `encrypted_content`, asked for whenever reasoning is on (explicitly, or by a model the catalog says
 * reasons). `stopSequences` has no Responses parameter and is ignored.
 */
export function buildResponsesBody(modelId: string, request: AgentModelRequest, info?: ModelInfo): ResponsesBody {
  const options = request.options ?? {};
  const extra = options.providerOptions?.[OPENAI_METADATA_KEY] ?? {};
  const stored = extra.store === true;
  const body: ResponsesBody = { model: modelId, input: toResponsesInput(request.messages, stored), stream: true };
  if (request.systemPrompt) body.instructions = request.systemPrompt;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      strict: false,
    }));
  }
  // Provider-side tools (web_search, file_search, ...) go in as given: the caller wrote them in this vendor's shape.
  if (request.modelTools?.length) body.tools = [...((body.tools as unknown[]) ?? []), ...request.modelTools];
  if (options.toolChoice !== undefined) body.tool_choice = toolChoice(options.toolChoice);
  if (options.maxTokens !== undefined) body.max_output_tokens = options.maxTokens;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  const effort = reasoningEffort(options.reasoning);
  if (effort) body.reasoning = { effort, summary: "auto" };
  const reasoningOn = options.reasoning !== "off" && (effort !== undefined || info?.supports.reasoning === true);
  if (reasoningOn) body.include = ["reasoning.encrypted_content"];
  // OpenAI caches prompts on its own; "long" asks for the extended (24 h) retention. Caching cannot be turned off.
  if (options.cacheRetention === "long") body.prompt_cache_retention = "24h";
  body.store = false;
  return { ...body, ...extra, model: modelId, stream: true };
}
