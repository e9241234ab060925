import type { AgentModelEvent } from "@heddle/shared";
import { modelError } from "../../errors.js";
import type { FamilyCallContext, WireFamily } from "../../types.js";
import { classifyOpenAIError } from "./errors.js";
import { toChatRequest } from "./request.js";
import { type ChatChunk, ChatStreamMapper } from "./stream.js";

/** OpenAI's own endpoint; given explicitly so `OPENAI_BASE_URL` in the environment never redirects a preset. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

type OpenAIModule = typeof import("openai");
type OpenAIClient = InstanceType<OpenAIModule["OpenAI"]>;

let modulePromise: Promise<OpenAIModule> | undefined;
// One client per key/URL/headers: building a client per request costs more than the request's own parsing.
const clients = new Map<string, OpenAIClient>();
const MAX_CLIENTS = 32;

async function clientFor(ctx: FamilyCallContext): Promise<OpenAIClient> {
  modulePromise ??= import("openai");
  const { OpenAI } = await modulePromise;
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
      dangerouslyAllowBrowser: true,
      ...(ctx.headers && { defaultHeaders: ctx.headers }),
    });
    if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value as string);
    clients.set(key, client);
  }
  return client;
}

async function* streamOnce(ctx: FamilyCallContext): AsyncIterable<AgentModelEvent> {
  const mapper = new ChatStreamMapper();
  const out: AgentModelEvent[] = [];
  // The client adds an abort listener to the signal it is given and never removes it; a caller's signal reused
  // for every turn would collect one per call. The client gets a per-call signal instead, linked here and unlinked
  // in `finally`.
  const call = new AbortController();
  const forward = () => call.abort(ctx.signal.reason);
  if (ctx.signal.aborted) call.abort(ctx.signal.reason);
  else ctx.signal.addEventListener("abort", forward, { once: true });
  try {
    const client = await clientFor(ctx);
    const body = toChatRequest(ctx.modelId, ctx.request);
    const headers = ctx.request.options?.headers;
    const stream = await client.chat.completions.create(body as never, {
      signal: call.signal,
      ...(headers && { headers }),
    });
    for await (const chunk of stream as unknown as AsyncIterable<ChatChunk>) {
      mapper.handle(chunk, out);
      if (out.length > 0) {
        for (const event of out) yield event;
        out.length = 0;
      }
    }
  } catch (error) {
    if (mapper.usage) yield { type: "usage", usage: mapper.usage };
    const classified = classifyOpenAIError(error, ctx.signal);
    yield { type: "finish", reason: classified.kind === "aborted" ? "aborted" : "error", error: classified };
    return;
  } finally {
    ctx.signal.removeEventListener("abort", forward);
  }
  // The client ends iteration quietly when the signal aborts mid-stream.
  if (ctx.signal.aborted) {
    if (mapper.usage) yield { type: "usage", usage: mapper.usage };
    yield { type: "finish", reason: "aborted", error: modelError("aborted", "The request was aborted.") };
    return;
  }
  yield { type: "usage", usage: mapper.usage ?? {} };
  const reason = mapper.reason();
  if (reason === undefined) {
    const error = modelError("network", "The stream ended before the model finished its response.");
    yield { type: "finish", reason: "error", error };
    return;
  }
  yield { type: "finish", reason };
}

/** OpenAI Chat Completions, and every OpenAI-compatible server. */
export const family: WireFamily = { id: "openai-chat", streamOnce };
