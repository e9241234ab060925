import type { AgentModelRequest, AgentUsage, FinishEvent } from "@heddle/shared";
import type { RunContext } from "./run-context.js";
import { StreamAssembler } from "./stream-assembler.js";

/** One model response: the assembled stream, how it finished, its usage. */
export interface ModelTurn {
  assembler: StreamAssembler;
  finish: FinishEvent;
  usage: Partial<AgentUsage> | undefined;
  durationMs: number;
}

/**
 * Streams one model call. Per delta it appends to the assembler and emits one small event: nothing here
 * grows with the conversation.
 */
export async function streamModelTurn(
  run: Pick<RunContext, "deps" | "emit" | "signal">,
  request: AgentModelRequest,
): Promise<ModelTurn> {
  const assembler = new StreamAssembler();
  let finish: FinishEvent | undefined;
  let usage: Partial<AgentUsage> | undefined;
  const startedAt = Date.now();
  // What this response said so far: V8 joins strings as ropes, so each delta costs its own length, not the total.
  let text = "";
  let reasoning = "";
  try {
    for await (const event of run.deps.model.stream(request)) {
      switch (event.type) {
        case "text-delta":
          assembler.push(event);
          if (event.text === "") break;
          text += event.text;
          run.emit({ type: "assistant-text-delta", text: event.text, accumulatedText: text });
          break;
        case "reasoning-delta":
          assembler.push(event);
          if (event.text === "") break;
          reasoning += event.text;
          run.emit({ type: "assistant-reasoning-delta", text: event.text, accumulatedText: reasoning });
          break;
        case "tool-call-start":
        case "tool-call-end":
          assembler.push(event);
          break;
        case "usage":
          usage = usage ? { ...usage, ...event.usage } : event.usage;
          break;
        case "retry":
          run.emit({
            type: "status-notice",
            code: "retry",
            message: `Model call failed (${event.error.kind}: ${event.error.message}); retry ${event.attempt} in ${event.delayMs} ms.`,
          });
          break;
        case "finish":
          finish = event;
          break;
      }
    }
  } catch (error) {
    // The seam says stream() never throws; a model that does still ends the turn as data, not an exception.
    const message = error instanceof Error ? error.message : String(error);
    finish = run.signal.aborted
      ? { type: "finish", reason: "aborted" }
      : { type: "finish", reason: "error", error: { kind: "unknown", message, retryable: false } };
  }
  finish ??= run.signal.aborted
    ? { type: "finish", reason: "aborted" }
    : {
        type: "finish",
        reason: "error",
        error: { kind: "unknown", message: "the model stream ended without a finish event", retryable: false },
      };
  return { assembler, finish, usage, durationMs: Date.now() - startedAt };
}
