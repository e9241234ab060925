import { emitKeypressEvents } from "node:readline";
import { createInterface, type Interface } from "node:readline/promises";
import type { AgentTelemetryOptions } from "@heddle/agents";
import type { McpConnection, SessionRuntime, SqliteSessionStore } from "@heddle/core";
import type { AgentModel, ToolApprovalDecision, ToolApprovalRequest } from "@heddle/shared";
import type { CliOptions } from "./args.js";
import { type HostConfig, LEAD_ID, startSession } from "./host.js";
import type { McpConfigSources, McpPersonLink } from "./mcp.js";
import { runTask } from "./print-mode.js";
import { describeCall, type TerminalRenderer } from "./render.js";
import type { SessionStorage } from "./session-store.js";
import { runSlashCommand } from "./slash-commands.js";
import { CliTeam } from "./team.js";
import { TeamView } from "./team-view.js";
import { keepOwnStyles, sanitizeForTerminal as safe } from "./terminal-text.js";
import { resolveFolderTrust } from "./trust.js";

export interface InteractiveContext {
  options: CliOptions;
  workspaceRoot: string;
  model: AgentModel;
  store: SqliteSessionStore;
  storage: SessionStorage;
  renderer: TerminalRenderer;
  mcp?: McpConnection;
  mcpSources?: McpConfigSources;
  /** Linked to this prompt, so MCP servers' forms and sampling requests are asked here. */
  mcpPerson?: McpPersonLink;
  telemetry?: AgentTelemetryOptions;
}

/** The state slash commands act on. */
export interface ReplState {
  session: SessionRuntime;
  config: HostConfig;
  store: SqliteSessionStore;
  renderer: TerminalRenderer;
  /** The sub-agents of this process, for `/team`. */
  team: TeamView;
  /** The teammates started with `/team spawn`. */
  teammates: CliTeam;
  /** Tools the person answered "always" for, this process. */
  alwaysAllow: Set<string>;
  mcpSources?: McpConfigSources;
  /** `--base-url`, kept for `/model` switches within the same provider. */
  baseUrl?: string;
  /** Replaces the current session (resume, fork, model switch). */
  switchTo(session: SessionRuntime): Promise<void>;
}

/** The interactive session: a prompt, streamed turns, approvals, slash commands, Esc/Ctrl-C to abort. */
export async function runInteractive(context: InteractiveContext): Promise<number> {
  const { renderer, store } = context;
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) });
  // Busy: a turn or a slash command (a compaction) runs. Lines typed meanwhile wait their turn in `queued`; only
  // Esc or Ctrl-C stops the work.
  let running = false;
  const queued: string[] = [];
  let lastInterrupt = 0;
  const alwaysAllow = new Set<string>();
  if (context.mcpPerson) {
    context.mcpPerson.ask = async (question) => {
      renderer.stopSpinner();
      renderer.endLine();
      return (await rl.question(renderer.yellow(question))).trim();
    };
  }

  const approve = async (request: ToolApprovalRequest): Promise<ToolApprovalDecision> => {
    const name = request.toolCall.toolName;
    if (alwaysAllow.has(name)) return { approved: true };
    renderer.stopSpinner();
    renderer.endLine();
    const call = { type: "tool-call" as const, ...request.toolCall };
    // A teammate's or sub-agent's call comes here too: the question says whose it is.
    const who = request.agentId && request.agentId !== LEAD_ID ? ` (for ${safe(request.agentId)})` : "";
    const question = `Allow ${safe(name)} ${describeCall(call)}${who}? ${APPROVAL_KEYS_HINT} `;
    const answer = process.stdin.isTTY
      ? await askApprovalKey(renderer, question)
      : await askApprovalLine(rl, renderer, question);
    if (answer === "cancel") {
      // Esc / Ctrl-C at the prompt: deny this call and stop the whole turn now, and say so now.
      renderer.line(renderer.yellow("the call is denied and the turn stops"));
      state.session.abort("approval cancelled");
      return { approved: false, reason: "The user cancelled the approval prompt and stopped the turn." };
    }
    if (answer === "always") {
      alwaysAllow.add(name);
      return { approved: true };
    }
    if (answer === "yes") return { approved: true };
    return { approved: false, reason: "The user declined this call." };
  };

  const config: HostConfig = {
    workspaceRoot: context.workspaceRoot,
    model: context.model,
    preset: context.options.preset,
    conventions: context.options.conventions,
    storage: context.storage,
    yes: context.options.yes,
    notice: (line) => renderer.notice(line),
    extraTools: () => teammates.tools(),
    ...(context.options.maxBudgetUsd !== undefined && { maxBudgetUsd: context.options.maxBudgetUsd }),
    ...(context.telemetry && { telemetry: context.telemetry }),
    approve: context.options.yes ? async () => ({ approved: true }) : approve,
    askUser: (question) => ask(rl, renderer.cyan(`? ${safe(question)}\n> `)),
    trustProject: () =>
      resolveFolderTrust({
        folder: context.workspaceRoot,
        trustFlag: context.options.trust,
        claude: context.options.conventions.claude,
        // Only a person at a terminal may grant trust: piped input ("y" in a script) must not.
        ...(process.stdin.isTTY && { ask: (question: string) => ask(rl, renderer.yellow(question)) }),
        notice: (line) => renderer.line(renderer.dim(line)),
      }),
    ...(context.mcp && { mcp: context.mcp }),
  };
  const teammates = new CliTeam({
    config: () => state.config,
    host: () => state.session.host,
    announce: (line) => announce(renderer.dim(line)),
  });
  const state: ReplState = {
    session: await startSession(config, store, context.options.resume),
    config,
    store,
    renderer,
    team: new TeamView(),
    teammates,
    alwaysAllow,
    ...(context.mcpSources && { mcpSources: context.mcpSources }),
    ...(context.options.baseUrl && { baseUrl: context.options.baseUrl }),
    async switchTo(session) {
      await state.session.close();
      state.session = session;
    },
  };

  renderer.line(
    renderer.dim(`heddle-code · ${context.model.provider}/${context.model.modelId} · ${context.workspaceRoot}`),
  );
  renderer.line(renderer.dim(`session ${state.session.id} · /help for commands · Esc or Ctrl-C stops a turn`));

  // Esc aborts a running turn. Keypress events only exist on a terminal.
  if (process.stdin.isTTY) {
    emitKeypressEvents(process.stdin);
    process.stdin.on("keypress", (_text, key: { name?: string } | undefined) => {
      if (key?.name === "escape" && running) state.session.abort("interrupted (Esc)");
    });
  }
  rl.on("SIGINT", () => {
    if (running) {
      state.session.abort("interrupted (Ctrl-C)");
      return;
    }
    const now = Date.now();
    if (now - lastInterrupt < 2000) {
      rl.close();
      return;
    }
    lastInterrupt = now;
    // The cursor is after the "› " prompt (readline's, unknown to the renderer): start a new line first.
    renderer.write(`\n${renderer.dim("(Ctrl-C again to exit)")}\n`);
    rl.prompt();
  });

  // A line about a teammate, arriving while the person may be typing at the prompt: printed above it, and the prompt
  // (with what was typed so far) drawn again.
  const announce = (line: string) => {
    if (running) return renderer.line(line);
    process.stdout.write("\r\x1b[2K");
    renderer.line(line);
    rl.prompt(true);
  };

  const closed = new Promise<void>((resolve) => rl.once("close", resolve));
  rl.setPrompt("› ");
  rl.prompt();
  // One line: a slash command or a turn. Returns true when the REPL should exit.
  const handle = async (line: string): Promise<boolean> => {
    running = true;
    try {
      if (line.startsWith("/")) {
        return await runSlashCommand(line, state).catch((error: Error) => {
          renderer.line(renderer.red(safe(`${error.name}: ${error.message}`)));
          return false;
        });
      }
      const result = await runTask(state.session, line, {
        json: false,
        renderer,
        onSubagent: (update) => state.team.record(update),
      });
      if (result.status === "aborted" && result.reason === "aborted") renderer.line(renderer.yellow("(turn stopped)"));
      if (result.reason === "hook_stop" && result.iterations === 0 && result.reasonDetail)
        renderer.line(renderer.yellow(`blocked by a UserPromptSubmit hook: ${safe(result.reasonDetail)}`));
      if (result.status === "failed" && result.error)
        renderer.line(renderer.red(`model error: ${safe(result.error.message)}`));
    } catch (error) {
      renderer.line(renderer.red(safe(`${(error as Error).name}: ${(error as Error).message}`)));
    } finally {
      running = false;
    }
    return false;
  };
  rl.on("line", async (raw) => {
    const line = raw.trim();
    if (line === "") return running ? undefined : rl.prompt();
    if (running) {
      // Typed while a turn or a compaction runs (approval answers are taken by rl.question): it waits its turn.
      queued.push(line);
      renderer.line(
        renderer.dim(`(queued: ${safe(line.length > 60 ? `${line.slice(0, 59)}…` : line)} — runs when this is done)`),
      );
      return;
    }
    let next: string | undefined = line;
    while (next !== undefined) {
      if (await handle(next)) return rl.close();
      next = queued.shift();
      if (next !== undefined) renderer.line(renderer.cyan(`› ${safe(next)}`));
    }
    rl.prompt();
  });
  await closed;
  await teammates.close();
  // The cursor may sit after the "› " prompt, which the renderer did not write: end the line so the shell's
  // prompt starts on its own.
  renderer.write("\n");
  await state.session.close();
  return 0;
}

const APPROVAL_KEYS_HINT = "[y]es / [n]o / [a]lways (one key; Esc cancels the turn):";
type ApprovalAnswer = "yes" | "no" | "always" | "cancel";
const APPROVAL_KEYS: Record<string, ApprovalAnswer> = { y: "yes", n: "no", a: "always" };

/**
 * One keypress answers: y, n or a. Esc and Ctrl-C cancel at once. Any other key says which keys work and waits.
 * While it waits, the keys go to this prompt only: readline's own listeners are set aside (so it neither echoes
 * the key into the next prompt's line nor turns Ctrl-C into its SIGINT) and put back afterwards.
 */
function askApprovalKey(renderer: TerminalRenderer, question: string): Promise<ApprovalAnswer> {
  const stdin = process.stdin;
  renderer.write(renderer.yellow(question));
  const others = stdin.listeners("keypress") as ((...args: unknown[]) => void)[];
  for (const listener of others) stdin.off("keypress", listener);
  return new Promise((resolve) => {
    const onKey = (text: string | undefined, key: { name?: string; ctrl?: boolean } | undefined) => {
      let answer: ApprovalAnswer | undefined;
      if (key?.name === "escape" || (key?.ctrl && key.name === "c")) answer = "cancel";
      else if (!key?.ctrl) answer = APPROVAL_KEYS[(text ?? "").toLowerCase()];
      if (!answer) {
        renderer.line(renderer.dim("press y, n or a (Esc cancels)"));
        renderer.write(renderer.yellow(question));
        return;
      }
      stdin.off("keypress", onKey);
      for (const listener of others) stdin.on("keypress", listener);
      renderer.write(`${answer === "cancel" ? "cancelled" : answer}\n`);
      resolve(answer);
    };
    stdin.on("keypress", onKey);
  });
}

/** Without a terminal (piped input) the answer is a line: y, n, a (or yes, no, always); anything else asks again. */
async function askApprovalLine(rl: Interface, renderer: TerminalRenderer, question: string): Promise<ApprovalAnswer> {
  for (;;) {
    const answer = await ask(rl, renderer.yellow(question));
    const found = APPROVAL_KEYS[answer] ?? (Object.values(APPROVAL_KEYS) as string[]).find((a) => a === answer);
    if (found) return found as ApprovalAnswer;
    renderer.line(renderer.dim("answer y, n or a"));
  }
}

/** readline writes the question itself, past the renderer: the same neutralizing applies (a folder's name too). */
async function ask(rl: Interface, question: string): Promise<string> {
  return (await rl.question(keepOwnStyles(question))).trim().toLowerCase();
}
