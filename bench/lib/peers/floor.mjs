// The floor: each vendor's own raw client in a hand-written tool loop. It accumulates what streams, parses the
// tool arguments once per call, runs the tool, appends the assistant turn and the tool result, and goes again:
// the least work any framework can do over that client. Each vendor client is imported on first use, so a
// fresh process pays only for the family it runs.
import { API_KEY, checkRun, MODELS, NOTE_SCHEMA, PROMPT, runNote, TOOL_DESCRIPTION, TOOL_NAME } from "./scenario.mjs";

const { additionalProperties: _, ...plainSchema } = NOTE_SCHEMA;

/** Chat Completions over `openai`. */
async function chat({ url, turns, argumentBytes }) {
  const { OpenAI } = await import("openai");
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: API_KEY, maxRetries: 0 });
  const tools = [
    { type: "function", function: { name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: plainSchema } },
  ];
  const messages = [{ role: "user", content: PROMPT }];
  const state = { calls: 0 };
  for (let turn = 0; turn < turns; turn++) {
    const stream = await client.chat.completions.create({
      model: MODELS.chat,
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
      checkRun({ who: "floor chat", turns, calls: state.calls, text });
      return { calls: state.calls, text };
    }
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } })),
    });
    for (const call of calls) {
      const content = runNote(JSON.parse(call.args), { argumentBytes, state, who: "floor chat" });
      messages.push({ role: "tool", tool_call_id: call.id, content });
    }
  }
  throw new Error("floor chat: the model still called tools after the last turn");
}

/** Anthropic Messages over `@anthropic-ai/sdk`, raw stream events. */
async function anthropic({ url, turns, argumentBytes }) {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const client = new Anthropic({ baseURL: url, apiKey: API_KEY, maxRetries: 0 });
  const tools = [{ name: TOOL_NAME, description: TOOL_DESCRIPTION, input_schema: plainSchema }];
  const messages = [{ role: "user", content: PROMPT }];
  const state = { calls: 0 };
  for (let turn = 0; turn < turns; turn++) {
    const stream = await client.messages.create({
      model: MODELS.anthropic,
      max_tokens: 4096,
      messages,
      tools,
      stream: true,
    });
    const blocks = [];
    let text = "";
    for await (const event of stream) {
      if (event.type === "content_block_start") {
        const block = event.content_block;
        blocks[event.index] =
          block.type === "tool_use" ? { type: "tool_use", id: block.id, name: block.name, json: "" } : { ...block };
      } else if (event.type === "content_block_delta") {
        const block = blocks[event.index];
        if (event.delta.type === "input_json_delta") block.json += event.delta.partial_json;
        else if (event.delta.type === "text_delta") {
          block.text += event.delta.text;
          text += event.delta.text;
        }
      } else if (event.type === "content_block_stop") {
        const block = blocks[event.index];
        if (block.type === "tool_use") {
          block.input = block.json ? JSON.parse(block.json) : {};
          delete block.json;
        }
      }
    }
    const uses = blocks.filter((block) => block.type === "tool_use");
    if (uses.length === 0) {
      checkRun({ who: "floor anthropic", turns, calls: state.calls, text });
      return { calls: state.calls, text };
    }
    messages.push({ role: "assistant", content: blocks });
    messages.push({
      role: "user",
      content: uses.map((use) => ({
        type: "tool_result",
        tool_use_id: use.id,
        content: runNote(use.input, { argumentBytes, state, who: "floor anthropic" }),
      })),
    });
  }
  throw new Error("floor anthropic: the model still called tools after the last turn");
}

/** Gemini over `@google/genai`, `generateContentStream`. */
async function gemini({ url, turns, argumentBytes }) {
  const { GoogleGenAI } = await import("@google/genai");
  const ai = new GoogleGenAI({ apiKey: API_KEY, vertexai: false, httpOptions: { baseUrl: url } });
  const config = {
    tools: [{ functionDeclarations: [{ name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: plainSchema }] }],
    automaticFunctionCalling: { disable: true },
  };
  const contents = [{ role: "user", parts: [{ text: PROMPT }] }];
  const state = { calls: 0 };
  for (let turn = 0; turn < turns; turn++) {
    const stream = await ai.models.generateContentStream({ model: MODELS.gemini, contents, config });
    const parts = [];
    let text = "";
    for await (const chunk of stream) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.text !== undefined) text += part.text;
        else if (part.functionCall) parts.push(part);
      }
    }
    if (parts.length === 0) {
      checkRun({ who: "floor gemini", turns, calls: state.calls, text });
      return { calls: state.calls, text };
    }
    contents.push({ role: "model", parts: text ? [{ text }, ...parts] : parts });
    contents.push({
      role: "user",
      parts: parts.map(({ functionCall }) => ({
        functionResponse: {
          name: functionCall.name,
          response: { output: runNote(functionCall.args, { argumentBytes, state, who: "floor gemini" }) },
        },
      })),
    });
  }
  throw new Error("floor gemini: the model still called tools after the last turn");
}

export const runs = { chat, anthropic, gemini };
