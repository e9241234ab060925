// A child process for team-roster.test.ts, bundled with esbuild by it (see roster-child-process.ts):
// - `worker <config>`: `runTeamWorker` with a RedisTeamRoster, a RedisTeamMailbox and a PostgresSessionStore, and a
//   scripted model. Every task calls `echo` once, then answers "done: <task>"; a task containing SLOW calls `slow`,
//   which prints TOOL_RUNNING and hangs (the parent SIGKILLs the process there). Each model response costs 100 input
//   and 10 output tokens and $0.001. SIGTERM aborts the worker, which must then end by itself.
// - `lead <config>`: a lead restarted in a new process: prints the roster's status and usage, and tries to record
//   an agent id that exists.
import { writeSync } from "node:fs";
import { createScriptedModel } from "@heddle/llms/testing";
import {
  type AgentMessage,
  type AgentModelRequest,
  type AgentTool,
  getMessageText,
  getToolCalls,
  getToolResults,
} from "@heddle/shared";
import {
  AgentTeamManager,
  PostgresSessionStore,
  RedisTeamMailbox,
  RedisTeamRoster,
  runTeamWorker,
} from "../../src/index.js";

const [mode, rawConfig] = process.argv.slice(2) as [string, string];
const say = (line: string) => writeSync(1, `${line}\n`);

interface Config {
  postgresUrl: string;
  schema: string;
  redisUrl: string;
  keyPrefix: string;
  teamId: string;
  workerId?: string;
  leaseMs?: number;
  maxTeammates?: number;
  existingId?: string;
}

const USAGE_PER_RESPONSE = { inputTokens: 100, outputTokens: 10, costUsd: 0.001 };

/** The task a request is about: the text of the last user message a mailbox message (or the first task) brought in. */
function taskOf(messages: AgentMessage[]): string {
  const turn = [...messages].reverse().find((m) => m.role === "user" && m.id.startsWith("team-turn-"));
  const text = turn ? getMessageText(turn) : "";
  return /<teammate_message[^>]*>\n([\s\S]*)\n<\/teammate_message>/.exec(text)?.[1] ?? text;
}

/** A request is valid when every tool call in it has its result in the message right after it. */
function danglingCalls(messages: AgentMessage[]): string[] {
  const dangling: string[] = [];
  messages.forEach((message, i) => {
    const answered = new Set(getToolResults(messages[i + 1] ?? message).map((r) => r.toolCallId));
    for (const call of getToolCalls(message)) if (!answered.has(call.toolCallId)) dangling.push(call.toolCallId);
  });
  return dangling;
}

function respond(request: AgentModelRequest) {
  const messages = request.messages;
  const dangling = danglingCalls(messages);
  if (dangling.length > 0) say(`INVALID_REQUEST ${JSON.stringify(dangling)}`);
  const last = messages[messages.length - 1]!;
  const task = taskOf(messages);
  if (last.role === "user" && last.id.startsWith("team-turn-")) {
    const name = task.includes("SLOW") ? "slow" : "echo";
    return {
      toolCalls: [{ id: `call_${name}_${messages.length}`, name, input: { text: task } }],
      usage: USAGE_PER_RESPONSE,
    };
  }
  return { text: `done: ${task}`, usage: USAGE_PER_RESPONSE };
}

function open(config: Config) {
  const { redisUrl: url, teamId, keyPrefix } = config;
  return {
    roster: new RedisTeamRoster({ url, teamId, keyPrefix }),
    mailbox: new RedisTeamMailbox({ url, teamId, keyPrefix, blockMs: 500 }),
    store: new PostgresSessionStore({ connectionString: config.postgresUrl, schema: config.schema }),
  };
}

async function worker(config: Config): Promise<void> {
  const { roster, mailbox, store } = open(config);
  const tools: AgentTool[] = [
    { name: "echo", description: "echo", inputSchema: { type: "object" }, execute: () => "echoed" },
    {
      name: "slow",
      description: "hangs",
      inputSchema: { type: "object" },
      execute: (_input, ctx) => {
        say(`TOOL_RUNNING ${ctx.agentId}`);
        return new Promise(() => {});
      },
    },
  ];
  const controller = new AbortController();
  process.once("SIGTERM", () => controller.abort());
  await store.listSessions(); // connected before it says it is ready
  say("READY");
  const task = (text: string | undefined) => text ?? "INITIAL";
  const result = await runTeamWorker({
    roster,
    mailbox,
    store,
    workerId: config.workerId!,
    leaseMs: config.leaseMs!,
    maxTeammates: config.maxTeammates!,
    model: createScriptedModel([respond], { whenExhausted: "repeat-last" }),
    tools,
    compaction: false,
    signal: controller.signal,
    onEvent: (event) => {
      const id = event.agentId;
      if (event.type === "lease-taken") say(`TAKEN ${id} prev=${event.previousWorkerId ?? ""}`);
      if (event.type === "lease-lost") say(`LOST ${id}`);
      if (event.type === "lease-released") say(`RELEASED ${id}`);
      if (event.type === "turn-started")
        say(`TURN_STARTED ${id} ${task(event.message?.text)} resumed=${event.resumed}`);
      if (event.type === "turn-recovered") say(`TURN_RECOVERED ${id} ${task(event.message?.text)}`);
      if (event.type === "turn-finished")
        say(`TURN_FINISHED ${id} ${task(event.message?.text)} ${JSON.stringify(event.result.usage)}`);
    },
  });
  for (const teammate of result.teammates) say(`STOPPED ${teammate.agentId} ${teammate.reason}`);
  await roster.close();
  await mailbox.close();
  await store.close();
  say("DONE");
}

async function lead(config: Config): Promise<void> {
  const { roster, mailbox, store } = open(config);
  const manager = new AgentTeamManager({ mailbox, store, roster, leadId: "lead" });
  say(`STATUS ${JSON.stringify(await manager.status())}`);
  say(`USAGE ${JSON.stringify(await manager.usage())}`);
  try {
    await manager.spawn({ agentId: config.existingId! }, "again");
    say("SPAWNED");
  } catch (error) {
    say(`SPAWN_ERROR ${(error as Error).name} ${(error as { code?: string }).code}`);
  }
  await roster.close();
  await mailbox.close();
  await store.close();
  say("DONE");
}

async function main(): Promise<void> {
  const config = JSON.parse(rawConfig) as Config;
  if (mode === "worker") return worker(config);
  if (mode === "lead") return lead(config);
  throw new Error(`unknown mode ${mode}`);
}

// On success the process must end by itself: a socket or timer left open would keep it alive.
main().catch((error) => {
  say(`ERROR ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
