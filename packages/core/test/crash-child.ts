// A child process for the crash tests: it runs a session turn (or a write loop) on a SQLite file and reports
// on stdout where it is, so the parent can SIGKILL it at a chosen point. Bundled with esbuild by the test.
import { writeSync } from "node:fs";
import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentModel, AgentTool } from "@heddle/shared";
import { userMessage } from "@heddle/shared";
import { createSession, SqliteSessionStore } from "../src/index.js";

const [mode, path, sessionId] = process.argv.slice(2) as [string, string, string];
const say = (line: string) => writeSync(1, `${line}\n`);
const hang = () => new Promise<never>(() => {});

async function main(): Promise<void> {
  const store = new SqliteSessionStore({ path });
  if (mode === "append-loop") {
    // Appends as fast as it can and acknowledges each append once it resolved (committed).
    if (!(await store.getSession(sessionId))) await store.createSession({ id: sessionId });
    const count = Number(process.argv[5] ?? Number.POSITIVE_INFINITY);
    for (let i = 0; i < count; i++) {
      await store.appendMessage(sessionId, userMessage(`${sessionId} message ${i} ${"x".repeat(200)}`));
      say(`ACK ${i}`);
    }
    say("DONE");
    return;
  }
  const slowTool: AgentTool = {
    name: "slow",
    description: "hangs",
    inputSchema: { type: "object" },
    execute: () => {
      say("TOOL_RUNNING");
      return hang();
    },
  };
  const model = createScriptedModel([
    { toolCalls: [{ id: "call_1", name: "slow", input: { step: 1 } }] },
    { text: "word ".repeat(400), delayMs: 5 },
  ]);
  // Streams text deltas until killed: the kill always lands mid-stream, however slow the machine is.
  const streamingFirst: AgentModel = {
    provider: "child",
    modelId: "endless",
    async *stream() {
      while (true) {
        yield { type: "text-delta", text: "word " };
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
  const session = await createSession({
    store,
    id: sessionId,
    model: mode === "streaming" ? streamingFirst : model,
    tools: [slowTool],
    compaction: false,
  });
  let saved = 0;
  session.subscribe((event) => {
    if (event.type === "assistant-text-delta" && mode === "streaming") say("STREAMING");
    if (event.type === "session-saved") {
      saved++;
      say(`SAVED ${saved} ${event.messageId}`);
      // Block the event loop right after the 1st write: the kill lands between two message writes.
      if (mode === "between-writes" && saved === 1) {
        say("BETWEEN_WRITES");
        while (true) {}
      }
    }
  });
  await session.send("start the work");
  await hang();
}

main().catch((error) => {
  say(`ERROR ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
