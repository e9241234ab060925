// The two clients the floor benchmark compares, each driving one whole tool loop against the bench chat server
// (bench/lib/chat-server.mjs). Both run the same trivial tool and check they really did every turn, so a broken
// run can never pass for a fast one.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { createAgent } from "../../packages/agents/dist/index.js";

export const MODEL = "gpt-4o";
const PROMPT = "Take notes until you are done.";

// `openai` is a dependency of @heddle/llms, not of the repository root: resolve it from there (its ESM entry).
export function openaiModuleUrl() {
  const require = createRequire(new URL("../../packages/llms/package.json", import.meta.url));
  // `require` resolves the CommonJS entry; the ESM one (what `import "openai"` loads) sits next to it.
  return pathToFileURL(require.resolve("openai").replace(/index\.js$/, "index.mjs")).href;
}
const { OpenAI } = await import(openaiModuleUrl());

const noteSchema = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

/** The trivial tool both loops run: it answers with the length of what it was given. */
const note = (input) => `noted ${input.text.length} characters`;

class BenchRunError extends Error {}

/**
 * The floor: the raw `openai` client in a hand-written loop. Accumulates tool-call fragments by index, parses
 * the arguments once per call, runs the tool, appends the assistant and tool messages, and goes again.
 * Returns how many tool calls ran and the final text.
 */
export async function runFloor({ baseUrl, turns, argumentBytes }) {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: "sk-bench", maxRetries: 0 });
  const tools = [{ type: "function", function: { name: "note", description: "Take a note", parameters: noteSchema } }];
  const messages = [{ role: "user", content: PROMPT }];
  let toolCalls = 0;
  for (let turn = 0; turn < turns; turn++) {
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages,
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    const calls = [];
    let text = "";
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (!delta) continue;
      if (delta.content) text += delta.content;
      if (!delta.tool_calls) continue;
      for (const fragment of delta.tool_calls) {
        calls[fragment.index] ??= { id: "", name: "", args: "" };
        const call = calls[fragment.index];
        if (fragment.id) call.id = fragment.id;
        if (fragment.function?.name) call.name = fragment.function.name;
        if (fragment.function?.arguments) call.args += fragment.function.arguments;
      }
    }
    if (calls.length === 0) {
      if (turn !== turns - 1) throw new BenchRunError(`floor: text answer on turn ${turn + 1} of ${turns}`);
      return { toolCalls, text };
    }
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.args },
      })),
    });
    for (const call of calls) {
      const input = JSON.parse(call.args);
      if (input.text.length !== argumentBytes - 11) throw new BenchRunError("floor: tool arguments arrived cut");
      messages.push({ role: "tool", tool_call_id: call.id, content: note(input) });
      toolCalls++;
    }
  }
  throw new BenchRunError(`floor: the model still called tools after ${turns} turns`);
}

/** Heddle: one `createAgent(...).run()` over the provider form (gateway, openai-chat family, `openai` client). */
export async function runHeddle({ baseUrl, turns, argumentBytes }) {
  let toolCalls = 0;
  const agent = createAgent({
    providerId: "openai-chat",
    modelId: MODEL,
    baseUrl,
    apiKey: "sk-bench",
    // Above the turn count, so only the server decides when the run ends.
    maxIterations: turns + 5,
    tools: [
      {
        name: "note",
        description: "Take a note",
        inputSchema: noteSchema,
        execute(input) {
          if (input.text.length !== argumentBytes - 11) throw new BenchRunError("heddle: tool arguments arrived cut");
          toolCalls++;
          return note(input);
        },
      },
    ],
  });
  const result = await agent.run(PROMPT);
  if (result.status !== "completed" || result.iterations !== turns || toolCalls !== turns - 1) {
    throw new BenchRunError(
      `heddle: run ended ${result.status}/${result.reason} after ${result.iterations} model calls and ${toolCalls} ` +
        `tool calls (expected ${turns} and ${turns - 1})${result.error ? `: ${result.error.message}` : ""}`,
    );
  }
  return { toolCalls, text: result.outputText };
}
