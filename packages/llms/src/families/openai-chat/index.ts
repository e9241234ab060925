import { guardedFetch, linkedFetchOptions } from "../../guarded-fetch.js";
import { readSseResponse } from "../../sse.js";
import { clientCache } from "../client-cache.js";
import { type FamilyDriver, familyOf } from "../driver.js";
import { classifyOpenAIError, loadOpenAI } from "../openai-shared/errors.js";
import { openAIEventDecoder } from "../openai-shared/events.js";
import { toChatRequest } from "./request.js";
import { type ChatChunk, ChatStreamMapper } from "./stream.js";

/** OpenAI's own endpoint; given explicitly so `OPENAI_BASE_URL` in the environment never redirects a preset. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

type OpenAIClient = InstanceType<Awaited<ReturnType<typeof loadOpenAI>>["OpenAI"]>;

const clientFor = clientCache(
  loadOpenAI,
  ({ OpenAI }, { apiKey, baseUrl, headers }) =>
    new OpenAI({
      // Local servers take any key; the client refuses to start without one.
      apiKey: apiKey ?? "not-needed",
      baseURL: baseUrl ?? OPENAI_BASE_URL,
      maxRetries: 0,
      fetch: guardedFetch,
      dangerouslyAllowBrowser: true,
      ...(headers && { defaultHeaders: headers }),
    }),
);

const driver: FamilyDriver<OpenAIClient, ChatChunk> = {
  id: "openai-chat",
  loadClient: clientFor,
  async openBatches(client, ctx, link) {
    const headers = ctx.request.options?.headers;
    // The client sends the request and types an error status; Heddle reads the events (why: src/sse.ts).
    return readSseResponse(
      client.chat.completions.create(toChatRequest(ctx.modelId, ctx.request) as never, {
        signal: link.signal,
        fetchOptions: linkedFetchOptions(link),
        ...(headers && { headers }),
      }),
      openAIEventDecoder<ChatChunk>(),
    );
  },
  mapper: (ctx) => new ChatStreamMapper(ctx.request),
  classify: (error, signal) => classifyOpenAIError(error, signal),
};

/** OpenAI Chat Completions, and every OpenAI-compatible server. */
export const family = familyOf(driver);
