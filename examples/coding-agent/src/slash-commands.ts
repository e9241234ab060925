import { defaultToolPolicies } from "@heddle/core";
import { getMessageText } from "@heddle/shared";
import { promptParts, startSession } from "./host.js";
import type { ReplState } from "./interactive.js";
import { describeMcpServers } from "./mcp.js";
import { resolveModel } from "./provider.js";
import { formatUsage, formatUsd } from "./render.js";
import { describePrompt } from "./system-prompt.js";
import { runTeamCommand } from "./team-commands.js";
import { sanitizeForTerminal as safe } from "./terminal-text.js";

const HELP = `Commands:
  /model [provider/model]   show the model, or switch to another (the session keeps its history)
  /sessions                 list the sessions stored for this workspace
  /resume <id>              continue a stored session
  /fork                     continue in a new session that branches from here
  /rewind [n]               undo the last n turns (default 1), the first one too: transcript and files
  /cost                     tokens and cost of this session, per model
  /compact                  compact the working context now (Esc stops it; what you type meanwhile waits)
  /expand                   the whole output of the last command (bash output is shown collapsed)
  /system-prompt            the system prompt: which AGENTS.md / CLAUDE.md files and skills it holds
  /tools                    the tools and whether they ask first
  /team                     teammates (role, state, unread) and the sub-agents of this process
  /team spawn <name>[:<role>] <task>   start a teammate on a task (it runs under this session's policy)
  /team send <name> <text>  message a teammate; /team stop [name] stops one or all
  /mcp                      MCP servers: status and tools
  /help                     this list
  /exit                     leave (Ctrl-C twice does too)`;

/** Runs one slash command. Returns true when the REPL should exit. */
export async function runSlashCommand(line: string, state: ReplState): Promise<boolean> {
  const [command = "", ...args] = line.slice(1).split(/\s+/).filter(Boolean);
  const { renderer } = state;
  switch (command) {
    case "help":
      renderer.line(HELP);
      return false;
    case "exit":
    case "quit":
      return true;
    case "model": {
      if (args.length === 0) {
        renderer.line(`${state.config.model.provider}/${state.config.model.modelId}`);
        return false;
      }
      const [provider, ...rest] = (args[0] ?? "").split("/");
      // A --base-url names the current provider's server: it carries over only while the provider stays.
      const sameProvider = provider === state.config.model.provider;
      const model = resolveModel({
        ...(provider && { provider }),
        ...(rest.length > 0 && { model: rest.join("/") }),
        ...(sameProvider && state.baseUrl && { baseUrl: state.baseUrl }),
      });
      state.config = { ...state.config, model };
      await state.switchTo(await reopen(state));
      renderer.line(`model: ${model.provider}/${model.modelId}`);
      return false;
    }
    case "sessions": {
      const sessions = await state.store.listSessions();
      if (sessions.length === 0) renderer.line("no sessions yet");
      const now = Date.now();
      for (const s of sessions) {
        const mark = s.id === state.session.id ? "*" : " ";
        const about = s.title ?? (await firstPrompt(state, s.id)) ?? "(no prompt yet)";
        renderer.line(
          `${mark} ${s.id}  ${formatAge(now - s.updatedAt).padEnd(8)} ${formatUsd(s.usage?.costUsd ?? 0)}  ${truncate(about, 60)}`,
        );
      }
      return false;
    }
    case "resume": {
      const id = args[0];
      if (!id) {
        renderer.line("usage: /resume <session id> (see /sessions)");
        return false;
      }
      await state.session.close();
      state.session = await startSession(state.config, state.store, id);
      renderer.line(`resumed ${id} (${(await state.session.history()).length} messages)`);
      return false;
    }
    case "fork": {
      const history = await state.session.history();
      const head = history.at(-1);
      if (!head) {
        renderer.line("nothing to fork yet");
        return false;
      }
      const forked = await state.session.fork(head.id);
      await state.switchTo(await reopen(state, forked.id));
      await forked.close();
      renderer.line(`forked into ${state.session.id}`);
      return false;
    }
    case "rewind": {
      const turns = Math.max(1, Number(args[0] ?? 1) || 1);
      const history = await state.session.history();
      const userTurns = history
        .map((m, i) => ({ m, i }))
        .filter(({ m }) => m.role === "user" && !(m.metadata?.heddle as { kind?: string } | undefined)?.kind);
      const target = userTurns.at(-turns);
      if (!target) {
        renderer.line(
          userTurns.length === 0 ? "nothing to rewind yet" : `there are only ${userTurns.length} turn(s) to undo`,
        );
        return false;
      }
      // The first turn has nothing before it: the session goes back to empty (its files too).
      const before = history[target.i - 1];
      const result = await state.session.rewind(before ? before.id : null, { files: true });
      renderer.line(`rewound ${turns} turn(s): "${getMessageText(target.m).slice(0, 60)}" and after are undone`);
      for (const file of result.files)
        renderer.line(renderer.dim(`  ${file.action === "delete" ? "removed" : "restored"} ${file.path}`));
      return false;
    }
    case "cost": {
      const usage = await state.session.usage();
      renderer.line(`session: ${formatUsage(usage.total)}`);
      for (const [model, u] of Object.entries(usage.byModel))
        renderer.line(renderer.dim(`  ${model}: ${formatUsage(u)}`));
      return false;
    }
    case "compact": {
      const history = await state.session.history();
      const done = renderer.progress(`compacting the working context (${history.length} messages)…`);
      const result = await state.session.compact().finally(done);
      if (result.compacted) {
        renderer.line(
          `working context compacted: ~${result.tokensBefore} → ~${result.tokensAfter} tokens (the stored transcript stays whole)`,
        );
        // A summary has a floor of its own: on a short context it can be longer than what it replaces.
        if ((result.tokensAfter ?? 0) >= result.tokensBefore)
          renderer.line(
            renderer.dim(
              "  it grew: the summary is longer than this short context; compaction pays off on long sessions",
            ),
          );
      } else
        renderer.line(
          `not compacted: ${result.error ?? (result.skipped ? "a PreCompact hook skipped it" : "nothing to do")}`,
        );
      return false;
    }
    case "expand":
      renderer.expandLast();
      return false;
    case "system-prompt":
      for (const line of describePrompt(promptParts(state.config))) renderer.line(safe(line));
      return false;
    case "team":
      await runTeamCommand(args, line, state);
      return false;
    case "tools": {
      const policies = defaultToolPolicies(state.config.preset);
      for (const [name, policy] of Object.entries(policies)) {
        const how =
          policy.enabled === false
            ? "off"
            : policy.autoApprove
              ? "runs"
              : state.alwaysAllow.has(name)
                ? "runs (always)"
                : "asks";
        renderer.line(`  ${name.padEnd(14)} ${how}`);
      }
      // MCP tools have no policy of their own: they ask first unless answered "always" (or --yes).
      for (const tool of state.config.mcp?.tools() ?? []) {
        const how = state.alwaysAllow.has(tool.name) ? "runs (always)" : "asks";
        renderer.line(`  ${tool.name.padEnd(14)} ${how}  (MCP server ${tool.mcp.server})`);
      }
      return false;
    }
    case "mcp": {
      for (const line of describeMcpServers(state.config.mcp, state.mcpSources)) renderer.line(line);
      return false;
    }
    default:
      renderer.line(`unknown command /${command}; /help lists them`);
      return false;
  }
}

/** The first thing the person typed in a session (not a host-injected message). */
async function firstPrompt(state: ReplState, sessionId: string): Promise<string | undefined> {
  const history = await state.store.getHistory(sessionId);
  const first = history.find((m) => m.role === "user" && !(m.metadata?.heddle as { kind?: string } | undefined)?.kind);
  return first ? getMessageText(first).replace(/\s+/g, " ").trim() : undefined;
}

/** "just now", "5m ago", "3h ago", "2d ago". */
export function formatAge(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function reopen(state: ReplState, id = state.session.id) {
  return startSession(state.config, state.store, id);
}
