import type { AgentModelEvent } from "@heddle/shared";
import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import { modelError } from "../../errors.js";
import { guardedFetch, linkedFetchOptions } from "../../guarded-fetch.js";
import type { FamilyCallContext } from "../../types.js";
import { clientCache } from "../client-cache.js";
import { driveFamily, type FamilyDriver, familyOf } from "../driver.js";
import { classifyOpenAIError, loadOpenAI, type OpenAIErrorClasses } from "../openai-shared/errors.js";
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
  async open(client, ctx, link) {
    const body = buildResponsesBody(ctx.modelId, ctx.request, ctx.info);
    const headers = ctx.request.options?.headers;
    // The body is built from neutral data plus `providerOptions`, so it is typed loosely; the server validates it.
    const stream = await client.api.responses.create(body as unknown as ResponseCreateParamsStreaming, {
      signal: link.signal,
      fetchOptions: linkedFetchOptions(link),
      ...(headers ? { headers } : {}),
    });
    return stream as AsyncIterable<unknown> as AsyncIterable<ResponsesEvent>;
  },
  mapper: (ctx) => new ResponsesStreamMapper(ctx.request),
  classify: (error, signal, client) => classifyOpenAIError(error, signal, client?.errors),
};

/**
 * The neutral events for a Responses stream the `openai` client already opened, through the same driver (the
 * rechunk test feeds the client's own SSE parser with bytes split every way). Never throws.
 */
export function convertVendorStream(
  stream: AsyncIterable<unknown>,
  signal: AbortSignal,
  errors: OpenAIErrorClasses,
): AsyncIterable<AgentModelEvent> {
  const opened: FamilyDriver<ResponsesClient, ResponsesEvent> = {
    ...driver,
    checkAuth: undefined,
    // Only the error classes are read: the stream is already open.
    loadClient: () => ({ errors }) as ResponsesClient,
    open: () => stream as AsyncIterable<ResponsesEvent>,
  };
  // The driver reads only the signal, the request's toolCallDeltas (wanted: unset) and the limits (left at their
  // defaults) of a call it does not send.
  const ctx: FamilyCallContext = { providerId: "openai", modelId: "", request: { messages: [], tools: [] }, signal };
  return driveFamily(opened, ctx);
}

/** The OpenAI Responses API (`POST /v1/responses`) on the official `openai` client. */
export const family = familyOf(driver);
