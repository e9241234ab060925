import type { AgentModelEvent } from "@heddle/shared";
import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import { modelError } from "../../errors.js";
import { guardedFetch, linkedFetchOptions } from "../../guarded-fetch.js";
import { type ByteBody, readSseResponse, sseChunks } from "../../sse.js";
import type { FamilyCallContext } from "../../types.js";
import { clientCache } from "../client-cache.js";
import { driveFamily, type FamilyDriver, familyOf } from "../driver.js";
import { classifyOpenAIError, loadOpenAI, type OpenAIErrorClasses } from "../openai-shared/errors.js";
import { openAIEventDecoder } from "../openai-shared/events.js";
import { buildResponsesBody } from "./request.js";
import { type ResponsesEvent, ResponsesStreamMapper } from "./stream.js";

type OpenAIModule = Awaited<ReturnType<typeof loadOpenAI>>;

/** The client, and the module's error classes for classifying what it throws. */
interface ResponsesClient {
  api: InstanceType<OpenAIModule["OpenAI"]>;
  errors: OpenAIErrorClasses;
}

const clientFor = clientCache(
  loadOpenAI,
  (mod, { apiKey, baseUrl, headers }): ResponsesClient => ({
    api: new mod.OpenAI({
      apiKey,
      ...(baseUrl ? { baseURL: baseUrl } : {}),
      maxRetries: 0,
      fetch: guardedFetch,
      ...(headers ? { defaultHeaders: headers } : {}),
      dangerouslyAllowBrowser: true,
    }),
    errors: mod,
  }),
);

const driver: FamilyDriver<ResponsesClient, ResponsesEvent> = {
  id: "openai",
  checkAuth: (ctx) =>
    ctx.apiKey
      ? undefined
      : modelError(
          "auth",
          `No API key for provider "${ctx.providerId}": set it in the provider config or OPENAI_API_KEY.`,
        ),
  loadClient: clientFor,
  async openBatches(client, ctx, link) {
    const body = buildResponsesBody(ctx.modelId, ctx.request, ctx.info);
    const headers = ctx.request.options?.headers;
    // The body is built from neutral data plus `providerOptions`, so it is typed loosely; the server validates it.
    // The client sends the request and types an error status; Heddle reads the events (why: src/sse.ts).
    return readSseResponse(
      client.api.responses.create(body as unknown as ResponseCreateParamsStreaming, {
        signal: link.signal,
        fetchOptions: linkedFetchOptions(link),
        ...(headers ? { headers } : {}),
      }),
      openAIEventDecoder<ResponsesEvent>(),
    );
  },
  mapper: (ctx) => new ResponsesStreamMapper(ctx.request),
  classify: (error, signal, client) => classifyOpenAIError(error, signal, client?.errors),
};

/**
 * The neutral events for a Responses SSE body already received, through the same driver and the same reader as a
 * call (the rechunk test feeds it bytes split every way). Never throws.
 */
export function convertSseBody(
  body: ByteBody,
  signal: AbortSignal,
  errors: OpenAIErrorClasses,
): AsyncIterable<AgentModelEvent> {
  const opened: FamilyDriver<ResponsesClient, ResponsesEvent> = {
    id: driver.id,
    mapper: driver.mapper,
    classify: driver.classify,
    // Only the error classes are read: the body is already here.
    loadClient: () => ({ errors }) as ResponsesClient,
    openBatches: async () => sseChunks(body, openAIEventDecoder<ResponsesEvent>()),
  };
  // The driver reads only the signal, the request's toolCallDeltas (wanted: unset) and the limits (left at their
  // defaults) of a call it does not send.
  const ctx: FamilyCallContext = { providerId: "openai", modelId: "", request: { messages: [], tools: [] }, signal };
  return driveFamily(opened, ctx);
}

/** The OpenAI Responses API (`POST /v1/responses`) on the official `openai` client. */
export const family = familyOf(driver);
