import {
  type AgentModelEvent,
  type AgentModelRequest,
  type AgentUsage,
  type FinishEvent,
  HeddleError,
  type ModelError,
} from "@heddle/shared";
import { modelError } from "../../errors.js";
import type { SseEvent } from "../../sse.js";
import { ToolCallAccumulator } from "../../tool-call-accumulator.js";
import { type FamilyMapper, failureFinish } from "../driver.js";
import { withResponse } from "../response-info.js";
import { GeminiStreamError } from "./errors.js";
import { GEMINI_KEY } from "./request.js";

/** The fields of a streamed `GenerateContentResponse` this family reads; everything else is ignored. */
export interface GeminiChunk {
  candidates?: Array<{
    content?: { parts?: GeminiPart[] };
    finishReason?: string;
  }>;
  promptFeedback?: { blockReason?: string };
  responseId?: string;
  modelVersion?: string;
  usageMetadata?: {
    promptTokenCount?: number;
    cachedContentTokenCount?: number;
    candidatesTokenCount?: number;
    thoughtsTokenCount?: number;
    toolUsePromptTokenCount?: number;
  };
}

interface PartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: string;
}

interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: {
    id?: string;
    name?: string;
    args?: Record<string, unknown>;
    partialArgs?: PartialArg[];
    willContinue?: boolean;
  };
}

const CONTENT_FILTER = new Set([
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
  "IMAGE_OTHER",
  "NO_IMAGE",
]);
// The model produced a call it should not have: the request (tools, mode) is what to fix.
const BAD_CALL = new Set(["MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS"]);

/**
 * One server-sent event of `streamGenerateContent?alt=sse` as the mapper reads it: the JSON of its `data`. Gemini's
 * REST JSON already has the field names the client's objects have (camelCase), so no conversion is needed. The
 * client's rules are kept: an `{"error": {code: 4xx/5xx}}` payload ends the call with that error; data that is not
 * JSON is a server fault.
 */
export function decodeGeminiEvent(event: SseEvent): GeminiChunk | undefined {
  const data = event.data;
  if (!data || data.trim() === "") return undefined;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch (error) {
    throw new HeddleError(
      "stream_malformed",
      `exception parsing stream chunk ${data.slice(0, 200)}. ${(error as Error).message}`,
    );
  }
  if (json !== null && typeof json === "object") {
    const failure = (json as { error?: { code?: unknown } }).error;
    if (failure && typeof failure === "object" && typeof failure.code === "number" && failure.code >= 400)
      throw new GeminiStreamError(failure.code, json);
  }
  return json as GeminiChunk;
}

/** A Vertex `partialArgs` call being assembled from JSON-path fragments. */
interface OpenCall {
  key: number;
  args: Record<string, unknown>;
}

/**
 * Turns streamed Gemini chunks into neutral events. Gemini sends each part whole (text pieces, thought pieces,
 * complete function calls) and repeats cumulative usage on every chunk, so the converter keeps only the last
 * usage and finish reason and reports them once in `end()`.
 */
export class GeminiStreamMapper implements FamilyMapper<GeminiChunk> {
  private usage: GeminiChunk["usageMetadata"];
  private finishReason: string | undefined;
  private blockReason: string | undefined;
  private callCount = 0;
  private openCall: OpenCall | undefined;
  private readonly calls = new ToolCallAccumulator();
  private readonly response: { id?: string; model?: string } = {};
  private readonly wantResponse: boolean | undefined;

  constructor(request: Pick<AgentModelRequest, "responseInfo"> = {}) {
    this.wantResponse = request.responseInfo;
  }

  push(chunk: GeminiChunk, out: AgentModelEvent[]): void {
    if (chunk.usageMetadata) this.usage = chunk.usageMetadata;
    if (this.response.id === undefined && typeof chunk.responseId === "string") this.response.id = chunk.responseId;
    if (this.response.model === undefined && typeof chunk.modelVersion === "string")
      this.response.model = chunk.modelVersion;
    if (chunk.promptFeedback?.blockReason) this.blockReason = chunk.promptFeedback.blockReason;
    const candidate = chunk.candidates?.[0];
    if (!candidate) return;
    const parts = candidate.content?.parts;
    if (parts) for (let i = 0; i < parts.length; i++) this.part(parts[i]!, out);
    if (candidate.finishReason) this.finishReason = candidate.finishReason;
  }

  private part(part: GeminiPart, events: AgentModelEvent[]): void {
    const signature = typeof part.thoughtSignature === "string" && part.thoughtSignature ? part.thoughtSignature : "";
    if (part.functionCall) {
      this.functionCall(part.functionCall, signature, events);
      return;
    }
    if (typeof part.text !== "string") return; // inline data, code execution, ...: not part of the protocol
    if (part.thought) {
      if (part.text.length === 0 && !signature) return;
      events.push({
        type: "reasoning-delta",
        text: part.text,
        ...(signature ? { signature } : {}),
        metadata: { [GEMINI_KEY]: signature ? { thought: true, thoughtSignature: signature } : { thought: true } },
      });
      return;
    }
    if (part.text.length > 0) events.push({ type: "text-delta", text: part.text });
    // A signature on a text part (often an empty last part) must survive to the next request; a zero-text
    // reasoning delta carries it, and the request converter puts it back on the text.
    if (signature) {
      events.push({
        type: "reasoning-delta",
        text: "",
        signature,
        metadata: { [GEMINI_KEY]: { thoughtSignature: signature, onText: true } },
      });
    }
  }

  private functionCall(call: NonNullable<GeminiPart["functionCall"]>, signature: string, events: AgentModelEvent[]) {
    const metadata = signature ? { [GEMINI_KEY]: { thoughtSignature: signature } } : undefined;
    if (call.name) {
      this.closeOpenCall(events);
      const key = this.callCount++;
      // Gemini often gives no id: the accumulator invents a unique one.
      this.calls.start(key, call.id, call.name, events, metadata);
      if (call.willContinue && !call.args) {
        // Vertex streams the arguments in the chunks that follow (`partialArgs`), ended by an empty call.
        this.openCall = { key, args: {} };
        return;
      }
      this.calls.setInput(key, call.args ?? {});
      this.calls.end(key, events);
      return;
    }
    if (!this.openCall) return;
    for (const arg of call.partialArgs ?? []) applyPartialArg(this.openCall.args, arg);
    if (!call.partialArgs && !call.willContinue) this.closeOpenCall(events);
  }

  private closeOpenCall(events: AgentModelEvent[]): void {
    if (!this.openCall) return;
    this.calls.setInput(this.openCall.key, this.openCall.args);
    this.calls.end(this.openCall.key, events);
    this.openCall = undefined;
  }

  /** The usage event (response totals, no cost). Token counts exclude cache reads from the input. */
  private usageEvent(): AgentModelEvent {
    const meta = this.usage ?? {};
    const cacheRead = meta.cachedContentTokenCount ?? 0;
    const reasoning = meta.thoughtsTokenCount ?? 0;
    const usage: Partial<AgentUsage> = {
      inputTokens: Math.max(0, (meta.promptTokenCount ?? 0) - cacheRead) + (meta.toolUsePromptTokenCount ?? 0),
      outputTokens: (meta.candidatesTokenCount ?? 0) + reasoning,
      cacheReadTokens: cacheRead,
      cacheWriteTokens: 0,
      reasoningTokens: reasoning,
    };
    return { type: "usage", usage };
  }

  /** The events that end a stream that completed: a pending Vertex call, usage, then the finish. */
  end(events: AgentModelEvent[]): void {
    const cut = this.finishReason === "MAX_TOKENS";
    // A Vertex call still open at MAX_TOKENS is half-written: it ends as unreadable, never as complete.
    if (cut && this.openCall) {
      this.calls.fail(this.openCall.key, "the response ended before the call's arguments were complete", events);
      this.openCall = undefined;
    } else this.closeOpenCall(events);
    const finish = this.finishEvent();
    events.push(
      this.usageEvent(),
      finish.reason === "error" ? finish : withResponse(finish, this.response, this.wantResponse),
    );
  }

  /** The events that end a stream that failed: usage when any was reported, then the error finish. */
  fail(error: ModelError, events: AgentModelEvent[]): void {
    if (this.usage) events.push(this.usageEvent());
    events.push(failureFinish(error));
  }

  private finishEvent(): FinishEvent {
    if (this.blockReason) return { type: "finish", reason: "content-filter" };
    const reason = this.finishReason;
    if (reason === "MAX_TOKENS") return { type: "finish", reason: "max-tokens" };
    if (reason === undefined || reason === "STOP") {
      return { type: "finish", reason: this.callCount > 0 ? "tool-calls" : "stop" };
    }
    if (CONTENT_FILTER.has(reason)) return { type: "finish", reason: "content-filter" };
    const kind = BAD_CALL.has(reason) ? "invalid_request" : "unknown";
    return {
      type: "finish",
      reason: "error",
      // `finishMessage` would say more, but @google/genai drops it from streamed candidates.
      error: modelError(kind, `Gemini ended the response with finishReason ${reason}.`),
    };
  }
}

/** Sets one Vertex `partialArgs` fragment (`$.a.b[0]`) into the arguments; string values arrive in pieces. */
export function applyPartialArg(target: Record<string, unknown>, arg: PartialArg): void {
  const path = arg.jsonPath;
  if (typeof path !== "string" || !path.startsWith("$")) return;
  const keys: Array<string | number> = [];
  const pattern = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/g;
  for (let match = pattern.exec(path); match; match = pattern.exec(path)) {
    keys.push(match[2] !== undefined ? Number(match[2]) : (match[1] ?? match[3] ?? match[4] ?? ""));
  }
  if (keys.length === 0) return;
  let node: any = target;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i]!;
    if (node[key] === undefined || node[key] === null || typeof node[key] !== "object") {
      node[key] = typeof keys[i + 1] === "number" ? [] : {};
    }
    node = node[key];
  }
  const last = keys[keys.length - 1]!;
  if (arg.stringValue !== undefined) {
    node[last] = (typeof node[last] === "string" ? node[last] : "") + arg.stringValue;
  } else if (arg.numberValue !== undefined) node[last] = arg.numberValue;
  else if (arg.boolValue !== undefined) node[last] = arg.boolValue;
  else if (arg.nullValue !== undefined) node[last] = null;
}
