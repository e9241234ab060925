import { type AgentModelRequest, estimateTokens } from "@heddle/shared";
import { asksToStop, callHook, stopRequestFrom } from "./hooks.js";
import type { RunContext, RunEnd } from "./run-context.js";

/**
 * The request for the next model call before `beforeModel`: the transcript, or what `prepareStep` projected from
 * it. After a context overflow the projection must be smaller than the request that overflowed, else the run fails.
 */
export async function projectRequest(
  run: RunContext,
  overflowedSize: number | undefined,
): Promise<{ request: AgentModelRequest } | { end: RunEnd }> {
  const { config, transcript, model, agentId } = run.deps;
  const toolDefinitions = run.toolset.definitions;
  let messages = transcript.slice();
  let systemPrompt = config.systemPrompt;
  if (config.prepareStep) {
    const projection = await callHook("prepareStep", config.prepareStep.bind(config), {
      agentId,
      ...(config.conversationId !== undefined && { conversationId: config.conversationId }),
      ...(config.parentAgentId !== undefined && { parentAgentId: config.parentAgentId }),
      iteration: run.iteration + 1,
      tools: toolDefinitions,
      messages: transcript,
      ...(systemPrompt !== undefined && { systemPrompt }),
      ...(model.info && { modelInfo: model.info }),
      overflowRecovery: overflowedSize !== undefined,
      signal: run.signal,
    });
    if (projection?.messages) messages = projection.messages.slice();
    if (projection?.systemPrompt !== undefined) systemPrompt = projection.systemPrompt;
  }
  if (overflowedSize !== undefined && estimateTokens(messages, systemPrompt) >= overflowedSize) {
    return { end: overflowFailure("prepareStep did not shrink the request after a context overflow") };
  }
  return {
    request: {
      messages,
      tools: toolDefinitions,
      signal: run.signal,
      // The loop runs a call from its tool-call-end and shows no argument preview: the deltas would be dropped.
      toolCallDeltas: false,
      ...(systemPrompt !== undefined && { systemPrompt }),
      ...(config.options && { options: config.options }),
      ...(config.modelTools?.length && { modelTools: config.modelTools }),
    },
  };
}

/**
 * Runs `beforeModel` hooks in order. Each sees the request as the earlier ones left it; the fields one returns
 * (`messages`, `tools`, `options`, `systemPrompt`) replace the request's for this call. A stop ends the chain. Context they add becomes one
 * message, stored in the transcript and sent with this request.
 */
export async function applyBeforeModel(run: RunContext, request: AgentModelRequest): Promise<AgentModelRequest> {
  let current = request;
  for (const hook of run.deps.hooks.beforeModel) {
    const value = await callHook("beforeModel", hook, {
      ...run.hookBase(),
      request: current,
    });
    if (!value || typeof value !== "object") continue;
    current = {
      ...current,
      ...(Array.isArray(value.messages) && { messages: value.messages.slice() }),
      ...(Array.isArray(value.tools) && { tools: value.tools }),
      ...(value.options !== undefined && { options: value.options }),
      ...(typeof value.systemPrompt === "string" && { systemPrompt: value.systemPrompt }),
    };
    run.context.add(value.appendContext);
    if (asksToStop(value)) {
      run.requestStop(stopRequestFrom(value, "beforeModel"));
      break;
    }
  }
  const added = run.context.take();
  if (added) {
    run.append(added);
    current = { ...current, messages: [...current.messages, added] };
  }
  return current;
}

/** The failure for an overflow that the one recovery could not fix. */
export function overflowFailure(detail: string): RunEnd {
  const message = `The request is larger than the model's context window; ${detail}.`;
  return {
    status: "failed",
    reason: "model_error",
    detail: message,
    error: { kind: "context_overflow", message, retryable: false },
  };
}
