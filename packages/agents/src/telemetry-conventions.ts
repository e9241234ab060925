// The OpenTelemetry GenAI semantic conventions' vocabulary, as Heddle records it: provider names, finish reasons,
// message attributes in the conventions' JSON schema, advised histogram buckets. Values are the conventions' own
// (checked against @opentelemetry/semantic-conventions 1.45.0 by telemetry-conventions.test.ts); this file imports
// nothing, so an app without telemetry never loads it. See docs/observability.md.
import type { AgentMessage, ContentPart, FinishReason, ToolDefinition } from "@heddle/shared";

/**
 * Heddle provider ids whose `gen_ai.provider.name` the conventions name differently. Any other id is recorded as it
 * is: the conventions' own value where they are the same (`anthropic`, `openai`, `deepseek`, `groq`), a custom value
 * (`ollama`, `openrouter`, ...) where the conventions have none, as they ask.
 */
const PROVIDER_NAMES: { readonly [heddleId: string]: string } = {
  "openai-chat": "openai",
  gemini: "gcp.gemini",
  mistral: "mistral_ai",
  xai: "x_ai",
};

/** `gen_ai.provider.name` for a Heddle provider id. */
export function genAiProviderName(provider: string): string {
  return PROVIDER_NAMES[provider] ?? provider;
}

/** Advised bucket boundaries of `gen_ai.client.token.usage` ({token}). */
export const TOKEN_USAGE_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];
/** Advised bucket boundaries of `gen_ai.client.operation.duration` (s). */
export const OPERATION_DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/** The conventions' finish reason (`gen_ai.response.finish_reasons`, an output message's `finish_reason`). */
export function genAiFinishReason(reason: FinishReason): string {
  switch (reason) {
    case "stop":
      return "stop";
    case "max-tokens":
      return "length";
    case "tool-calls":
      return "tool_call";
    case "content-filter":
      return "content_filter";
    default:
      return "error";
  }
}

/** `server.address` and `server.port` of the model's endpoint, when it is known. */
export function serverAttributes(baseUrl: string | undefined): { [key: string]: string | number } {
  if (!baseUrl) return {};
  try {
    const url = new URL(baseUrl);
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : url.protocol === "http:" ? 80 : 0;
    return { "server.address": url.hostname, ...(port > 0 && { "server.port": port }) };
  } catch {
    return {};
  }
}

/** Cuts one recorded text; the JSON around it stays valid. */
export type Cut = (text: string) => string;

type Part = { [key: string]: unknown; type: string };

/** One content part in the conventions' part schema (text, reasoning, tool_call, tool_call_response, blob). */
function part(content: ContentPart, cut: Cut): Part {
  switch (content.type) {
    case "text":
      return { type: "text", content: cut(content.text) };
    case "reasoning":
      return { type: "reasoning", content: cut(content.redacted ? "" : content.text) };
    case "tool-call":
      return {
        type: "tool_call",
        id: content.toolCallId,
        name: content.toolName,
        arguments: capValue(content.input, cut),
      };
    case "tool-result":
      return { type: "tool_call_response", id: content.toolCallId, response: capValue(content.output, cut) };
    case "image":
      // The bytes are left out: a trace is no place for them.
      return { type: "blob", modality: "image", mime_type: content.mediaType, content: "" };
    default:
      return { type: (content as { type: string }).type };
  }
}

/** Strings inside a JSON value cut; everything else as it is. */
function capValue(value: unknown, cut: Cut): unknown {
  if (typeof value === "string") return cut(value);
  if (Array.isArray(value)) return value.map((item) => capValue(item, cut));
  if (value && typeof value === "object") {
    const out: { [key: string]: unknown } = {};
    for (const [key, item] of Object.entries(value)) out[key] = capValue(item, cut);
    return out;
  }
  return value;
}

/** `gen_ai.input.messages`: the request's messages as `[{role, parts}]`, JSON. */
export function inputMessagesJson(messages: readonly AgentMessage[], cut: Cut): string {
  return JSON.stringify(
    messages.map((message) => ({ role: message.role, parts: message.content.map((content) => part(content, cut)) })),
  );
}

/** `gen_ai.output.messages`: the response as `[{role: "assistant", parts, finish_reason}]`, JSON. */
export function outputMessagesJson(content: readonly ContentPart[], reason: FinishReason, cut: Cut): string {
  return JSON.stringify([
    {
      role: "assistant",
      parts: content.map((item) => part(item, cut)),
      finish_reason: genAiFinishReason(reason),
    },
  ]);
}

/** `gen_ai.system_instructions`: `[{type: "text", content}]`, JSON. */
export function systemInstructionsJson(systemPrompt: string, cut: Cut): string {
  return JSON.stringify([{ type: "text", content: cut(systemPrompt) }]);
}

/** `gen_ai.tool.definitions`: `[{type: "function", name, description, parameters}]`, JSON. */
export function toolDefinitionsJson(tools: readonly ToolDefinition[], cut: Cut): string {
  return JSON.stringify(
    tools.map((tool) => ({
      type: "function",
      name: tool.name,
      description: cut(tool.description),
      parameters: tool.inputSchema,
    })),
  );
}

/** A tool's arguments or result as recorded (`gen_ai.tool.call.arguments` / `.result`): JSON, strings cut. */
export function valueJson(value: unknown, cut: Cut): string {
  if (typeof value === "string") return cut(value);
  try {
    return JSON.stringify(capValue(value, cut)) ?? String(value);
  } catch {
    return cut(String(value));
  }
}
