import { costOfUsage } from "@heddle/llms";
import { type ScriptedResponse, scriptedEvents } from "@heddle/llms/testing";
import type { AgentMessage, AgentModel, AgentModelEvent, AgentModelRequest, ModelInfo } from "@heddle/shared";

/** The task the offline demo gives its agent. */
export const DEMO_TASK = "The tests in this project fail. Find the bug, fix it, and make sure the tests pass.";

const TEST_COMMAND = "node --test test/";

/** What the demo's lead asks a sub-agent to check (with the full preset, which gives it spawn_agent). */
export const CHECK_PROMPT = `Run the project's tests with \`${TEST_COMMAND}\` and report whether they all pass.`;

/**
 * The demo's model: a script, clearly labelled, that plays a model's part in a real run. Everything around it is
 * real: the loop, the tools (a real shell runs the tests, a real edit changes the file), the session store.
 * It reads the tool results it gets and acts on them, so a failing step shows as a failure.
 */
export function createDemoModel(options: { delayMs?: number } = {}): AgentModel {
  const delayMs = options.delayMs ?? 12;
  const info: ModelInfo = {
    provider: "demo",
    id: "scripted-demo-model",
    contextWindow: 200_000,
    maxOutputTokens: 8_192,
    // Prices of a mid-size hosted model, so the cost line shows how costs add up; nothing is billed.
    pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    supports: { tools: true, reasoning: true, images: false },
  };
  return {
    provider: "demo",
    modelId: "scripted-demo-model",
    info,
    async *stream(request: AgentModelRequest): AsyncIterable<AgentModelEvent> {
      const response = respond(request);
      const inputTokens = estimateTokens(request);
      const outputTokens = Math.round(40 + (response.text?.length ?? 0) / 4);
      const usage = { inputTokens, outputTokens, costUsd: costOfUsage(info, { inputTokens, outputTokens }) };
      for (const event of scriptedEvents({ ...response, usage })) {
        const pieces = event.type === "text-delta" || event.type === "reasoning-delta" ? splitWords(event) : [event];
        for (const piece of pieces) {
          if (request.signal?.aborted) {
            yield {
              type: "finish",
              reason: "aborted",
              error: { kind: "aborted", message: "aborted", retryable: false },
            };
            return;
          }
          if (delayMs > 0 && piece.type !== "usage" && piece.type !== "finish") await sleep(delayMs, request.signal);
          yield piece;
        }
      }
    },
  };
}

function respond(request: AgentModelRequest): ScriptedResponse {
  // A request without tools is the session's compaction asking for a summary.
  if (request.tools.length === 0) {
    return {
      text:
        "Summary so far: the user asked to fix the failing tests of the demo shop. applyDiscount in src/cart.js " +
        "divided the percentage by 10; it now divides by 100 and all tests pass. Files touched: src/cart.js.",
    };
  }
  const { userText, results } = sinceLastUserMessage(request.messages);
  // The sub-agent the lead delegated the check to: run the tests, report.
  if (userText === CHECK_PROMPT) {
    if (results.length === 0)
      return { text: "Running the tests.", toolCalls: [call("bash", { command: TEST_COMMAND })] };
    const passed = /# fail 0\b/.test(results.at(-1) ?? "");
    return { text: passed ? "All tests pass (# fail 0)." : "Some tests still fail." };
  }
  if (/\b(slow|sleep|wait)\b/i.test(userText)) {
    if (results.length === 0)
      return {
        text: "Running a slow command; press Esc or Ctrl-C to stop it.",
        toolCalls: [call("bash", { command: "sleep 30 && echo finished" })],
      };
    return { text: "The slow command is done." };
  }
  if (!/\b(fix|bug|tests?|fail)/i.test(userText)) {
    return {
      text:
        "I am Heddle's scripted demo model, not a real one: I can run the demo task (ask me to fix the failing tests) " +
        "or a slow command (ask me to wait). Start heddle-code with --provider and a key to talk to a real model.",
    };
  }
  const last = results.at(-1) ?? "";
  switch (results.length) {
    case 0:
      return {
        reasoning: "The user says tests fail. Run them first to see which ones and why.",
        text: "Let me run the tests to see what fails.",
        toolCalls: [call("bash", { command: TEST_COMMAND })],
      };
    case 1:
      return {
        reasoning: "Two failures, both about discounts: 1000 with 10% should be 900. Read applyDiscount.",
        text: "Both failures involve discounts. Let me read the cart code.",
        toolCalls: [call("read_file", { path: "src/cart.js" })],
      };
    case 2:
      if (!last.includes("percent / 10)")) return { text: "The code is not what I expected; I will stop here." };
      return {
        reasoning: "percent / 10 turns 10% into 100%: the divisor must be 100.",
        text: "`applyDiscount` divides the percentage by 10 instead of 100. Fixing it.",
        toolCalls: [
          call("edit_file", { path: "src/cart.js", old_text: "(1 - percent / 10)", new_text: "(1 - percent / 100)" }),
        ],
      };
    case 3:
      // With spawn_agent (the full preset) the check goes to a sub-agent with its own context.
      if (request.tools.some((tool) => tool.name === "spawn_agent"))
        return {
          text: "Let me have a sub-agent check the tests.",
          toolCalls: [call("spawn_agent", { description: "run the tests", prompt: CHECK_PROMPT, tools: ["bash"] })],
        };
      return { text: "Now let me run the tests again.", toolCalls: [call("bash", { command: TEST_COMMAND })] };
    default:
      if (/# fail 0\b/.test(last)) {
        return {
          text: "All tests pass.",
          toolCalls: [
            call("submit_result", {
              result:
                "Fixed applyDiscount in src/cart.js: it divided the percentage by 10 instead of 100. All 4 tests pass.",
            }),
          ],
        };
      }
      return { text: "The tests still fail after my change; here is where I stopped." };
  }
}

let callCount = 0;
function call(name: string, input: unknown) {
  callCount += 1;
  return { id: `demo_call_${callCount}`, name, input };
}

function sinceLastUserMessage(messages: AgentMessage[]): { userText: string; results: string[] } {
  const results: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "tool") {
      for (const part of message.content)
        if (part.type === "tool-result") results.unshift(typeof part.output === "string" ? part.output : "");
      continue;
    }
    if (message.role === "user" && !isContext(message)) {
      const userText = message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      return { userText, results };
    }
  }
  return { userText: "", results };
}

function isContext(message: AgentMessage): boolean {
  const heddle = message.metadata?.heddle as { kind?: string } | undefined;
  return heddle?.kind !== undefined;
}

function splitWords(event: AgentModelEvent): AgentModelEvent[] {
  if ((event.type !== "text-delta" && event.type !== "reasoning-delta") || event.text.length === 0) return [event];
  const words = event.text.match(/\S+\s*/g) ?? [event.text];
  // Only the last piece keeps a signature, as a vendor sends it once at the end of a thinking block.
  return words.map((text, i) => {
    if (i === words.length - 1) return { ...event, text };
    const { signature: _signature, ...rest } = event as { signature?: string } & AgentModelEvent;
    return { ...rest, text } as AgentModelEvent;
  });
}

function estimateTokens(request: AgentModelRequest): number {
  let chars = request.systemPrompt?.length ?? 0;
  for (const message of request.messages) chars += JSON.stringify(message.content).length;
  return Math.round(chars / 4) + 200;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
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
