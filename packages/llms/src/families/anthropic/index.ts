import { modelError } from "../../errors.js";
import { guardedFetch, linkedFetchOptions } from "../../guarded-fetch.js";
import { lazyModule } from "../../lazy-module.js";
import { readSseResponse } from "../../sse.js";
import { clientCache } from "../client-cache.js";
import { type FamilyDriver, familyOf } from "../driver.js";
import { type AnthropicErrorClasses, classifyAnthropicError } from "./errors.js";
import { AnthropicRequestError, toAnthropicBody } from "./request.js";
import { AnthropicStreamMapper, decodeAnthropicEvent } from "./stream.js";

type AnthropicModule = typeof import("../../vendor/anthropic.js");
type StreamingParams = import("@anthropic-ai/sdk").Anthropic.MessageCreateParamsStreaming;

/** The client, and the module's error classes for classifying what it throws. */
interface AnthropicClient {
  api: InstanceType<AnthropicModule["Anthropic"]>;
  errors: AnthropicErrorClasses;
}

/**
 * Loaded on the first request, so importing `@heddle/llms` loads no vendor client. The build ships the client
 * bundled (`#vendor/anthropic`, docs/llms.md); tests run the package itself.
 */
const loadSdk = lazyModule<AnthropicModule>(() => import("../../vendor/anthropic.js"));

const clientFor = clientCache(loadSdk, (sdk, { apiKey, baseUrl, headers }) => ({
  api: new sdk.Anthropic({
    apiKey: apiKey ?? null,
    ...(baseUrl !== undefined && { baseURL: baseUrl }),
    // Retries are the gateway's, done once for every family.
    maxRetries: 0,
    fetch: guardedFetch,
    defaultHeaders: headers,
    dangerouslyAllowBrowser: true,
  }),
  errors: sdk,
}));

/** A proxy may authenticate with its own header instead of a key. */
function hasAuthHeader(headers: Record<string, string> | undefined): boolean {
  if (!headers) return false;
  for (const name in headers) if (/^(x-api-key|authorization)$/i.test(name)) return true;
  return false;
}

const driver: FamilyDriver<AnthropicClient, unknown> = {
  id: "anthropic",
  checkAuth: (ctx) =>
    !ctx.apiKey && !hasAuthHeader(ctx.headers) && !hasAuthHeader(ctx.request.options?.headers)
      ? modelError("auth", "No Anthropic API key: set ANTHROPIC_API_KEY or give the provider an apiKey.")
      : undefined,
  loadClient: clientFor,
  async openBatches(client, ctx, link) {
    const body = toAnthropicBody(ctx.request, ctx.modelId, ctx.info);
    body.stream = true;
    const headers = ctx.request.options?.headers;
    // The client sends the request and types an error status; Heddle reads the events (why: src/sse.ts). The
    // body is plain JSON: the SDK's param types are too narrow for `providerOptions` passthrough.
    return readSseResponse(
      client.api.messages.create(body as unknown as StreamingParams, {
        signal: link.signal,
        fetchOptions: linkedFetchOptions(link),
        ...(headers && { headers }),
      }),
      decodeAnthropicEvent,
    );
  },
  mapper: (ctx) => new AnthropicStreamMapper(ctx.request),
  classify: (error, signal, client) =>
    error instanceof AnthropicRequestError
      ? modelError("invalid_request", error.message)
      : classifyAnthropicError(error, signal, client?.errors),
};

/** The Anthropic Messages API wire family, on `@anthropic-ai/sdk`. */
export const family = familyOf(driver);
