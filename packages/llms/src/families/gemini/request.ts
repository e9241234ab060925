import type { Content, FunctionCallingConfigMode, GenerateContentConfig, Part, ThinkingConfig } from "@google/genai";
import type {
  AgentMessage,
  AgentModelRequest,
  ModelCallOptions,
  ProviderMetadata,
  ToolChoice,
  ToolResultPart,
} from "@heddle/shared";
import { HeddleError } from "@heddle/shared";

/** Where this family keeps its vendor-bound data in `providerMetadata` and event `metadata`. */
export const GEMINI_KEY = "gemini";

/**
 * The signature Google documents for function calls the model did not produce itself (another vendor's turn, a
 * hand-built transcript): Gemini 3 rejects a step whose first function call carries no signature at all.
 */
export const FOREIGN_CALL_SIGNATURE = "skip_thought_signature_validator";

/** A request that cannot be expressed for Gemini; reported as `invalid_request` without a network call. */
/** A request this family cannot send (code `invalid_request`); reported as a `finish` with an `invalid_request` error. */
export class GeminiRequestError extends HeddleError {
  override readonly name = "GeminiRequestError";
  constructor(message: string) {
    super("invalid_request", message);
  }
}

/** What `generateContentStream` needs besides the model id and the abort signal. */
export interface GeminiRequest {
  contents: Content[];
  config: GenerateContentConfig;
  /** `providerOptions.gemini`, deep-merged into the HTTP body by the client (`httpOptions.extraBody`). */
  extraBody?: Record<string, unknown>;
}

/** The Gemini half of a part's provider metadata, when this family produced the part. */
export function geminiMetadata(metadata: ProviderMetadata | undefined): Record<string, unknown> | undefined {
  const data = metadata?.[GEMINI_KEY];
  return data && typeof data === "object" ? data : undefined;
}

function signatureOf(metadata: Record<string, unknown> | undefined, fallback?: string): string | undefined {
  const signature = metadata?.thoughtSignature;
  return typeof signature === "string" && signature.length > 0 ? signature : fallback || undefined;
}

function userParts(message: AgentMessage): Part[] {
  const parts: Part[] = [];
  for (const part of message.content) {
    if (part.type === "text") {
      if (part.text.length > 0) parts.push({ text: part.text });
    } else if (part.type === "image") parts.push({ inlineData: { mimeType: part.mediaType, data: part.data } });
    else if (part.type === "tool-result") parts.push(...toolResultParts([part]));
    // Reasoning and tool calls have no meaning in a user turn; Gemini would reject them there.
  }
  return parts;
}

/**
 * Gemini's `functionResponse` holds JSON only, so images from a tool result travel as `inlineData` parts right
 * after the responses of the same turn, and the response text says so.
 */
function toolResultParts(results: ToolResultPart[]): Part[] {
  const responses: Part[] = [];
  const images: Part[] = [];
  for (const result of results) {
    let text: string;
    if (typeof result.output === "string") text = result.output;
    else {
      const texts: string[] = [];
      let imageCount = 0;
      for (const item of result.output) {
        if (item.type === "text") texts.push(item.text);
        else {
          imageCount++;
          images.push({ inlineData: { mimeType: item.mediaType, data: item.data } });
        }
      }
      if (imageCount > 0) texts.push(`[${imageCount} image(s) from this tool result follow as separate parts]`);
      text = texts.join("\n");
    }
    responses.push({
      functionResponse: {
        id: result.toolCallId,
        name: result.toolName,
        response: result.isError ? { error: text } : { output: text },
      },
    });
  }
  return [...responses, ...images];
}

function modelParts(message: AgentMessage): Part[] {
  const parts: Part[] = [];
  let foreignCall = false;
  for (const part of message.content) {
    if (part.type === "text") {
      if (part.text.length > 0) parts.push({ text: part.text });
    } else if (part.type === "reasoning") {
      const meta = geminiMetadata(part.providerMetadata);
      const signature = signatureOf(meta, part.signature);
      // Unsigned thought summaries are not needed by Gemini next turn (and reasoning from another vendor has no
      // place here): only a signature must go back, on the part it came with.
      if (!signature) continue;
      if (part.text.length > 0) {
        parts.push({ text: part.text, thought: true, thoughtSignature: signature });
        continue;
      }
      // A signature that rode on a text part goes back on that text; Gemini rejects empty text parts, so an empty
      // one is only sent when there is no text to carry it.
      const previous = parts[parts.length - 1];
      if (previous && typeof previous.text === "string" && !previous.thought && !previous.thoughtSignature) {
        previous.thoughtSignature = signature;
      } else parts.push({ text: "", thoughtSignature: signature });
    } else if (part.type === "tool-call") {
      const meta = geminiMetadata(part.providerMetadata);
      if (!meta) foreignCall = true;
      const args = part.input && typeof part.input === "object" && !Array.isArray(part.input) ? part.input : {};
      const call: Part = {
        functionCall: { id: part.toolCallId, name: part.toolName, args: args as Record<string, unknown> },
      };
      const signature = signatureOf(meta);
      if (signature) call.thoughtSignature = signature;
      parts.push(call);
    }
    // Images and tool results in an assistant turn are not something Gemini's model role can carry.
  }
  const calls = parts.filter((part) => part.functionCall);
  if (foreignCall && calls.length > 0 && !calls.some((part) => part.thoughtSignature)) {
    calls[0]!.thoughtSignature = FOREIGN_CALL_SIGNATURE;
  }
  return parts;
}

/** Neutral messages to Gemini contents: `user`/`model` turns, tool results as `functionResponse` user parts. */
export function toGeminiContents(messages: AgentMessage[]): Content[] {
  const contents: Content[] = [];
  for (const message of messages) {
    let role: "user" | "model";
    let parts: Part[];
    if (message.role === "assistant") {
      role = "model";
      parts = modelParts(message);
    } else if (message.role === "tool") {
      role = "user";
      parts = toolResultParts(message.content.filter((part): part is ToolResultPart => part.type === "tool-result"));
    } else {
      role = "user";
      parts = userParts(message);
    }
    if (parts.length === 0) continue;
    const last = contents[contents.length - 1];
    // Tool results followed by a user note (or two user messages) become one turn, as Gemini expects.
    if (last && last.role === role) last.parts!.push(...parts);
    else contents.push({ role, parts });
  }
  return contents;
}

function toolConfig(choice: ToolChoice | undefined): GenerateContentConfig["toolConfig"] | undefined {
  if (choice === undefined) return undefined;
  const mode = (value: string) => value as FunctionCallingConfigMode;
  if (choice === "auto") return { functionCallingConfig: { mode: mode("AUTO") } };
  if (choice === "none") return { functionCallingConfig: { mode: mode("NONE") } };
  if (choice === "required") return { functionCallingConfig: { mode: mode("ANY") } };
  if (choice && typeof choice === "object" && choice.type === "tool" && typeof choice.toolName === "string") {
    return { functionCallingConfig: { mode: mode("ANY"), allowedFunctionNames: [choice.toolName] } };
  }
  throw new GeminiRequestError(
    `Unknown toolChoice ${JSON.stringify(choice)}: use "auto", "none", "required" or {type:"tool", toolName}.`,
  );
}

// Token budgets for an effort on models that only take a budget (Gemini 2.x); Gemini 3 takes the level itself.
const BUDGET_BY_EFFORT = { minimal: 512, low: 2048, medium: 8192, high: 24576 } as const;

/** Gemini 3 models take `thinkingLevel`; earlier ones a `thinkingBudget`. */
export function usesThinkingLevel(modelId: string): boolean {
  return /(^|\/)gemini-[3-9]/.test(modelId);
}

function thinkingConfig(options: ModelCallOptions, modelId: string): ThinkingConfig | undefined {
  const reasoning = options.reasoning;
  if (reasoning === undefined) return undefined;
  const level = (value: string) => value.toUpperCase() as ThinkingConfig["thinkingLevel"];
  if (reasoning === "off") {
    // Gemini 3 cannot turn thinking off; LOW is the lowest level every Gemini 3 model accepts.
    return usesThinkingLevel(modelId) ? { thinkingLevel: level("low") } : { thinkingBudget: 0 };
  }
  if (typeof reasoning !== "object" || reasoning === null) {
    throw new GeminiRequestError(`Unknown reasoning option ${JSON.stringify(reasoning)}.`);
  }
  if (typeof reasoning.budgetTokens === "number") {
    return { thinkingBudget: reasoning.budgetTokens, includeThoughts: true };
  }
  const effort = reasoning.effort;
  if (effort === undefined || !(effort in BUDGET_BY_EFFORT)) {
    throw new GeminiRequestError(
      `Unknown reasoning effort ${JSON.stringify(effort)}: use minimal, low, medium or high.`,
    );
  }
  return usesThinkingLevel(modelId)
    ? { thinkingLevel: level(effort), includeThoughts: true }
    : { thinkingBudget: BUDGET_BY_EFFORT[effort], includeThoughts: true };
}

/** JSON Schema for `parametersJsonSchema`; the `$schema` marker zod adds is not part of what Gemini accepts. */
function parametersSchema(schema: Record<string, unknown>): Record<string, unknown> {
  if (!schema || typeof schema !== "object") return { type: "object", properties: {} };
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

/** The neutral request as Gemini `contents` + `config` (everything but the abort signal and HTTP options). */
export function toGeminiRequest(request: AgentModelRequest, modelId: string): GeminiRequest {
  const options = request.options ?? {};
  const contents = toGeminiContents(request.messages ?? []);
  if (contents.length === 0) {
    throw new GeminiRequestError("Gemini needs at least one message with content; the request has none.");
  }
  const config: GenerateContentConfig = {};
  if (request.systemPrompt) config.systemInstruction = request.systemPrompt;
  if (request.tools?.length) {
    config.tools = [
      {
        functionDeclarations: request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parametersJsonSchema: parametersSchema(tool.inputSchema),
        })),
      },
    ];
  }
  // Provider-side tools ({googleSearch: {}}, {codeExecution: {}}, ...) go in as given, each its own Tool entry.
  if (request.modelTools?.length) config.tools = [...(config.tools ?? []), ...(request.modelTools as never[])];
  const tools = toolConfig(options.toolChoice);
  if (tools) config.toolConfig = tools;
  if (options.maxTokens !== undefined) config.maxOutputTokens = options.maxTokens;
  if (options.temperature !== undefined) config.temperature = options.temperature;
  if (options.stopSequences?.length) config.stopSequences = options.stopSequences;
  const thinking = thinkingConfig(options, modelId);
  if (thinking) config.thinkingConfig = thinking;
  // cacheRetention: Gemini caches implicitly; explicit caches are separate resources, not request options.
  const extra = options.providerOptions?.[GEMINI_KEY];
  return extra && Object.keys(extra).length > 0 ? { contents, config, extraBody: { ...extra } } : { contents, config };
}
