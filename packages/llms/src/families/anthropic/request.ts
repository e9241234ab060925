import type {
  AgentMessage,
  AgentModelRequest,
  ContentPart,
  ImagePart,
  ModelInfo,
  ReasoningOption,
  TextPart,
  ToolResultPart,
} from "@heddle/shared";
import { HeddleError } from "@heddle/shared";
import { ANTHROPIC } from "./stream.js";

/** Default `max_tokens` (required by the API) when neither the options nor the catalog give one. */
export const DEFAULT_MAX_TOKENS = 8192;
/**
 * Cap on the default taken from the catalog: newer models allow 128K output tokens, and a request that did not
 * ask for a size should not reserve the whole window. 32K leaves room for long edits; `maxTokens` sets more.
 */
export const DEFAULT_MAX_TOKENS_CAP = 32_000;

/** Thinking budgets for a named effort. The API's minimum budget is 1024. */
export const EFFORT_BUDGETS = { minimal: 1024, low: 2048, medium: 8192, high: 24576 } as const;
const MIN_BUDGET = 1024;

type Block = { type: string; [key: string]: unknown };
type VendorMessage = { role: "user" | "assistant"; content: Block[] };

/** The Messages API body (without `stream`), as plain JSON. */
export type AnthropicBody = { [key: string]: unknown };

/** A request the converter cannot express for the Messages API. */
/** A request this family cannot send (code `invalid_request`); reported as a `finish` with an `invalid_request` error. */
export class AnthropicRequestError extends HeddleError {
  override readonly name = "AnthropicRequestError";
  constructor(message: string) {
    super("invalid_request", message);
  }
}

/** Converts a neutral request to a Messages API body. Throws `AnthropicRequestError` on a request it cannot send. */
export function toAnthropicBody(request: AgentModelRequest, modelId: string, info?: ModelInfo): AnthropicBody {
  const options = request.options ?? {};
  const cache = cacheControl(options.cacheRetention);
  const budget = thinkingBudget(options.reasoning);

  let maxTokens = options.maxTokens ?? Math.min(info?.maxOutputTokens ?? DEFAULT_MAX_TOKENS, DEFAULT_MAX_TOKENS_CAP);
  let budgetTokens = budget;
  if (budgetTokens !== undefined) {
    // budget_tokens must stay below max_tokens. A default max grows to fit; a max the user chose caps the budget.
    if (options.maxTokens === undefined && info === undefined && budgetTokens >= maxTokens) {
      maxTokens = budgetTokens + DEFAULT_MAX_TOKENS;
    }
    budgetTokens = Math.min(budgetTokens, maxTokens - 1);
    if (budgetTokens < MIN_BUDGET) {
      throw new AnthropicRequestError(
        `reasoning needs a thinking budget of at least ${MIN_BUDGET} tokens below maxTokens, but maxTokens is ${maxTokens}`,
      );
    }
  }

  const body: AnthropicBody = { model: modelId, max_tokens: maxTokens };
  if (request.systemPrompt) {
    body.system = [withCache({ type: "text", text: request.systemPrompt }, cache)];
  }
  const messages = toAnthropicMessages(request.messages);
  if (cache) markLastUserBlock(messages, cache);
  body.messages = messages;

  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool, i) =>
      withCache(
        {
          name: tool.name,
          description: tool.description,
          input_schema: { type: "object", ...tool.inputSchema },
        },
        i === request.tools.length - 1 ? cache : undefined,
      ),
    );
    const choice = options.toolChoice;
    if (choice === "auto") body.tool_choice = { type: "auto" };
    else if (choice === "required") body.tool_choice = { type: "any" };
    else if (choice === "none") body.tool_choice = { type: "none" };
    else if (choice && typeof choice === "object") body.tool_choice = { type: "tool", name: choice.toolName };
  }

  // Provider-side tools (web_search, code_execution, ...) go in as given: the caller wrote them in Anthropic's shape.
  if (request.modelTools?.length) body.tools = [...((body.tools as unknown[]) ?? []), ...request.modelTools];

  if (budgetTokens !== undefined) body.thinking = { type: "enabled", budget_tokens: budgetTokens };
  // The API rejects a temperature other than 1 with thinking on, so it is left out rather than failing the call.
  else if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.stopSequences?.length) body.stop_sequences = options.stopSequences;

  const extra = options.providerOptions?.[ANTHROPIC];
  return extra ? Object.assign(body, extra) : body;
}

function thinkingBudget(reasoning: ReasoningOption | undefined): number | undefined {
  if (!reasoning || reasoning === "off") return undefined;
  if (reasoning.budgetTokens !== undefined) return Math.max(MIN_BUDGET, Math.floor(reasoning.budgetTokens));
  return reasoning.effort ? EFFORT_BUDGETS[reasoning.effort] : undefined;
}

function cacheControl(retention: "none" | "short" | "long" | undefined): Block | undefined {
  if (retention === "none") return undefined;
  return retention === "long" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

function withCache<T extends object>(block: T, cache: Block | undefined): T {
  return cache ? { ...block, cache_control: cache } : block;
}

/** The last block of the last user turn gets the breakpoint, so the whole conversation prefix is cached. */
function markLastUserBlock(messages: VendorMessage[], cache: Block): void {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "user") continue;
    const last = message.content.length - 1;
    if (last >= 0) message.content[last] = withCache(message.content[last]!, cache);
    return;
  }
}

/**
 * Neutral messages to Messages API turns. Tool messages become user turns of `tool_result` blocks; consecutive
 * turns of one role are merged (the API wants alternating roles, and tool results must open their user turn).
 */
export function toAnthropicMessages(messages: readonly AgentMessage[]): VendorMessage[] {
  // Plain loops that push into one array per turn: this runs over the whole transcript on every request.
  const out: VendorMessage[] = [];
  let previous: VendorMessage | undefined;
  for (const message of messages) {
    const role = message.role === "assistant" ? "assistant" : "user";
    const content: Block[] = previous?.role === role ? previous.content : [];
    const before = content.length;
    const parts = message.content;
    for (let i = 0; i < parts.length; i++) {
      if (role === "assistant") assistantBlock(parts[i] as ContentPart, content);
      else userBlock(parts[i] as ContentPart, content);
    }
    if (content.length === before || content === previous?.content) continue;
    previous = { role, content };
    out.push(previous);
  }
  return out;
}

function userBlock(part: ContentPart, out: Block[]): void {
  switch (part.type) {
    case "text":
      if (part.text) out.push({ type: "text", text: part.text });
      return;
    case "image":
      out.push(imageBlock(part));
      return;
    case "tool-result":
      out.push(toolResultBlock(part));
      return;
    default:
    // Reasoning and tool calls belong to assistant turns.
  }
}

function assistantBlock(part: ContentPart, out: Block[]): void {
  switch (part.type) {
    case "text":
      // The API rejects empty text blocks.
      if (part.text) out.push({ type: "text", text: part.text });
      return;
    case "reasoning": {
      const meta = part.providerMetadata?.[ANTHROPIC];
      const redactedData = meta?.redactedData;
      if (typeof redactedData === "string" && redactedData) {
        out.push({ type: "redacted_thinking", data: redactedData });
        return;
      }
      const signature = part.signature ?? (typeof meta?.signature === "string" ? meta.signature : undefined);
      // Thinking goes back verbatim with its signature, as the API requires; unsigned thinking (a response cut
      // before its signature) would be rejected, so it is dropped.
      if (signature) out.push({ type: "thinking", thinking: part.text, signature });
      return;
    }
    case "tool-call":
      out.push({
        type: "tool_use",
        id: part.toolCallId,
        name: part.toolName,
        // The API wants an object; a call whose arguments never parsed is sent back empty.
        input: isPlainObject(part.input) ? part.input : {},
      });
      return;
    default:
  }
}

function imageBlock(part: ImagePart): Block {
  return { type: "image", source: { type: "base64", media_type: part.mediaType, data: part.data } };
}

function toolResultBlock(part: ToolResultPart): Block {
  const content: Block[] = [];
  if (typeof part.output === "string") {
    if (part.output) content.push({ type: "text", text: part.output });
  } else {
    for (const item of part.output as Array<TextPart | ImagePart>) {
      if (item.type === "image") content.push(imageBlock(item));
      else if (item.text) content.push({ type: "text", text: item.text });
    }
  }
  const block: Block = { type: "tool_result", tool_use_id: part.toolCallId };
  if (content.length > 0) block.content = content;
  if (part.isError) block.is_error = true;
  return block;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
