// pi through its public API: `@mariozechner/pi-agent-core`'s `Agent` over `@mariozechner/pi-ai` models from
// `getModel`, the base URL pointed at the loopback server, one `prompt()`.
import { Agent } from "@mariozechner/pi-agent-core";
import { getModel, Type } from "@mariozechner/pi-ai";
import { API_KEY, checkRun, MODELS, PROMPT, runNote, TOOL_DESCRIPTION, TOOL_NAME } from "./scenario.mjs";

const models = {
  chat: (url) => ({ ...getModel("openai", MODELS.chat), api: "openai-completions", baseUrl: `${url}/v1` }),
  anthropic: (url) => ({ ...getModel("anthropic", MODELS.anthropic), baseUrl: url }),
  // pi's Google provider sets the client's apiVersion to "" (the base URL carries it).
  gemini: (url) => ({ ...getModel("google", MODELS.gemini), baseUrl: `${url}/v1beta` }),
};
const parameters = Type.Object({ text: Type.String() });

function runner(family) {
  return async ({ url, turns, argumentBytes }) => {
    const state = { calls: 0 };
    const who = `pi ${family}`;
    const agent = new Agent({
      initialState: {
        systemPrompt: "",
        model: models[family](url),
        tools: [
          {
            name: TOOL_NAME,
            label: TOOL_NAME,
            description: TOOL_DESCRIPTION,
            parameters,
            execute: async (_id, input) => ({
              content: [{ type: "text", text: runNote(input, { argumentBytes, state, who }) }],
              details: undefined,
            }),
          },
        ],
      },
      getApiKey: () => API_KEY,
    });
    await agent.prompt(PROMPT);
    if (agent.state.errorMessage) throw new Error(`${who}: ${agent.state.errorMessage}`);
    const last = agent.state.messages.at(-1);
    const text = (last?.content ?? [])
      .filter((part) => part.type === "text")
      .map((part) => part.text)
      .join("");
    checkRun({ who, turns, calls: state.calls, text });
    return { calls: state.calls, text };
  };
}

export const runs = { chat: runner("chat"), anthropic: runner("anthropic"), gemini: runner("gemini") };
