// The Vercel AI SDK through its public API: `streamText` with one `tool`, `stopWhen: stepCountIs(...)`, the
// text stream read as a user would print it, over `@ai-sdk/openai` (`.chat`), `@ai-sdk/anthropic` and
// `@ai-sdk/google` pointed at the loopback server.
import { jsonSchema, stepCountIs, streamText, tool } from "ai";
import { API_KEY, checkRun, MODELS, NOTE_SCHEMA, PROMPT, runNote, TOOL_DESCRIPTION, TOOL_NAME } from "./scenario.mjs";

const providers = {
  async chat(url) {
    const { createOpenAI } = await import("@ai-sdk/openai");
    return createOpenAI({ baseURL: `${url}/v1`, apiKey: API_KEY }).chat(MODELS.chat);
  },
  async anthropic(url) {
    const { createAnthropic } = await import("@ai-sdk/anthropic");
    return createAnthropic({ baseURL: `${url}/v1`, apiKey: API_KEY })(MODELS.anthropic);
  },
  async gemini(url) {
    const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
    return createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey: API_KEY })(MODELS.gemini);
  },
};

function runner(family) {
  return async ({ url, turns, argumentBytes }) => {
    const state = { calls: 0 };
    const who = `ai ${family}`;
    const result = streamText({
      model: await providers[family](url),
      prompt: PROMPT,
      maxRetries: 0,
      stopWhen: stepCountIs(turns + 5),
      tools: {
        [TOOL_NAME]: tool({
          description: TOOL_DESCRIPTION,
          inputSchema: jsonSchema(NOTE_SCHEMA),
          execute: async (input) => runNote(input, { argumentBytes, state, who }),
        }),
      },
    });
    let streamed = "";
    for await (const delta of result.textStream) streamed += delta;
    const steps = await result.steps;
    const error = steps.at(-1)?.finishReason;
    if (error !== "stop") throw new Error(`${who}: the last step finished with "${error}" after ${steps.length}`);
    const text = await result.text;
    checkRun({ who, turns, calls: state.calls, text });
    if (!streamed.includes(text)) throw new Error(`${who}: the text stream missed the final text`);
    return { calls: state.calls, text };
  };
}

export const runs = { chat: runner("chat"), anthropic: runner("anthropic"), gemini: runner("gemini") };
