// The loopback server of the peer benchmark, run as its own Node process so its CPU is never counted by the
// clients measured. It speaks all three wire families at once (Chat Completions, Anthropic Messages, Gemini)
// through `startMockProviderServer`, which frames each family's real SSE format. Usage (a child with IPC):
//   node server.mjs <turns> <argumentBytes> <fragments>
// The turn is read from the request itself: a request carrying K tool results is turn K. Turns before the last
// stream one tool call (Chat: the arguments in `fragments` pieces; Anthropic: `fragments` input_json_delta
// events; Gemini: `fragments` text chunks, then the call whole); the last turn streams FINAL_TEXT.
// Every tool result that comes back is checked (it must carry the tool's answer); a request with a wrong one
// gets a 400, so the client's run fails. The parent asks for {type:"stats"} to check that each measured run
// really reached its last turn with all its tool results.
import http from "node:http";
import { syncBuiltinESMExports } from "node:module";
import { startMockProviderServer } from "@heddle/llms/testing";
import { FINAL_WORDS, MODELS, split, textLength, toolArguments, toolResult } from "./scenario.mjs";

const [turns, argumentBytes, fragments] = process.argv.slice(2).map(Number);
if (!(turns >= 2 && argumentBytes >= 16 && fragments >= 1)) {
  console.error("peers server: usage: server.mjs <turns >= 2> <argumentBytes >= 16> <fragments >= 1>");
  process.exit(2);
}
const args = toolArguments(argumentBytes);
const pieces = split(args, fragments);
const expected = toolResult(textLength(argumentBytes));

// ---- Chat Completions
const chatChunk = (delta, finish = null) => ({
  id: "chatcmpl-bench",
  object: "chat.completion.chunk",
  created: 1_764_000_000,
  model: MODELS.chat,
  system_fingerprint: "fp_bench",
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});
const chatUsage = {
  id: "chatcmpl-bench",
  object: "chat.completion.chunk",
  created: 1_764_000_000,
  model: MODELS.chat,
  choices: [],
  usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
};
const chatToolTurn = (turn) => [
  chatChunk({
    role: "assistant",
    content: null,
    tool_calls: [{ index: 0, id: `call_${turn}`, type: "function", function: { name: "note", arguments: "" } }],
  }),
  ...pieces.map((piece) => chatChunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
  chatChunk({}, "tool_calls"),
  chatUsage,
];
const chatTextTurn = [
  chatChunk({ role: "assistant", content: "" }),
  ...FINAL_WORDS.map((word) => chatChunk({ content: word })),
  chatChunk({}, "stop"),
  chatUsage,
];

// ---- Anthropic Messages
const messageStart = {
  type: "message_start",
  message: {
    id: "msg_bench",
    type: "message",
    role: "assistant",
    model: MODELS.anthropic,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 1000, output_tokens: 1 },
  },
};
const messageEnd = (reason) => [
  { type: "message_delta", delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 500 } },
  { type: "message_stop" },
];
const anthropicToolTurn = (turn) => [
  messageStart,
  {
    type: "content_block_start",
    index: 0,
    content_block: { type: "tool_use", id: `toolu_${turn}`, name: "note", input: {} },
  },
  ...pieces.map((piece) => ({
    type: "content_block_delta",
    index: 0,
    delta: { type: "input_json_delta", partial_json: piece },
  })),
  { type: "content_block_stop", index: 0 },
  ...messageEnd("tool_use"),
];
const anthropicTextTurn = [
  messageStart,
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  ...FINAL_WORDS.map((word) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: word } })),
  { type: "content_block_stop", index: 0 },
  ...messageEnd("end_turn"),
];

// ---- Gemini
const geminiUsage = { promptTokenCount: 1000, candidatesTokenCount: 500, totalTokenCount: 1500 };
const geminiChunk = (parts, finishReason) => ({
  candidates: [{ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}), index: 0 }],
  usageMetadata: geminiUsage,
  modelVersion: MODELS.gemini,
  responseId: "bench",
});
// Text in `fragments` chunks (about as many bytes as the arguments), then the function call whole.
const geminiText = split("thinking about the next note ".repeat(Math.ceil(argumentBytes / 29)), fragments);
const geminiArgs = JSON.parse(args);
const geminiToolTurn = [
  ...geminiText.map((text) => geminiChunk([{ text }])),
  geminiChunk([{ functionCall: { name: "note", args: geminiArgs } }], "STOP"),
];
const geminiTextTurn = FINAL_WORDS.map((word, i) =>
  geminiChunk([{ text: word }], i === FINAL_WORDS.length - 1 ? "STOP" : undefined),
);

/** The tool results a request carries, each as JSON text, per family. */
function toolResults(family, body) {
  if (family === "openai-chat")
    return (body?.messages ?? []).filter((message) => message.role === "tool").map((m) => JSON.stringify(m));
  if (family === "anthropic")
    return (body?.messages ?? [])
      .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
      .filter((block) => block.type === "tool_result")
      .map((block) => JSON.stringify(block));
  if (family === "gemini")
    return (body?.contents ?? [])
      .flatMap((content) => content.parts ?? [])
      .filter((part) => part.functionResponse)
      .map((part) => JSON.stringify(part));
  return undefined;
}

const stats = { completed: {}, toolResults: {}, rejected: 0, lastRejection: "" };
const reject = (message) => {
  stats.rejected++;
  stats.lastRejection = message;
  return { status: 400, json: { error: { type: "invalid_request_error", message: `bench server: ${message}` } } };
};

// Node's server closes a keep-alive socket after 5 s idle; on a loaded machine a client can pick that socket for
// its next request just as it closes ("other side closed"). Real APIs keep sockets far longer: so does this one.
const createServer = http.createServer;
http.createServer = (...args) => {
  const created = createServer(...args);
  created.keepAliveTimeout = 0;
  return created;
};
syncBuiltinESMExports();

const server = await startMockProviderServer({
  respond(request) {
    const results = toolResults(request.family, request.body);
    if (!results) return reject(`unexpected ${request.method} ${request.path}`);
    const turn = results.length;
    if (turn > turns - 1) return reject(`${turn} tool results, the script has ${turns - 1}`);
    if (turn === turns - 1) {
      const wrong = results.findIndex((result) => !result.includes(expected));
      if (wrong >= 0) return reject(`tool result ${wrong + 1} lacks "${expected}": ${results[wrong].slice(0, 200)}`);
      stats.completed[request.family] = (stats.completed[request.family] ?? 0) + 1;
      stats.toolResults[request.family] = (stats.toolResults[request.family] ?? 0) + results.length;
    }
    const last = turn === turns - 1;
    if (request.family === "openai-chat") return { events: last ? chatTextTurn : chatToolTurn(turn) };
    if (request.family === "anthropic") return { events: last ? anthropicTextTurn : anthropicToolTurn(turn) };
    return { events: last ? geminiTextTurn : geminiToolTurn };
  },
});
// The server keeps every request it saw; in a long run that is megabytes of history nobody reads.
const forget = setInterval(() => server.requests.splice(0), 500);
forget.unref();

process.on("message", (message) => {
  if (message?.type === "stats") process.send?.({ type: "stats", stats });
});
process.send?.({ type: "ready", url: server.url });
process.on("disconnect", async () => {
  await server.close();
  process.exit(0);
});
