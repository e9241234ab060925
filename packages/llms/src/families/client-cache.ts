import type { FamilyCallContext } from "../types.js";

/** What a vendor client is built from: the same key, base URL and headers give the same client. */
export type ClientKey = Pick<FamilyCallContext, "apiKey" | "baseUrl" | "headers">;

/** At most this many clients per family are kept; the oldest goes first. A process rarely holds more than a few. */
export const MAX_CLIENTS = 32;

/**
 * One vendor client per key/base URL/headers, built on first use from the lazily loaded vendor module and kept
 * (bounded): building a client per request costs more than the request's own parsing (the Anthropic client builds
 * its every resource object, `@google/genai` its whole API surface). The turns of one agent hand the same headers
 * object each time, so the last lookup is remembered and its map key never built again.
 */
export function clientCache<M, C>(
  load: () => Promise<M>,
  create: (module: M, key: ClientKey) => C,
  max = MAX_CLIENTS,
): (key: ClientKey) => C | Promise<C> {
  const clients = new Map<string, C>();
  let last:
    | { apiKey: string | undefined; baseUrl: string | undefined; headers: object | undefined; client: C }
    | undefined;

  const remember = (key: ClientKey, client: C): C => {
    last = { apiKey: key.apiKey, baseUrl: key.baseUrl, headers: key.headers, client };
    return client;
  };

  const build = async (key: ClientKey, mapKey: string): Promise<C> => {
    const module = await load();
    let client = clients.get(mapKey);
    if (!client) {
      client = create(module, key);
      if (clients.size >= max) clients.delete(clients.keys().next().value as string);
      clients.set(mapKey, client);
    }
    return remember(key, client);
  };

  return (key) => {
    if (last && last.apiKey === key.apiKey && last.baseUrl === key.baseUrl && last.headers === key.headers)
      return last.client;
    const mapKey = JSON.stringify([key.apiKey ?? null, key.baseUrl ?? null, key.headers ?? null]);
    const client = clients.get(mapKey);
    return client ? remember(key, client) : build(key, mapKey);
  };
}
