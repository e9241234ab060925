// Resources: what servers offer to read (files, records, schemas), their templates, reads and subscriptions. Used by
// `McpConnection`; see docs/mcp.md#resources.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { McpServerUnavailableError } from "./errors.js";
import type { McpServerHandle } from "./server.js";

/** A resource a server lists, with the server's configured name. */
export type McpResource = Resource & { server: string };
/** A resource template (`uriTemplate`, RFC 6570) a server lists, with the server's configured name. */
export type McpResourceTemplate = ResourceTemplate & { server: string };
/** What reading a resource returns: its contents (text, or base64 `blob`), each with its URI and MIME type. */
export type McpResourceContents = ReadResourceResult["contents"];
/** A subscribed resource changed on its server: read it again to see how. */
export interface McpResourceUpdate {
  server: string;
  uri: string;
}

/** The most pages one listing reads: a server that pages forever is cut off there. */
const MAX_PAGES = 100;

/** The handles a listing covers: one named server (which must be configured), or every connected one. */
export function pick(handles: readonly McpServerHandle[], server: string | undefined): McpServerHandle[] {
  if (server === undefined) return handles.filter((handle) => handle.status === "connected");
  const handle = handles.find((h) => h.name === server);
  if (!handle) throw new McpServerUnavailableError(server, `There is no MCP server named "${server}".`);
  return [handle];
}

/** Every page of a paged list request. */
export async function allPages<T>(
  handle: McpServerHandle,
  list: (client: Client, cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await handle.request((client) => list(client, cursor));
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && ++pages < MAX_PAGES);
  return items;
}

export async function listResources(handles: readonly McpServerHandle[], server?: string): Promise<McpResource[]> {
  const lists = await Promise.all(
    pick(handles, server)
      .filter((handle) => handle.status !== "connected" || handle.capabilities?.resources)
      .map(async (handle) => {
        const resources = await allPages(handle, async (client, cursor) => {
          const page = await client.listResources(cursor === undefined ? undefined : { cursor });
          return { items: page.resources, nextCursor: page.nextCursor };
        });
        return resources.map((resource) => ({ ...resource, server: handle.name }));
      }),
  );
  return lists.flat();
}

export async function listResourceTemplates(
  handles: readonly McpServerHandle[],
  server?: string,
): Promise<McpResourceTemplate[]> {
  const lists = await Promise.all(
    pick(handles, server)
      .filter((handle) => handle.status !== "connected" || handle.capabilities?.resources)
      .map(async (handle) => {
        const templates = await allPages(handle, async (client, cursor) => {
          const page = await client.listResourceTemplates(cursor === undefined ? undefined : { cursor });
          return { items: page.resourceTemplates, nextCursor: page.nextCursor };
        });
        return templates.map((template) => ({ ...template, server: handle.name }));
      }),
  );
  return lists.flat();
}

export async function readResource(
  handles: readonly McpServerHandle[],
  server: string,
  uri: string,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<McpResourceContents> {
  const [handle] = pick(handles, server);
  const result = await handle!.request((client) =>
    client.readResource(
      { uri },
      {
        ...(options.signal && { signal: options.signal }),
        ...(options.timeoutMs !== undefined && { timeout: options.timeoutMs }),
      },
    ),
  );
  return result.contents;
}

/**
 * The connection's resource subscriptions: one `resources/subscribe` per server and URI, however many listeners;
 * `resources/unsubscribe` when the last one leaves.
 */
export class ResourceSubscriptions {
  readonly #listeners = new Map<string, Set<(update: McpResourceUpdate) => void>>();
  readonly #onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  async subscribe(
    handles: readonly McpServerHandle[],
    server: string,
    uri: string,
    listener: (update: McpResourceUpdate) => void,
  ): Promise<() => Promise<void>> {
    const [handle] = pick(handles, server);
    if (!handle!.capabilities?.resources?.subscribe) {
      if (handle!.status !== "connected") await handle!.request(async () => undefined);
      throw new McpServerUnavailableError(server, `MCP server "${server}" does not offer resource subscriptions.`);
    }
    const key = keyOf(server, uri);
    let listeners = this.#listeners.get(key);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(key, listeners);
      try {
        await handle!.request((client) => client.subscribeResource({ uri }));
      } catch (error) {
        this.#listeners.delete(key);
        throw error;
      }
    }
    listeners.add(listener);
    let subscribed = true;
    return async () => {
      if (!subscribed) return;
      subscribed = false;
      const current = this.#listeners.get(key);
      current?.delete(listener);
      if (current && current.size === 0) {
        this.#listeners.delete(key);
        if (handle!.status === "connected") await handle!.request((client) => client.unsubscribeResource({ uri }));
      }
    };
  }

  /** Calls the listeners of a `notifications/resources/updated`. */
  dispatch(server: string, uri: string): void {
    for (const listener of this.#listeners.get(keyOf(server, uri)) ?? []) {
      try {
        listener({ server, uri });
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}

function keyOf(server: string, uri: string): string {
  return `${server}\u0000${uri}`;
}
