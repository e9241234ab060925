import type { AgentModelEvent } from "@heddle/shared";
import { modelError } from "../../errors.js";
import type { FamilyCallContext, WireFamily } from "../../types.js";
import { classifyGeminiError } from "./errors.js";
import { GeminiRequestError, toGeminiRequest } from "./request.js";
import { type GeminiChunk, GeminiStreamConverter } from "./stream.js";

type GenAiModule = typeof import("@google/genai");

// Loaded on the first Gemini request, so importing @heddle/llms never loads the vendor client.
let genai: Promise<GenAiModule> | undefined;
function loadGenAi(): Promise<GenAiModule> {
  genai ??= import("@google/genai").catch((error: unknown) => {
    genai = undefined;
    throw error;
  });
  return genai;
}

async function* streamOnce(ctx: FamilyCallContext): AsyncGenerator<AgentModelEvent> {
  const converter = new GeminiStreamConverter();
  const { signal } = ctx;
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
        ...(ctx.baseUrl ? { baseUrl: ctx.baseUrl } : {}),
        headers,
        ...(request.extraBody ? { extraBody: request.extraBody } : {}),
      },
    });
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
    if (signal.aborted) {
      yield* converter.fail(modelError("aborted", "The request was aborted."));
      return;
    }
    yield* converter.end();
  } catch (error) {
    const classified =
      error instanceof GeminiRequestError
        ? modelError("invalid_request", error.message)
        : classifyGeminiError(error, signal);
    yield* converter.fail(classified);
  }
}

/** The `gemini` wire family: Gemini `streamGenerateContent` through `@google/genai`. */
export const family: WireFamily = { id: "gemini", streamOnce };
