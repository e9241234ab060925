// A child process for the scale-out tests, bundled with esbuild by them:
// - `worker <config>`: a teammate worker (`runTeamWorker`) on Redis + PostgreSQL with a scripted model. Every task
//   calls the `echo` tool once, then answers "done: <task>"; a task containing SLOW calls `slow`, which says
//   TOOL_RUNNING and hangs (the parent SIGKILLs the process there). SIGTERM aborts the worker: the process must
//   then end by itself, with nothing left open.
// - `append <config>`: appends to its own sessions and to one shared session, and prints what was acknowledged.
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
import { PostgresSessionStore, RedisTeamMailbox, runTeamWorker, SessionConflictError } from "../../src/index.js";

const [mode, rawConfig] = process.argv.slice(2) as [string, string];
const say = (line: string) => writeSync(1, `${line}\n`);

interface WorkerConfig {
  postgresUrl: string;
  schema: string;
  redisUrl: string;
  keyPrefix: string;
  teamId: string;
  consumer: string;
  agentId: string;
}

/** The task a request is about: the text of the last user message a mailbox message brought in. */
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
    return { toolCalls: [{ id: `call_${name}_${messages.length}`, name, input: { text: task } }] };
  }
  return { text: `done: ${task}` };
}

async function worker(config: WorkerConfig): Promise<void> {
  const mailbox = new RedisTeamMailbox({
    url: config.redisUrl,
    teamId: config.teamId,
    keyPrefix: config.keyPrefix,
    // The worker's stable identity: restarted under the same name, it takes its own pending messages back at once.
    consumer: config.consumer,
    blockMs: 500,
  });
  const store = new PostgresSessionStore({ connectionString: config.postgresUrl, schema: config.schema });
  const tools: AgentTool[] = [
    { name: "echo", description: "echo", inputSchema: { type: "object" }, execute: () => "echoed" },
    {
      name: "slow",
      description: "hangs",
      inputSchema: { type: "object" },
      execute: () => {
        say("TOOL_RUNNING");
        return new Promise(() => {});
      },
    },
  ];
  const model = createScriptedModel([respond], { whenExhausted: "repeat-last" });
  const controller = new AbortController();
  process.once("SIGTERM", () => controller.abort());
  const result = await runTeamWorker({
    mailbox,
    store,
    teamId: config.teamId,
    model,
    tools,
    compaction: false,
    teammates: [{ agentId: config.agentId, autoApproveShutdown: true }],
    signal: controller.signal,
    onEvent: (event) => {
      if (event.type === "teammate-started") say(`STARTED resumed=${event.resumed}`);
      if (event.type === "turn-started") say(`TURN_STARTED ${event.message?.text} resumed=${event.resumed}`);
      if (event.type === "turn-recovered") say(`TURN_RECOVERED ${event.message?.text}`);
      if (event.type === "idle") say("IDLE");
    },
  });
  for (const teammate of result.teammates)
    say(`STOPPED ${teammate.agentId} ${teammate.reason} ${teammate.error ?? ""}`);
  await mailbox.close();
  await store.close();
  say("DONE");
}

interface AppendConfig {
  postgresUrl: string;
  schema: string;
  sessions: string[];
  perSession: number;
  shared: string;
  sharedCount: number;
  tag: string;
  startAt: number;
}

const message = (id: string, i: number): AgentMessage => ({
  id,
  role: i % 2 ? "assistant" : "user",
  content: [{ type: "text", text: `${id} ${"lorem ipsum ".repeat(10)}` }],
  createdAt: Date.now(),
});

async function append(config: AppendConfig): Promise<void> {
  const store = new PostgresSessionStore({ connectionString: config.postgresUrl, schema: config.schema });
  await store.getSession(config.shared); // connect (and migrate) before the common start
  say("READY");
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, config.startAt - Date.now())));
  let conflicts = 0;
  const own = config.sessions.map(async (sessionId) => {
    let acked = 0;
    for (let i = 0; i < config.perSession; i++) {
      await store.appendMessage(sessionId, message(`${sessionId}-m${i}`, i));
      acked++;
    }
    say(`ACKED ${sessionId} ${acked}`);
  });
  // Every process appends to the shared session too: each append names the head it read, and a conflict (another
  // process got there first) means read the head again and retry, never a silent branch.
  const shared = (async () => {
    const acked: string[] = [];
    for (let i = 0; i < config.sharedCount; i++) {
      const id = `${config.tag}-s${i}`;
      for (;;) {
        const head = (await store.getSession(config.shared))!.headMessageId;
        try {
          await store.appendMessage(config.shared, message(id, i), { parentId: head });
          acked.push(id);
          break;
        } catch (error) {
          if (!(error instanceof SessionConflictError)) throw error;
          conflicts++;
        }
      }
    }
    say(`SHARED ${JSON.stringify(acked)}`);
  })();
  await Promise.all([...own, shared]);
  say(`CONFLICTS ${conflicts}`);
  await store.close();
  say("DONE");
}

async function main(): Promise<void> {
  if (mode === "worker") return worker(JSON.parse(rawConfig) as WorkerConfig);
  if (mode === "append") return append(JSON.parse(rawConfig) as AppendConfig);
  throw new Error(`unknown mode ${mode}`);
}

// On success the process must end by itself: a socket or timer left open would keep it alive.
main().catch((error) => {
  say(`ERROR ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
