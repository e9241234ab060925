// A diagnostic column, not a peer: Heddle's gateway alone, its `AgentModel` driven by a hand-written loop like the
// floor's, without `AgentRuntime`. Next to the floor and the whole agent it splits Heddle's cost between the gateway
// (request building, the family, the stream reader) and the loop (events, tool validation, messages). Measured only
// when named: `--peers=heddle,heddle-gateway`.
import { createGateway } from "@heddle/llms";
import { API_KEY, checkRun, MODELS, NOTE_SCHEMA, PROMPT, runNote, TOOL_DESCRIPTION, TOOL_NAME } from "./scenario.mjs";

const PROVIDERS = { chat: "openai-chat", anthropic: "anthropic", gemini: "gemini" };
const TOOLS = [{ name: TOOL_NAME, description: TOOL_DESCRIPTION, inputSchema: NOTE_SCHEMA }];

let nextId = 0;
const message = (role, content) => ({ id: `m${nextId++}`, role, content, createdAt: 0 });

function runner(family) {
  return async ({ url, turns, argumentBytes }) => {
    const who = `heddle-gateway ${family}`;
    const providerId = PROVIDERS[family];
    const gateway = createGateway({
      providers: [{ providerId, apiKey: API_KEY, baseUrl: family === "chat" ? `${url}/v1` : url }],
    });
    const model = gateway.createAgentModel({ providerId, modelId: MODELS[family] });
    const messages = [message("user", [{ type: "text", text: PROMPT }])];
    const signal = new AbortController().signal;
    const state = { calls: 0 };
    for (let turn = 0; turn < turns; turn++) {
      let text = "";
      const calls = [];
      const names = new Map();
      // As the agent loop asks: no argument previews, each call whole at its tool-call-end.
      for await (const event of model.stream({ messages, tools: TOOLS, signal, toolCallDeltas: false })) {
        if (event.type === "text-delta") text += event.text;
        else if (event.type === "tool-call-start") names.set(event.id, event.name);
        else if (event.type === "tool-call-end")
          calls.push({ id: event.id, name: names.get(event.id), input: event.input });
        else if (event.type === "finish" && event.reason === "error")
          throw new Error(`${who}: ${event.error?.message}`);
      }
      if (calls.length === 0) {
        checkRun({ who, turns, calls: state.calls, text });
        return { calls: state.calls, text };
      }
      messages.push(
        message(
          "assistant",
          calls.map((call) => ({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.input })),
        ),
        message(
          "tool",
          calls.map((call) => ({
            type: "tool-result",
            toolCallId: call.id,
            toolName: call.name,
            output: runNote(call.input, { argumentBytes, state, who }),
          })),
        ),
      );
    }
    throw new Error(`${who}: the model still called tools after the last turn`);
  };
}

export const runs = { chat: runner("chat"), anthropic: runner("anthropic"), gemini: runner("gemini") };
