import type { SubagentUpdate } from "@heddle/core";
import type { AgentRunResult, AgentUsage, ToolCallPart, ToolResultPart } from "@heddle/shared";
import { toolOutputText } from "@heddle/shared";
import { keepOwnStyles, sanitizeForTerminal as safe } from "./terminal-text.js";

/** Where the renderer writes, and whether it may use colour and redraw lines. */
export interface RenderTarget {
  write(text: string): void;
  color: boolean;
  /** Spinners redraw the current line: only on a terminal. */
  tty: boolean;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** A command's output under its line: at most this many lines (the first and the last), the rest on `/expand`. */
const OUTPUT_HEAD = 2;
const OUTPUT_TAIL = 6;
/** Each shown line is cut here (a minified file on one line must not flood the screen). */
const OUTPUT_LINE_CHARS = 200;
/** `/expand` prints at most this many lines (the tool's own output is capped too). */
const EXPAND_LINES = 2000;

/**
 * Renders one session's events for a person: streamed text, dimmed reasoning, one line per tool call, diffs.
 * Everything from the model, tools, files and servers is passed through `sanitizeForTerminal` before it is styled,
 * and `write` (every line goes through it) neutralizes any control character but the renderer's own colours.
 */
export class TerminalRenderer {
  #spinner: ReturnType<typeof setInterval> | undefined;
  #spinnerLine = "";
  #atLineStart = true;
  #inReasoning = false;
  /** The last command's whole output, for `/expand`. */
  #lastOutput: { label: string; lines: string[] } | undefined;

  constructor(private readonly out: RenderTarget) {}

  dim = (s: string) => this.#style(s, 2);
  red = (s: string) => this.#style(s, 31);
  green = (s: string) => this.#style(s, 32);
  yellow = (s: string) => this.#style(s, 33);
  cyan = (s: string) => this.#style(s, 36);

  #style(text: string, code: number): string {
    return this.out.color ? `\x1b[${code}m${text}\x1b[0m` : text;
  }

  /** Writes text, keeping track of whether the cursor is at a line start. No control sequence but its colours. */
  write(text: string): void {
    if (text.length === 0) return;
    this.stopSpinner();
    this.out.write(keepOwnStyles(text));
    this.#atLineStart = text.endsWith("\n");
  }

  line(text = ""): void {
    this.endLine();
    this.write(`${text}\n`);
  }

  endLine(): void {
    if (this.#inReasoning) this.#inReasoning = false;
    if (!this.#atLineStart) this.write("\n");
  }

  text(delta: string): void {
    if (this.#inReasoning) {
      this.#inReasoning = false;
      this.endLine();
    }
    this.write(safe(delta));
  }

  reasoning(delta: string): void {
    if (!this.#inReasoning) {
      this.endLine();
      this.#inReasoning = true;
      // Without colour, dimming cannot set reasoning apart: label it instead.
      if (!this.out.color) this.write("(thinking) ");
    }
    this.write(this.dim(safe(delta)));
  }

  toolStarted(call: ToolCallPart): void {
    this.endLine();
    this.#spinnerLine = `${safe(call.toolName)} ${describeCall(call)}`;
    if (!this.out.tty) {
      this.write(`${this.dim("…")} ${this.#spinnerLine}\n`);
      return;
    }
    let frame = 0;
    const draw = () => this.out.write(`\r\x1b[2K${this.cyan(SPINNER[frame++ % SPINNER.length]!)} ${this.#spinnerLine}`);
    draw();
    this.#spinner = setInterval(draw, 80);
    this.#spinner.unref?.();
  }

  toolFinished(call: ToolCallPart, result: ToolResultPart, durationMs: number): void {
    this.stopSpinner();
    const output = toolOutputText(result.output);
    const mark = this.#mark(call, output, result.isError);
    const seconds = durationMs >= 1000 ? ` ${(durationMs / 1000).toFixed(1)}s` : "";
    this.write(
      `${mark} ${safe(call.toolName)} ${describeCall(call)} ${this.dim(`— ${outcome(call, output, result.isError)}${seconds}`)}\n`,
    );
    if (!result.isError && (call.toolName === "edit_file" || call.toolName === "write_file")) this.diff(output);
    if (call.toolName === "bash") this.commandOutput(call, output);
  }

  /**
   * A command's output under its line, collapsed: its first and last lines, each cut to 200 characters, and how
   * many more there are; `/expand` prints the whole of the last one.
   */
  commandOutput(call: ToolCallPart, output: string): void {
    const lines = safe(output)
      .replace(/^(Exit code \d+|Killed by signal \S+)\n/, "")
      .split("\n");
    while (lines.length > 0 && lines.at(-1)!.trim() === "") lines.pop();
    if (lines.length === 1 && lines[0] === "(no output)") return;
    this.#lastOutput = { label: `${safe(call.toolName)} ${describeCall(call)}`, lines };
    const cut = (line: string) => (line.length > OUTPUT_LINE_CHARS ? `${line.slice(0, OUTPUT_LINE_CHARS - 1)}…` : line);
    const shown =
      lines.length <= OUTPUT_HEAD + OUTPUT_TAIL + 1
        ? lines
        : [
            ...lines.slice(0, OUTPUT_HEAD),
            `… ${lines.length - OUTPUT_HEAD - OUTPUT_TAIL} more lines${this.out.tty ? " (/expand shows all)" : ""}`,
            ...lines.slice(-OUTPUT_TAIL),
          ];
    for (const line of shown) this.write(`    ${this.dim(cut(line))}\n`);
  }

  /** `/expand`: the whole output of the last command (up to 2000 lines). */
  expandLast(): void {
    const last = this.#lastOutput;
    if (!last) {
      this.line("no command output yet");
      return;
    }
    this.line(this.dim(`${last.label} — ${last.lines.length} lines:`));
    for (const line of last.lines.slice(-EXPAND_LINES)) this.write(`    ${line}\n`);
    if (last.lines.length > EXPAND_LINES)
      this.line(this.dim(`(the first ${last.lines.length - EXPAND_LINES} lines are left out)`));
  }

  /**
   * A line that says something is under way, with the seconds it has taken (redrawn on a terminal); the returned
   * function ends it.
   */
  progress(label: string): () => void {
    this.endLine();
    const started = Date.now();
    if (!this.out.tty) {
      this.write(`${this.dim("…")} ${label}\n`);
      return () => {};
    }
    let frame = 0;
    const draw = () => {
      const seconds = Math.floor((Date.now() - started) / 1000);
      this.out.write(
        `\r\x1b[2K${this.cyan(SPINNER[frame++ % SPINNER.length]!)} ${label} ${this.dim(`${seconds}s · Esc stops it`)}`,
      );
    };
    draw();
    this.#spinner = setInterval(draw, 80);
    this.#spinner.unref?.();
    return () => this.stopSpinner();
  }

  diff(output: string): void {
    const lines = safe(output)
      .split("\n")
      .filter((l) => /^(@@|[+-](?![+-]{2}))/.test(l));
    for (const l of lines.slice(0, 40)) {
      this.write(`    ${l.startsWith("+") ? this.green(l) : l.startsWith("-") ? this.red(l) : this.cyan(l)}\n`);
    }
    if (lines.length > 40) this.write(this.dim(`    … ${lines.length - 40} more diff lines\n`));
  }

  /** One sub-agent event, indented under the lead's `spawn_agent` call: its start, its tools, its end. */
  subagent(update: SubagentUpdate): void {
    const { event } = update;
    const indent = "  ".repeat(update.depth);
    if (event.type === "run-started") this.line(this.dim(`${indent}⤷ sub-agent: ${safe(update.description)}`));
    else if (event.type === "tool-finished") {
      const output = toolOutputText(event.result.output);
      const mark = this.#mark(event.toolCall, output, event.result.isError);
      this.line(
        `${indent}${mark} ${safe(event.toolCall.toolName)} ${describeCall(event.toolCall)} ${this.dim(`— ${outcome(event.toolCall, output, event.result.isError)}`)}`,
      );
    }
  }

  /** ✗ for a failed call, and for a command that ran but exited non-zero (a failing test run is a failure). */
  #mark(call: ToolCallPart, output: string, isError: boolean | undefined): string {
    const exit = call.toolName === "bash" ? bashExitCode(output) : undefined;
    const failedCommand =
      exit !== undefined ? exit !== 0 : call.toolName === "bash" && /^Killed by signal/.test(output);
    return isError || failedCommand ? this.red("✗") : this.green("✓");
  }

  notice(message: string): void {
    this.line(this.yellow(`! ${safe(message)}`));
  }

  stopSpinner(): void {
    if (!this.#spinner) return;
    clearInterval(this.#spinner);
    this.#spinner = undefined;
    this.out.write("\r\x1b[2K");
    this.#atLineStart = true;
  }

  /** The token and cost line after a turn. */
  turnSummary(result: AgentRunResult, sessionCostUsd?: number): void {
    this.endLine();
    // "aborted (aborted)" says nothing twice: the reason shows only when it adds something.
    const status =
      result.status === "completed"
        ? ""
        : result.reason === result.status
          ? ` · ${result.status}`
          : ` · ${result.status} (${safe(result.reason)})`;
    const session = sessionCostUsd !== undefined ? ` · session ${formatUsd(sessionCostUsd)}` : "";
    this.line(this.dim(`↳ ${formatUsage(result.usage)}${session}${status}`));
  }
}

export function formatUsage(usage: AgentUsage): string {
  const n = (v: number) => v.toLocaleString("en-US");
  const cache =
    usage.cacheReadTokens || usage.cacheWriteTokens
      ? ` · cache ${n(usage.cacheReadTokens)}r/${n(usage.cacheWriteTokens)}w`
      : "";
  return `${n(usage.inputTokens)} in · ${n(usage.outputTokens)} out${cache} · ${formatUsd(usage.costUsd)}`;
}

export function formatUsd(usd: number): string {
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

/** A short description of a call's input for its one line, safe to print (the model chose every byte of it). */
export function describeCall(call: ToolCallPart): string {
  const input = (call.input ?? {}) as Record<string, unknown>;
  if (call.toolName === "submit_result") return "";
  const pick = input.command ?? input.path ?? input.pattern ?? input.name ?? input.question ?? input.description;
  const text = typeof pick === "string" ? pick : JSON.stringify(input);
  return truncate(safe(text).replace(/\s+/g, " "), 70);
}

/** The end of a call's line: from the tool's output, so sanitized. */
function outcome(call: ToolCallPart, output: string, isError: boolean | undefined): string {
  return safe(rawOutcome(call, output, isError));
}

function rawOutcome(call: ToolCallPart, output: string, isError: boolean | undefined): string {
  if (isError) return truncate(output.split("\n")[0] ?? "failed", 90);
  switch (call.toolName) {
    case "bash": {
      const exit = bashExitCode(output);
      if (exit !== undefined) return `exit ${exit}`;
      return /^Killed by signal (\S+)/.exec(output)?.[0].toLowerCase() ?? "done";
    }
    case "read_file":
      return `${output.split("\n").length} lines`;
    case "submit_result":
      return "submitted";
    default:
      return truncate(output.split("\n")[0] ?? "", 60);
  }
}

/** The bash tool's result starts with `Exit code N` (or `Killed by signal S`, which has no code). */
export function bashExitCode(output: string): number | undefined {
  const match = /^Exit code (\d+)/.exec(output);
  return match ? Number(match[1]) : undefined;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
