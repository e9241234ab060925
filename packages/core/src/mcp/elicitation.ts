// Elicitation: a server asks the person for structured input (`elicitation/create`, form mode). The host answers
// through `connectMcpServers({onElicitation})`; without that callback every request is declined. See docs/mcp.md.
import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";

/** A server's form request, as the host's `onElicitation` receives it. */
export interface McpElicitationRequest {
  /** The configured name of the server asking. */
  server: string;
  /** What the server asks, for a person to read. */
  message: string;
  /**
   * The fields it wants: a flat JSON Schema object whose properties are strings (with `format` email, uri, date,
   * date-time), numbers, integers, booleans, or enums (`enum`, `oneOf` with titles, arrays of them).
   */
  requestedSchema: ElicitRequestFormParams["requestedSchema"];
  /** Aborted when the server cancels the request or the connection closes: stop asking. */
  signal: AbortSignal;
}

/**
 * The person's answer: `accept` with the `content` they entered (fields they left empty may be omitted: the
 * schema's defaults are filled in), `decline` (they said no), or `cancel` (they dismissed the question).
 */
export interface McpElicitationResult {
  action: "accept" | "decline" | "cancel";
  content?: { [field: string]: string | number | boolean | string[] };
}

export type McpElicitationHandler = (request: McpElicitationRequest) => Promise<McpElicitationResult>;

/** The answer sent when the host has no `onElicitation`: a plain decline, never "Method not found". */
export const DECLINED: ElicitResult = { action: "decline" };

/** Asks the host, and turns a throwing or malformed answer into a cancel (the server is told; nothing breaks). */
export async function answerElicitation(
  handler: McpElicitationHandler,
  server: string,
  params: ElicitRequestFormParams,
  signal: AbortSignal,
  onError: (error: unknown) => void,
): Promise<ElicitResult> {
  let answer: McpElicitationResult;
  try {
    answer = await handler({ server, message: params.message, requestedSchema: params.requestedSchema, signal });
  } catch (error) {
    onError(error);
    return { action: "cancel" };
  }
  if (answer?.action === "accept") return { action: "accept", content: { ...(answer.content ?? {}) } };
  if (answer?.action === "decline") return { action: "decline" };
  return { action: "cancel" };
}
