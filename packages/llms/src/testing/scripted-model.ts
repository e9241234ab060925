import type {
  AgentModel,
  AgentModelEvent,
  AgentModelRequest,
  AgentUsage,
  FinishReason,
  ModelError,
  ModelInfo,
} from "@heddle/shared";
import { ToolCallAccumulator } from "../tool-call-accumulator.js";

/** A scripted response in shorthand: text, reasoning, tool calls, usage, and how it ends. */
export interface ScriptedResponse {
  reasoning?: string;
  reasoningSignature?: string;
  text?: string;
  /**
   * Tool calls, streamed as the gateway streams them: `tool-call-start`, the JSON arguments as one
   * `tool-call-delta`, then `tool-call-end`. `inputText` sends raw (possibly bad) JSON, read by the gateway's own
   * parser and repair, so a bad or cut-off text ends the call with an error exactly as a real provider's would.
   */
  toolCalls?: Array<{ id?: string; name: string; input?: unknown; inputText?: string }>;
  usage?: Partial<AgentUsage>;
  /** Defaults to `tool-calls` when there are tool calls, else `stop`. */
  finishReason?: FinishReason;
  /** Ends the response with `finish {reason:"error", error}`. */
  error?: Partial<ModelError> & { kind: ModelError["kind"] };
  /** Pause between events, honouring the request's abort signal. */
  delayMs?: number;
}

/** One step of a script: shorthand, a literal list of events, or a function of the request. */
export type ScriptedStep =
  | ScriptedResponse
  | AgentModelEvent[]
  | ((request: AgentModelRequest, callIndex: number) => ScriptedResponse | AgentModelEvent[]);

/** An `AgentModel` fed from a script that records every request it gets. */
export interface ScriptedModel extends AgentModel {
  /** Every request received, in order (copies of the message arrays, so later mutation does not show). */
  readonly requests: AgentModelRequest[];
  /** Steps not yet consumed. */
  readonly remaining: number;
  /** Adds steps at the end of the script. */
  push(...steps: ScriptedStep[]): void;
}

export interface ScriptedModelOptions {
  provider?: string;
  modelId?: string;
  info?: ModelInfo;
  /** When the script runs out: repeat the last step (`"repeat-last"`) or end with an error (default). */
  whenExhausted?: "error" | "repeat-last";
}

/** Expands shorthand into the events a real gateway would emit for it. */
export function scriptedEvents(response: ScriptedResponse): AgentModelEvent[] {
  const events: AgentModelEvent[] = [];
  if (response.reasoning !== undefined) {
    events.push({ type: "reasoning-delta", text: response.reasoning });
    if (response.reasoningSignature)
      events.push({ type: "reasoning-delta", text: "", signature: response.reasoningSignature });
  }
  if (response.text) events.push({ type: "text-delta", text: response.text });
  if (response.toolCalls?.length) {
    const calls = new ToolCallAccumulator();
    response.toolCalls.forEach((call, index) => {
      calls.start(index, call.id, call.name, events);
      calls.append(index, call.inputText ?? JSON.stringify(call.input ?? {}), events);
      calls.end(index, events);
    });
  }
  events.push({ type: "usage", usage: response.usage ?? { inputTokens: 10, outputTokens: 5 } });
  if (response.error) {
    const error: ModelError = { message: `scripted ${response.error.kind} error`, retryable: false, ...response.error };
    events.push({ type: "finish", reason: "error", error });
  } else {
    const reason = response.finishReason ?? (response.toolCalls?.length ? "tool-calls" : "stop");
    events.push({ type: "finish", reason });
  }
  return events;
}

/**
 * An `AgentModel` that answers from a script, one step per `stream()` call, and records the requests.
 * Abort-aware: an aborted request ends with `finish {reason:"aborted"}` at the next event.
 */
export function createScriptedModel(steps: ScriptedStep[] = [], options: ScriptedModelOptions = {}): ScriptedModel {
  const queue = [...steps];
  const requests: AgentModelRequest[] = [];
  let lastStep: ScriptedStep | undefined;
  let calls = 0;
  const model: ScriptedModel = {
    provider: options.provider ?? "scripted",
    modelId: options.modelId ?? "scripted-model",
    ...(options.info && { info: options.info }),
    requests,
    get remaining() {
      return queue.length;
    },
    push(...more) {
      queue.push(...more);
    },
    async *stream(request) {
      const callIndex = calls++;
      requests.push({ ...request, messages: [...request.messages], tools: [...request.tools] });
      let step = queue.shift();
      if (step === undefined && options.whenExhausted === "repeat-last") step = lastStep;
      if (step === undefined) {
        yield {
          type: "finish",
          reason: "error",
          error: {
            kind: "unknown",
            message: `scripted model: no step left for call ${callIndex + 1}`,
            retryable: false,
          },
        };
        return;
      }
      lastStep = step;
      const resolved = typeof step === "function" ? step(request, callIndex) : step;
      const events = Array.isArray(resolved) ? resolved : scriptedEvents(resolved);
      const delayMs = Array.isArray(resolved) ? 0 : (resolved.delayMs ?? 0);
      for (const event of events) {
        if (delayMs > 0) await sleep(delayMs, request.signal);
        if (request.signal?.aborted) {
          yield { type: "finish", reason: "aborted", error: { kind: "aborted", message: "aborted", retryable: false } };
          return;
        }
        yield event;
      }
    },
  };
  return model;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
