// The OpenAI Agents SDK through its public API: an `Agent` with one `tool`, on `OpenAIChatCompletionsModel`
// over an `openai` client pointed at the loopback server, `run(agent, prompt, { stream: true })` read to the
// end. Tracing is off (it would export to OpenAI). The SDK speaks OpenAI only: chat scenarios only.
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from "@openai/agents";
import { OpenAI } from "openai";
import { API_KEY, checkRun, MODELS, NOTE_SCHEMA, PROMPT, runNote, TOOL_DESCRIPTION, TOOL_NAME } from "./scenario.mjs";

setTracingDisabled(true);

async function chat({ url, turns, argumentBytes }) {
  const state = { calls: 0 };
  const who = "openai-agents chat";
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: API_KEY, maxRetries: 0 });
  const agent = new Agent({
    name: "bench",
    instructions: "",
    model: new OpenAIChatCompletionsModel(client, MODELS.chat),
    tools: [
      tool({
        name: TOOL_NAME,
        description: TOOL_DESCRIPTION,
        parameters: NOTE_SCHEMA,
        strict: false,
        execute: async (input) => runNote(input, { argumentBytes, state, who }),
      }),
    ],
  });
  const result = await run(agent, PROMPT, { stream: true, maxTurns: turns + 5 });
  for await (const _event of result);
  await result.completed;
  if (result.error) throw result.error;
  const text = String(result.finalOutput ?? "");
  checkRun({ who, turns, calls: state.calls, text });
  return { calls: state.calls, text };
}

export const runs = { chat };
