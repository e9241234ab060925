import type { AgentModelEvent } from "@heddle/shared";
import { CallLink } from "../../call-link.js";
import { modelError } from "../../errors.js";
import { guardedFetch, linkedFetchOptions } from "../../guarded-fetch.js";
import { mapStream } from "../../map-stream.js";
import type { FamilyCallContext, WireFamily } from "../../types.js";
import { classifyOpenAIError, loadOpenAI } from "../openai-shared/errors.js";
import { toChatRequest } from "./request.js";
import { type ChatChunk, ChatStreamMapper } from "./stream.js";

/** OpenAI's own endpoint; given explicitly so `OPENAI_BASE_URL` in the environment never redirects a preset. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

type OpenAIModule = typeof import("openai");
type OpenAIClient = InstanceType<OpenAIModule["OpenAI"]>;

// One client per key/URL/headers: building a client per request costs more than the request's own parsing.
const clients = new Map<string, OpenAIClient>();
const MAX_CLIENTS = 32;

// The last lookup, so the turns of one agent (same key, URL and headers object) skip building the map key.
let last: { apiKey?: string; baseUrl?: string; headers?: Record<string, string>; client: OpenAIClient } | undefined;

async function clientFor(ctx: FamilyCallContext): Promise<OpenAIClient> {
  if (last && last.apiKey === ctx.apiKey && last.baseUrl === ctx.baseUrl && last.headers === ctx.headers)
    return last.client;
  const { OpenAI } = await loadOpenAI();
  // Local servers take any key; the client refuses to start without one.
  const apiKey = ctx.apiKey ?? "not-needed";
  const baseURL = ctx.baseUrl ?? OPENAI_BASE_URL;
  const key = JSON.stringify([apiKey, baseURL, ctx.headers ?? null]);
  let client = clients.get(key);
  if (!client) {
    client = new OpenAI({
      apiKey,
      baseURL,
      maxRetries: 0,
      fetch: guardedFetch,
      dangerouslyAllowBrowser: true,
      ...(ctx.headers && { defaultHeaders: ctx.headers }),
    });
    if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value as string);
    clients.set(key, client);
  }
  last = {
    ...(ctx.apiKey !== undefined && { apiKey: ctx.apiKey }),
    ...(ctx.baseUrl !== undefined && { baseUrl: ctx.baseUrl }),
    ...(ctx.headers && { headers: ctx.headers }),
    client,
  };
  return client;
}

function streamOnce(ctx: FamilyCallContext): AsyncIterable<AgentModelEvent> {
  const mapper = new ChatStreamMapper();
  // The client gets a per-call signal (it never removes the abort listener it adds), linked in `open` and unlinked
  // in `close`, which also carries the idle timeout and the size cap.
  let link: CallLink | undefined;
  return mapStream<ChatChunk, AgentModelEvent>({
    async open() {
      link = new CallLink(ctx.signal, ctx.limits);
      const client = await clientFor(ctx);
      const body = toChatRequest(ctx.modelId, ctx.request);
      const headers = ctx.request.options?.headers;
      link.start();
      const stream = await client.chat.completions.create(body as never, {
        signal: link.signal,
        fetchOptions: linkedFetchOptions(link),
        ...(headers && { headers }),
      });
      return stream as unknown as AsyncIterable<ChatChunk>;
    },
    chunk: (chunk, out) => mapper.handle(chunk, out),
    end(out) {
      // The client ends iteration quietly when the signal aborts mid-stream (a stream limit aborts it too).
      if (link?.failure || ctx.signal.aborted) {
        if (mapper.usage) out.push({ type: "usage", usage: mapper.usage });
        const error = link?.failure ?? modelError("aborted", "The request was aborted.");
        out.push({ type: "finish", reason: link?.failure ? "error" : "aborted", error });
        return;
      }
      mapper.endCalls(out);
      out.push({ type: "usage", usage: mapper.usage ?? {} });
      const reason = mapper.reason();
      if (reason === undefined) {
        const error = modelError("network", "The stream ended before the model finished its response.");
        out.push({ type: "finish", reason: "error", error });
        return;
      }
      out.push({ type: "finish", reason });
    },
    fail(error, out) {
      if (mapper.usage) out.push({ type: "usage", usage: mapper.usage });
      const classified = link?.failure ?? classifyOpenAIError(error, ctx.signal);
      out.push({ type: "finish", reason: classified.kind === "aborted" ? "aborted" : "error", error: classified });
    },
    close: () => link?.close(),
  });
}

/** OpenAI Chat Completions, and every OpenAI-compatible server. */
export const family: WireFamily = { id: "openai-chat", streamOnce };
