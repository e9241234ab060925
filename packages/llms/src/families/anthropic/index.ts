import type { AgentModelEvent } from "@heddle/shared";
import { CallLink } from "../../call-link.js";
import { modelError } from "../../errors.js";
import { guardedFetch, linkedFetchOptions } from "../../guarded-fetch.js";
import { lazyModule } from "../../lazy-module.js";
import type { FamilyCallContext, WireFamily } from "../../types.js";
import { classifyAnthropicError } from "./errors.js";
import { AnthropicRequestError, toAnthropicBody } from "./request.js";
import { AnthropicStreamMapper } from "./stream.js";

type AnthropicModule = typeof import("@anthropic-ai/sdk");
type StreamingParams = import("@anthropic-ai/sdk").Anthropic.MessageCreateParamsStreaming;

/** Loaded on the first request, so importing `@heddle/llms` loads no vendor client. */
const loadSdk = lazyModule<AnthropicModule>(() => import("@anthropic-ai/sdk"));

async function* streamOnce(ctx: FamilyCallContext): AsyncGenerator<AgentModelEvent> {
  // A per-call signal for the client, linked to the caller's, with the idle timeout and the size cap.
  const link = new CallLink(ctx.signal, ctx.limits);
  try {
    yield* streamWithLink(ctx, link);
  } finally {
    link.close();
  }
}

async function* streamWithLink(ctx: FamilyCallContext, link: CallLink): AsyncGenerator<AgentModelEvent> {
  const { signal } = link;
  let sdk: AnthropicModule | undefined;
  const mapper = new AnthropicStreamMapper();
  try {
    const body = toAnthropicBody(ctx.request, ctx.modelId, ctx.info);
    if (!ctx.apiKey && !hasAuthHeader(ctx.headers) && !hasAuthHeader(ctx.request.options?.headers)) {
      yield {
        type: "finish",
        reason: "error",
        error: modelError("auth", "No Anthropic API key: set ANTHROPIC_API_KEY or give the provider an apiKey."),
      };
      return;
    }
    sdk = await loadSdk();
    const client = new sdk.Anthropic({
      apiKey: ctx.apiKey ?? null,
      ...(ctx.baseUrl !== undefined && { baseURL: ctx.baseUrl }),
      // Retries are the gateway's, done once for every family.
      maxRetries: 0,
      fetch: guardedFetch,
      defaultHeaders: ctx.headers,
      dangerouslyAllowBrowser: true,
    });
    const headers = ctx.request.options?.headers;
    // The body is built from plain JSON; the SDK's param types are too narrow for `providerOptions` passthrough.
    link.start();
    const stream = await client.messages.create({ ...body, stream: true } as StreamingParams, {
      signal,
      fetchOptions: linkedFetchOptions(link),
      ...(headers && { headers }),
    });
    // Raw events, not the MessageStream helper, which accumulates the whole message.
    for await (const event of stream) {
      yield* mapper.handle(event);
    }
    // The SDK ends the iteration quietly on an abort (a stream limit aborts too), and a stream may close without
    // `message_stop`.
    if (link.failure) {
      yield* mapper.usageEvent();
      yield { type: "finish", reason: "error", error: link.failure };
      return;
    }
    if (signal.aborted) {
      yield* mapper.usageEvent();
      yield { type: "finish", reason: "aborted", error: modelError("aborted", "The request was aborted.") };
      return;
    }
    if (mapper.completed) yield* mapper.endOpenCalls();
    yield* mapper.usageEvent();
    if (!mapper.completed) {
      yield {
        type: "finish",
        reason: "error",
        error: modelError("network", "The Anthropic stream ended before message_stop: the connection was cut."),
      };
      return;
    }
    yield { type: "finish", reason: mapper.finishReason() };
  } catch (error) {
    if (error instanceof AnthropicRequestError) {
      yield { type: "finish", reason: "error", error: modelError("invalid_request", error.message) };
      return;
    }
    const classified = link.failure ?? classifyAnthropicError(error, signal, sdk);
    yield* mapper.usageEvent();
    yield { type: "finish", reason: classified.kind === "aborted" ? "aborted" : "error", error: classified };
  }
}

/** A proxy may authenticate with its own header instead of a key. */
function hasAuthHeader(headers: Record<string, string> | undefined): boolean {
  return Object.keys(headers ?? {}).some((name) => /^(x-api-key|authorization)$/i.test(name));
}

/** The Anthropic Messages API wire family, on `@anthropic-ai/sdk`. */
export const family: WireFamily = { id: "anthropic", streamOnce };
