// A child process for the teams process tests: mailbox senders and drainers on one SQLite file, and a teammate
// that the parent SIGKILLs mid-turn and then resumes in a new process. Bundled with esbuild by the tests.
import { writeSync } from "node:fs";
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentTool, getMessageText, getToolResults } from "@heddle/shared";
import { AgentTeamManager, SqliteSessionStore, SqliteTeamMailbox } from "../../src/index.js";

const [mode, path, ...args] = process.argv.slice(2) as [string, string, ...string[]];
const say = (line: string) => writeSync(1, `${line}\n`);
const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

async function send(from: string, count: number, startAt: number): Promise<void> {
  const mailbox = new SqliteTeamMailbox({ path });
  await sleepUntil(startAt);
  for (let i = 0; i < count; i++) await mailbox.send({ to: "sink", from, text: `${from}-${i}` });
  await mailbox.close();
  say("DONE");
}

async function drain(agentId: string, startAt: number): Promise<void> {
  const mailbox = new SqliteTeamMailbox({ path, pollIntervalMs: 20 });
  say("READY");
  // Both drainers start at one moment and pace themselves, so on a loaded machine neither drains it all alone.
  await sleepUntil(startAt);
  while (true) {
    const message = await mailbox.dequeue(agentId);
    if (!message) {
      await mailbox.wait(agentId);
      continue;
    }
    if (message.text === "STOP") break;
    say(`GOT ${message.text}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await mailbox.close();
  say("DONE");
}

async function teammate(phase: "first" | "resume"): Promise<void> {
  const store = new SqliteSessionStore({ path });
  const mailbox = new SqliteTeamMailbox({ path, pollIntervalMs: 20 });
  const slow: AgentTool = {
    name: "slow",
    description: "hangs",
    inputSchema: { type: "object" },
    execute: () => {
      say("TOOL_RUNNING");
      return new Promise(() => {});
    },
  };
  const model = createScriptedModel(
    phase === "first"
      ? [{ toolCalls: [{ id: "call_slow", name: "slow", input: {} }] }]
      : [{ text: "first task finished after the restart" }, { text: "second task done" }],
  );
  const manager = new AgentTeamManager({ mailbox, store, model, tools: [slow], compaction: false });
  const runner = manager.createTeammate({ agentId: "worker" });
  for await (const event of runner.run()) {
    if (event.type === "turn-started") say(`TURN_STARTED ${event.message?.text} resumed=${event.resumed}`);
    if (event.type === "turn-finished") say(`TURN_FINISHED ${event.message?.text}`);
    if (event.type === "stopped") say(`STOPPED ${event.reason} ${(event.error as Error | undefined)?.stack ?? ""}`);
    if (event.type === "idle") {
      for (const request of model.requests) {
        const shape = request.messages.map((m) => ({
          role: m.role,
          text: getMessageText(m),
          results: getToolResults(m).map((r) => ({ id: r.toolCallId, isError: r.isError === true })),
        }));
        say(`REQUEST ${JSON.stringify(shape)}`);
      }
      say("IDLE");
      await manager.stopAll();
    }
  }
  await mailbox.close();
  await store.close();
  say("DONE");
}

async function main(): Promise<void> {
  if (mode === "send") return send(args[0]!, Number(args[1]), Number(args[2]));
  if (mode === "drain") return drain(args[0]!, Number(args[1]));
  if (mode === "teammate") return teammate(args[0] as "first" | "resume");
  throw new Error(`unknown mode ${mode}`);
}

// On success the process must end by itself: a timer or handle left open by the team would keep it alive.
main().catch((error) => {
  say(`ERROR ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
