import type { SseDecode } from "../../sse.js";

/** An OpenAI error body, as the HTTP error, the in-stream `error` event (flat or nested) or `response.failed` give it. */
export interface OpenAIErrorBody {
  code?: string | null;
  type?: string | null;
  message?: string | null;
  param?: string | null;
}

/**
 * An in-stream error of an OpenAI stream (an event whose data carries `error`), as Heddle's own reader finds it:
 * classified from that body like an HTTP error's. It never reaches a caller: the call ends with a `finish`.
 */
export class OpenAIStreamError extends Error {
  override readonly name = "OpenAIStreamError";
  constructor(readonly body: OpenAIErrorBody) {
    super(typeof body?.message === "string" && body.message ? body.message : JSON.stringify(body));
  }
}

/**
 * A decoder for one OpenAI stream (Chat Completions or Responses), by the `openai` client's own rules: everything
 * from the `[DONE]` marker on is skipped; every other event's data is JSON (a malformed one ends the call, as it
 * does in the client); data with an `error` field ends the call with that error. Each call needs its own: it
 * remembers the marker.
 */
export function openAIEventDecoder<Chunk>(): SseDecode<Chunk> {
  let done = false;
  return (event) => {
    if (done) return undefined;
    if (event.data.startsWith("[DONE]")) {
      done = true;
      return undefined;
    }
    const data = JSON.parse(event.data) as (Chunk & { error?: unknown }) | null;
    if (data && typeof data === "object" && data.error) throw new OpenAIStreamError(data.error as OpenAIErrorBody);
    return data ?? undefined;
  };
}
