// A Chat Completions server for the floor benchmark, run as its own Node process so its CPU is never counted in
// the parent's process.cpuUsage. Usage (as a child with an IPC channel):
//   node chat-server.mjs <argumentBytes> <fragments> <turns>
// Every request gets the turn decided from the request itself: a request that already carries K tool results is
// turn K; turns before the last stream one tool call whose arguments (exactly argumentBytes of JSON) arrive in
// `fragments` pieces, the last turn answers with text. Both clients under test send the same history shape, so
// both get the same bytes.
import { startMockProviderServer } from "../../packages/llms/dist/testing/index.js";

const [argumentBytes, fragments, turns] = process.argv.slice(2).map(Number);
if (!(argumentBytes >= 16 && fragments >= 1 && turns >= 1)) {
  console.error("chat-server: usage: chat-server.mjs <argumentBytes >= 16> <fragments >= 1> <turns >= 1>");
  process.exit(2);
}

/** `{"text":"..."}` padded to exactly `bytes` characters (ASCII, nothing to escape). */
function toolArguments(bytes) {
  const shell = '{"text":""}';
  const words = "lorem ipsum dolor sit amet ";
  return `{"text":"${words.repeat(Math.ceil(bytes / words.length)).slice(0, bytes - shell.length)}"}`;
}

/** Splits `text` into `count` pieces of near-equal length (the first ones one character longer). */
function split(text, count) {
  const pieces = [];
  const base = Math.floor(text.length / count);
  let extra = text.length % count;
  for (let offset = 0; offset < text.length; ) {
    const size = base + (extra-- > 0 ? 1 : 0);
    pieces.push(text.slice(offset, offset + size));
    offset += size;
  }
  return pieces;
}

const chunk = (delta, finish = null) => ({
  id: "chatcmpl-bench",
  object: "chat.completion.chunk",
  created: 1_764_000_000,
  model: "gpt-4o",
  system_fingerprint: "fp_bench",
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});
const usage = {
  id: "chatcmpl-bench",
  object: "chat.completion.chunk",
  created: 1_764_000_000,
  model: "gpt-4o",
  choices: [],
  usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
};

const pieces = split(toolArguments(argumentBytes), fragments);

// Framing is precomputed per turn number (the call id differs), so the server's own work stays small and equal.
function toolTurn(turn) {
  return [
    chunk({
      role: "assistant",
      content: null,
      tool_calls: [{ index: 0, id: `call_${turn}`, type: "function", function: { name: "note", arguments: "" } }],
    }),
    ...pieces.map((piece) => chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
    chunk({}, "tool_calls"),
    usage,
  ];
}
const textTurn = [
  chunk({ role: "assistant", content: "" }),
  ...Array.from({ length: 10 }, (_, i) => chunk({ content: `word${i} ` })),
  chunk({}, "stop"),
  usage,
];

const server = await startMockProviderServer({
  respond(request) {
    const messages = request.body?.messages;
    if (!Array.isArray(messages)) return { status: 400, json: { error: { message: "bench: no messages" } } };
    const turn = messages.filter((message) => message.role === "tool").length;
    return { events: turn < turns - 1 ? toolTurn(turn) : textTurn };
  },
});
// The server keeps every request it saw; in a long run that is megabytes of history nobody reads.
const forget = setInterval(() => server.requests.splice(0), 1000);
forget.unref();

process.send?.({ baseUrl: server.baseUrl("openai-chat") });
process.on("disconnect", async () => {
  await server.close();
  process.exit(0);
});
