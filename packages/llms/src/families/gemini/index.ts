import type { AgentModelEvent } from "@heddle/shared";
import { CallLink } from "../../call-link.js";
import { modelError } from "../../errors.js";
import { fetchForCall } from "../../guarded-fetch.js";
import { lazyModule } from "../../lazy-module.js";
import type { FamilyCallContext, WireFamily } from "../../types.js";
import { classifyGeminiError } from "./errors.js";
import { GeminiRequestError, toGeminiRequest } from "./request.js";
import { type GeminiChunk, GeminiStreamConverter } from "./stream.js";

type GenAiModule = typeof import("@google/genai");

// Loaded on the first Gemini request, so importing @heddle/llms never loads the vendor client.
const loadGenAi = lazyModule<GenAiModule>(() => import("@google/genai"));

async function* streamOnce(ctx: FamilyCallContext): AsyncGenerator<AgentModelEvent> {
  // The client adds an abort listener to the signal it is given and never removes it: a per-call signal, linked
  // to the caller's and unlinked at the end, keeps a signal reused over many calls from collecting one per call.
  // It also carries the idle timeout and the size cap, applied by the `fetch` it hands the client.
  const link = new CallLink(ctx.signal, ctx.limits);
  try {
    yield* streamWithLink(ctx, link);
  } finally {
    link.close();
  }
}

async function* streamWithLink(ctx: FamilyCallContext, link: CallLink): AsyncGenerator<AgentModelEvent> {
  const converter = new GeminiStreamConverter();
  const { signal } = link;
  try {
    if (signal.aborted) {
      yield* converter.fail(modelError("aborted", "The request was aborted before it was sent."));
      return;
    }
    if (!ctx.apiKey) {
      // Without a key the client would look for Google Cloud credentials instead: fail clearly, here.
      yield* converter.fail(modelError("auth", `No API key for provider "${ctx.providerId}" (Gemini).`));
      return;
    }
    const request = toGeminiRequest(ctx.request, ctx.modelId);
    const { GoogleGenAI } = await loadGenAi();
    const headers = { ...ctx.headers, ...ctx.request.options?.headers };
    const ai = new GoogleGenAI({
      apiKey: ctx.apiKey,
      vertexai: false,
      // No retryOptions: the client does not retry without them, and retries are the gateway's.
      httpOptions: {
        // The body re-cut at line breaks (its decoder re-scans its buffer per chunk) with the call's limits applied.
        fetch: fetchForCall(link),
        ...(ctx.baseUrl ? { baseUrl: ctx.baseUrl } : {}),
        headers,
        ...(request.extraBody ? { extraBody: request.extraBody } : {}),
      },
    });
    link.start();
    const stream = await ai.models.generateContentStream({
      model: ctx.modelId,
      contents: request.contents,
      config: {
        ...request.config,
        abortSignal: signal,
        automaticFunctionCalling: { disable: true },
        // One attempt means one HTTP request: no client-side continuation hops.
        automaticContinuation: false,
      } as typeof request.config,
    });
    for await (const chunk of stream) {
      const events = converter.push(chunk as GeminiChunk);
      for (const event of events) yield event;
    }
    if (link.failure) {
      yield* converter.fail(link.failure);
      return;
    }
    if (signal.aborted) {
      yield* converter.fail(modelError("aborted", "The request was aborted."));
      return;
    }
    yield* converter.end();
  } catch (error) {
    const classified =
      error instanceof GeminiRequestError
        ? modelError("invalid_request", error.message)
        : (link.failure ?? classifyGeminiError(error, signal));
    yield* converter.fail(classified);
  }
}

/** The `gemini` wire family: Gemini `streamGenerateContent` through `@google/genai`. */
export const family: WireFamily = { id: "gemini", streamOnce };
