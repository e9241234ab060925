// What the client offers servers, declared only when it is really served: roots, sampling, elicitation; and what
// it takes from them besides tools: log messages and resource updates. See docs/mcp.md#what-the-client-offers-servers.
import { pathToFileURL } from "node:url";
import type { Logger } from "@heddle/shared";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
  type Root,
} from "@modelcontextprotocol/sdk/types.js";
import { answerElicitation, DECLINED, type McpElicitationHandler } from "./elicitation.js";
import type { SamplingService } from "./sampling.js";

/** A root the client tells servers about: a `file://` URI (a folder the server may work in) and a display name. */
export interface McpRoot {
  uri: string;
  name?: string;
}

/** What every server's client shares: the connection's roots, sampling, elicitation and logger. */
export interface ClientFeatures {
  /** The current roots; `undefined`: the client declares no roots capability. */
  roots(): Root[] | undefined;
  sampling?: SamplingService;
  onElicitation?: McpElicitationHandler;
  logger: Logger;
}

/** Roots as given (folder paths or `{uri, name}`) in the protocol's shape: paths become `file://` URIs. */
export function normalizeRoots(roots: ReadonlyArray<string | McpRoot>): Root[] {
  return roots.map((root) => {
    if (typeof root === "string") {
      const uri = pathToFileURL(root).href;
      return { uri, name: root.split(/[\\/]/).filter(Boolean).pop() ?? root };
    }
    return { uri: root.uri, ...(root.name !== undefined && { name: root.name }) };
  });
}

/** The capabilities to declare in `initialize`: exactly what `installClientFeatures` serves. */
export function clientCapabilities(features: ClientFeatures): ClientCapabilities {
  return {
    ...(features.roots() !== undefined && { roots: { listChanged: true } }),
    ...(features.sampling && { sampling: {} }),
    // Form mode only; the SDK fills in the schema's defaults for fields an accepted answer leaves out.
    ...(features.onElicitation && { elicitation: { form: { applyDefaults: true } } }),
  };
}

/** Installs the request and notification handlers for `server` on a client built with `clientCapabilities`. */
export function installClientFeatures(
  client: Client,
  server: string,
  features: ClientFeatures,
  onResourceUpdated: (uri: string) => void,
): void {
  const { logger } = features;
  if (features.roots() !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: features.roots() ?? [] }));
  }
  const sampling = features.sampling;
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      sampling.createMessage(server, request.params, extra.signal),
    );
  }
  const onElicitation = features.onElicitation;
  if (onElicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      if (request.params.mode === "url") {
        throw new McpError(ErrorCode.InvalidParams, "This client answers form elicitation only.");
      }
      return answerElicitation(onElicitation, server, request.params, extra.signal, (error) =>
        logger.warn(`MCP server "${server}": the elicitation handler failed: ${(error as Error)?.message ?? error}`),
      );
    });
  } else {
    // Not declared, so a well-behaved server does not ask; one that asks anyway gets a clean decline.
    client.fallbackRequestHandler = async (request) => {
      if (request.method === "elicitation/create") return DECLINED;
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    };
  }
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    const { level, logger: source, data } = notification.params;
    const text = typeof data === "string" ? data : safeJson(data);
    const line = `mcp ${server}${source ? ` (${source})` : ""}: ${text}`;
    if (level === "debug") logger.debug(line);
    else if (level === "info" || level === "notice") logger.info(line);
    else if (level === "warning") logger.warn(line);
    else logger.error(line);
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    onResourceUpdated(notification.params.uri);
  });
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
