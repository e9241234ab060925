import type { ImagePart, TextPart } from "@heddle/shared";
import { HeadTailBuffer } from "../process/index.js";
import { McpToolError } from "./errors.js";

/** Caps applied to what an MCP tool returns. */
export interface McpResultLimits {
  /** Text kept, head and tail, like `bash`'s output (default 30 000 bytes). */
  maxOutputBytes?: number;
  /** Larger images become a text note (default 5 MiB decoded, the smallest vendor limit). */
  maxImageBytes?: number;
}

export const DEFAULT_MCP_MAX_OUTPUT_BYTES = 30_000;
const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The parts of an MCP `CallToolResult` this mapping reads (any protocol version). */
export interface McpCallToolResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
  /** Protocol 2024-10-07 servers answer with `toolResult` instead of `content`. */
  toolResult?: unknown;
}

type McpContent =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name?: string; description?: string; mimeType?: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string } };

/**
 * Maps an MCP tool result to a tool output: text as text, images as image parts, an embedded resource as text
 * headed by its URI (a binary one as a note, an image one as an image), a resource link as a line with its URI,
 * audio as a note. `structuredContent` is appended as JSON text when the result has no text of its own (servers
 * are asked to mirror it in text; when they do, it is not repeated). Text is capped head + tail.
 * Only text: a string. With images: an array of text and image parts.
 * `isError: true` throws `McpToolError` with the result's text, so the loop reports an error result.
 */
export function mapMcpToolResult(
  result: McpCallToolResultLike,
  identity: { server: string; tool: string },
  limits: McpResultLimits = {},
): string | Array<TextPart | ImagePart> {
  const maxImageBytes = limits.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  const parts: Array<TextPart | ImagePart> = [];
  const text = (value: string) => parts.push({ type: "text", text: value });
  const content = Array.isArray(result.content) ? (result.content as McpContent[]) : [];
  for (const item of content) {
    switch (item?.type) {
      case "text":
        text(item.text);
        break;
      case "image":
        if (base64Bytes(item.data) > maxImageBytes) text(`[image ${item.mimeType} omitted: larger than the cap]`);
        else parts.push({ type: "image", mediaType: item.mimeType, data: item.data });
        break;
      case "audio":
        text(`[audio ${item.mimeType}, ${base64Bytes(item.data)} bytes, not shown]`);
        break;
      case "resource_link":
        text(
          `[resource ${item.name ? `${item.name} ` : ""}<${item.uri}>${item.description ? `: ${item.description}` : ""}]`,
        );
        break;
      case "resource": {
        const { uri, mimeType, text: body, blob } = item.resource;
        if (body !== undefined) text(`[resource <${uri}>${mimeType ? ` ${mimeType}` : ""}]\n${body}`);
        else if (blob !== undefined && mimeType?.startsWith("image/") && base64Bytes(blob) <= maxImageBytes)
          parts.push({ type: "image", mediaType: mimeType, data: blob });
        else
          text(`[resource <${uri}>${mimeType ? ` ${mimeType}` : ""}: ${base64Bytes(blob ?? "")} bytes of binary data]`);
        break;
      }
      default:
        text(`[unsupported MCP content: ${JSON.stringify(item)?.slice(0, 200)}]`);
    }
  }
  const hasText = parts.some((p) => p.type === "text");
  if (!hasText && result.structuredContent !== undefined) text(JSON.stringify(result.structuredContent));
  if (content.length === 0 && result.toolResult !== undefined)
    text(typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult));

  const capped = capText(parts, limits.maxOutputBytes ?? DEFAULT_MCP_MAX_OUTPUT_BYTES);
  if (result.isError) {
    const message = capped
      .filter((p): p is TextPart => p.type === "text")
      .map((p) => p.text)
      .join("\n");
    throw new McpToolError(identity.server, identity.tool, message || "The tool reported an error without a message.");
  }
  if (capped.every((p) => p.type === "text")) return capped.map((p) => (p as TextPart).text).join("\n");
  return capped;
}

/** Over the cap, all text becomes one head + tail part ahead of the images, so the cap holds for the whole output. */
function capText(parts: Array<TextPart | ImagePart>, maxBytes: number): Array<TextPart | ImagePart> {
  const texts = parts.filter((p): p is TextPart => p.type === "text").map((p) => p.text);
  const joined = texts.join("\n");
  if (Buffer.byteLength(joined) <= maxBytes) return parts;
  const buffer = new HeadTailBuffer(maxBytes);
  buffer.push(Buffer.from(joined));
  return [{ type: "text", text: buffer.text() }, ...parts.filter((p) => p.type === "image")];
}

function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4);
}
