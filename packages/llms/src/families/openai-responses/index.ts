import type { AgentModelEvent, ModelError } from "@heddle/shared";
import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import { CallLink } from "../../call-link.js";
import { modelError } from "../../errors.js";
import { guardedFetch, linkedFetchOptions } from "../../guarded-fetch.js";
import type { FamilyCallContext, WireFamily } from "../../types.js";
import { classifyOpenAIError, loadOpenAI, type OpenAIErrorClasses } from "../openai-shared/errors.js";
import { buildResponsesBody } from "./request.js";
import { type ResponsesEvent, ResponsesStreamConverter } from "./stream.js";

type OpenAIModule = typeof import("openai");

function errorClasses(mod: OpenAIModule): OpenAIErrorClasses {
  return {
    APIError: mod.APIError,
    APIUserAbortError: mod.APIUserAbortError,
    APIConnectionError: mod.APIConnectionError,
  };
}

async function* streamResponses(ctx: FamilyCallContext): AsyncGenerator<AgentModelEvent> {
  if (!ctx.apiKey) {
    const message = `No API key for provider "${ctx.providerId}": set it in the provider config or OPENAI_API_KEY.`;
    yield { type: "finish", reason: "error", error: modelError("auth", message) };
    return;
  }
  // The client adds an abort listener per request and never removes it: give it a per-call signal, so a run that
  // reuses one signal over many turns does not pile listeners up on it (MaxListenersExceededWarning).
  const link = new CallLink(ctx.signal, ctx.limits);
  try {
    yield* streamWithLink(ctx, link);
  } finally {
    link.close();
  }
}

async function* streamWithLink(ctx: FamilyCallContext, link: CallLink): AsyncGenerator<AgentModelEvent> {
  const { signal } = link;
  let classes: OpenAIErrorClasses | undefined;
  let stream: AsyncIterable<unknown>;
  try {
    const mod = await loadOpenAI();
    classes = errorClasses(mod);
    const client = new mod.OpenAI({
      apiKey: ctx.apiKey,
      ...(ctx.baseUrl ? { baseURL: ctx.baseUrl } : {}),
      maxRetries: 0,
      fetch: guardedFetch,
      ...(ctx.headers ? { defaultHeaders: ctx.headers } : {}),
      dangerouslyAllowBrowser: true,
    });
    const body = buildResponsesBody(ctx.modelId, ctx.request, ctx.info);
    const headers = ctx.request.options?.headers;
    // The body is built from neutral data plus `providerOptions`, so it is typed loosely; the server validates it.
    link.start();
    stream = await client.responses.create(body as unknown as ResponseCreateParamsStreaming, {
      signal,
      fetchOptions: linkedFetchOptions(link),
      ...(headers ? { headers } : {}),
    });
  } catch (error) {
    yield errorFinish(link.failure ?? classifyOpenAIError(error, signal, classes));
    return;
  }
  yield* convertVendorStream(stream, signal, classes, link);
}

const ABORTED = Symbol("aborted");

/**
 * The neutral events for the `openai` client's parsed Responses stream, ending with one `finish`. Never throws:
 * what the client throws while reading (an in-stream error, a cut connection) is classified. Stops reading at the
 * terminal event. An abort ends the stream at once rather than after the client and the socket have unwound,
 * which can take tens of milliseconds on a busy machine.
 */
export async function* convertVendorStream(
  stream: AsyncIterable<unknown>,
  signal: AbortSignal,
  classes: OpenAIErrorClasses,
  link?: CallLink,
): AsyncGenerator<AgentModelEvent> {
  const converter = new ResponsesStreamConverter();
  const iterator = stream[Symbol.asyncIterator]();
  // One listener per call, removed at the end; each pending read gets its own wake-up, so nothing accumulates.
  let wake: ((value: typeof ABORTED) => void) | undefined;
  const onAbort = () => wake?.(ABORTED);
  signal.addEventListener("abort", onAbort, { once: true });
  let finished = false;
  try {
    while (!signal.aborted) {
      const next = await new Promise<IteratorResult<unknown> | typeof ABORTED>((resolve, reject) => {
        wake = resolve;
        iterator.next().then(resolve, reject);
      });
      if (next === ABORTED) break;
      if (next.done) {
        finished = true;
        break;
      }
      yield* converter.convert(next.value as ResponsesEvent);
      if (converter.finished) {
        finished = true;
        return;
      }
    }
  } catch (error) {
    finished = true;
    yield errorFinish(link?.failure ?? classifyOpenAIError(error, signal, classes));
    return;
  } finally {
    wake = undefined;
    signal.removeEventListener("abort", onAbort);
    // Stops the client (it aborts its request) when we leave early: a terminal event, an abort, a consumer break.
    if (!finished || converter.finished) void iterator.return?.()?.catch(() => {});
  }
  // The client also ends its iteration quietly on an abort (a stream limit aborts too); anything else that ends
  // early is a cut stream.
  if (link?.failure) yield errorFinish(link.failure);
  else if (signal.aborted) yield errorFinish(modelError("aborted", "The request was aborted."));
  else yield* converter.truncated();
}

function errorFinish(error: ModelError): AgentModelEvent {
  return error.kind === "aborted"
    ? { type: "finish", reason: "aborted", error }
    : { type: "finish", reason: "error", error };
}

/** The OpenAI Responses API (`POST /v1/responses`) on the official `openai` client. */
export const family: WireFamily = {
  id: "openai",
  streamOnce: (ctx) => streamResponses(ctx),
};
