import { HeddleError } from "@heddle/shared";
import { modelError } from "../../errors.js";
import { fetchForCall } from "../../guarded-fetch.js";
import { lazyModule } from "../../lazy-module.js";
import { type ByteBody, sseChunks } from "../../sse.js";
import { clientCache } from "../client-cache.js";
import { type FamilyDriver, familyOf } from "../driver.js";
import { classifyGeminiError } from "./errors.js";
import { GeminiRequestError, toGeminiRequest } from "./request.js";
import { decodeGeminiEvent, type GeminiChunk, GeminiStreamMapper } from "./stream.js";

type GenAiModule = typeof import("@google/genai");
type GenAiClient = InstanceType<GenAiModule["GoogleGenAI"]>;
type HttpOptions = NonNullable<import("@google/genai").GenerateContentConfig["httpOptions"]>;

// Loaded on the first Gemini request, so importing @heddle/llms never loads the vendor client.
const loadGenAi = lazyModule<GenAiModule>(() => import("@google/genai"));

const clientFor = clientCache(
  loadGenAi,
  ({ GoogleGenAI }, { apiKey, baseUrl, headers }) =>
    new GoogleGenAI({
      apiKey: apiKey as string,
      vertexai: false,
      // No retryOptions: the client does not retry without them, and retries are the gateway's.
      httpOptions: { ...(baseUrl ? { baseUrl } : {}), ...(headers && { headers }) },
    }),
);

const driver: FamilyDriver<GenAiClient, GeminiChunk> = {
  id: "gemini",
  // Without a key the client would look for Google Cloud credentials instead: fail clearly, here.
  checkAuth: (ctx) =>
    ctx.apiKey ? undefined : modelError("auth", `No API key for provider "${ctx.providerId}" (Gemini).`),
  loadClient: clientFor,
  async openBatches(client, ctx, link) {
    const request = toGeminiRequest(ctx.request, ctx.modelId);
    // The client builds and sends the request and turns an error status into its ApiError; Heddle reads the events
    // (why: src/sse.ts; this client also wraps every event in a new Response and parses it asynchronously). The
    // fetch it is given keeps the body of a successful response and hands the client an empty one.
    const linked = fetchForCall(link);
    let events: Response["body"] | undefined;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await linked(input, init);
      if (!response.ok || !response.body) return response;
      events = response.body;
      return new Response("", { status: response.status, statusText: response.statusText, headers: response.headers });
    };
    const httpOptions: HttpOptions = { fetch };
    const headers = ctx.request.options?.headers;
    if (headers) httpOptions.headers = headers;
    if (request.extraBody) httpOptions.extraBody = request.extraBody;
    const config = request.config as typeof request.config & Record<string, unknown>;
    config.httpOptions = httpOptions;
    // The client adds an abort listener to the signal it is given and never removes it: the link's signal is
    // per call, so a signal reused over many calls collects none.
    config.abortSignal = link.signal;
    config.automaticFunctionCalling = { disable: true };
    // One attempt means one HTTP request: no client-side continuation hops.
    config.automaticContinuation = false;
    const emptied = await client.models.generateContentStream({
      model: ctx.modelId,
      contents: request.contents,
      config,
    });
    void emptied.return?.(undefined);
    // Like the client, a body that ends inside an event is a cut connection.
    return sseChunks(events as ByteBody | undefined, decodeGeminiEvent, {
      unterminatedEnd: () => new HeddleError("stream_malformed", "Incomplete JSON segment at the end"),
    });
  },
  mapper: (ctx) => new GeminiStreamMapper(ctx.request),
  classify: (error, signal) =>
    error instanceof GeminiRequestError
      ? modelError("invalid_request", error.message)
      : classifyGeminiError(error, signal),
};

/** The `gemini` wire family: Gemini `streamGenerateContent` sent by `@google/genai`, its events read by Heddle. */
export const family = familyOf(driver);
