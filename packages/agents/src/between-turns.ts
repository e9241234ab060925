import type { AgentMessage } from "@heddle/shared";
import { userMessage } from "@heddle/shared";
import { callHook } from "./hooks.js";
import type { RunContext, RunEnd } from "./run-context.js";
import { firstMatchingCondition } from "./stop-conditions.js";
import { assertMessages } from "./transcript.js";

/** The end for a reached budget or a holding stop condition, checked after each turn with tool calls. */
export async function limitReached(run: RunContext, lastMessage: AgentMessage): Promise<RunEnd | undefined> {
  const budget = run.deps.config.maxBudgetUsd;
  if (budget !== undefined && run.usage.costUsd >= budget) {
    return {
      status: "incomplete",
      reason: "max_budget",
      detail: `spent $${run.usage.costUsd.toFixed(4)} of maxBudgetUsd $${budget}`,
    };
  }
  if (run.deps.stopWhen.length === 0) return undefined;
  const ctx = { iteration: run.iteration, usage: run.usage, newMessages: run.newMessages, lastMessage };
  const condition = await callHook("stopWhen", () => firstMatchingCondition(run.deps.stopWhen, ctx), undefined);
  if (condition) return { status: "completed", reason: "stop_condition", detail: condition.name || "stopWhen" };
  return undefined;
}

/** Appends queued steering and the host's pending user message; true when anything was added. */
export async function drainPendingUserMessages(run: RunContext): Promise<boolean> {
  let added = false;
  for (const message of run.deps.takeSteered()) {
    run.append(message);
    added = true;
  }
  const consume = run.deps.config.consumePendingUserMessage;
  if (consume) {
    const pending = await callHook("consumePendingUserMessage", () => consume.call(run.deps.config), undefined);
    if (typeof pending === "string" && pending !== "") {
      run.append(userMessage(pending));
      added = true;
    } else if (typeof pending === "object" && pending !== null) {
      assertMessages([pending], "consumePendingUserMessage()");
      run.append(pending);
      added = true;
    }
  }
  return added;
}
