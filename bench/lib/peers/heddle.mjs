// Heddle through its public API: `createAgent({ providerId, modelId, baseUrl, apiKey, tools })` and one `run()`
// (the gateway, the family, the vendor's client underneath, tool input validation).
import { createAgent } from "@heddle/agents";
import { API_KEY, checkRun, MODELS, NOTE_SCHEMA, PROMPT, runNote, TOOL_DESCRIPTION, TOOL_NAME } from "./scenario.mjs";

const PROVIDERS = { chat: "openai-chat", anthropic: "anthropic", gemini: "gemini" };

function runner(family) {
  return async ({ url, turns, argumentBytes }) => {
    const state = { calls: 0 };
    const who = `heddle ${family}`;
    const agent = createAgent({
      providerId: PROVIDERS[family],
      modelId: MODELS[family],
      baseUrl: family === "chat" ? `${url}/v1` : url,
      apiKey: API_KEY,
      // Above the turn count, so only the server decides when the run ends.
      maxIterations: turns + 5,
      tools: [
        {
          name: TOOL_NAME,
          description: TOOL_DESCRIPTION,
          inputSchema: NOTE_SCHEMA,
          execute: (input) => runNote(input, { argumentBytes, state, who }),
        },
      ],
    });
    const result = await agent.run(PROMPT);
    if (result.status !== "completed")
      throw new Error(`${who}: run ended ${result.status}/${result.reason}: ${result.error?.message ?? ""}`);
    checkRun({ who, turns, calls: state.calls, text: result.outputText });
    return { calls: state.calls, text: result.outputText };
  };
}

export const runs = { chat: runner("chat"), anthropic: runner("anthropic"), gemini: runner("gemini") };
