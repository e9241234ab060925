import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import path from "node:path";
import { type AgentTool, createTool, HeddleError, setSafeTimeout } from "@heddle/shared";
import { RE2JS } from "re2js";
import { z } from "zod";
import type { Workspace } from "../workspace/index.js";
import { ToolInputError } from "../workspace/index.js";
import { walkWorkspaceFiles } from "./file-walk.js";
import { looksBinary } from "./read-file.js";
import { assertRegularFile, readRegularFile } from "./regular-file.js";

/** Options of the `search` tool. */
export interface SearchOptions {
  /**
   * Use ripgrep: `"auto"` (default) when `rg` is on PATH, `false` never, or a path to the binary. A named binary that
   * cannot run is not silently replaced: the JS search answers, and its output starts with a notice saying so.
   */
  ripgrep?: "auto" | false | string;
  /** Output lines kept (matches and context; default 200). */
  maxLines?: number;
  /** Longer lines are cut (default 400 characters). */
  maxLineChars?: number;
  /** Files larger than this are skipped by the JS search (default 1 MiB). */
  maxFileBytes?: number;
  /**
   * A search still running after this long is stopped with a `timeout` error (default 60 000 ms; `Infinity`: no
   * limit; past 2^31-1 ms it is clamped to that).
   */
  timeoutMs?: number;
}

/** The compiled pattern the JS search runs: `test` answers whether a line matches. */
export interface SearchPattern {
  test(line: string): boolean;
}

/**
 * Compiles a search pattern with RE2 (re2js, the pure-JavaScript port of Google's RE2), a linear-time engine: a JavaScript RegExp backtracks, and `(a+)+$` on a
 * line of a few dozen characters would block the event loop (and with it the tool's timeout and abort) for
 * minutes. RE2 has no backreferences or lookaround; a pattern that uses them is refused with `invalid_pattern`.
 * ripgrep's default engine is linear-time too and refuses the same features.
 */
export function compileSearchPattern(pattern: string): SearchPattern {
  try {
    const compiled = RE2JS.compile(pattern);
    return { test: (line) => compiled.matcher(line).find() };
  } catch (error) {
    throw new ToolInputError(
      "invalid_pattern",
      `Invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}. Search uses a ` +
        "linear-time engine (RE2 syntax): no backreferences (\\1) or lookaround ((?=...), (?<=...)).",
    );
  }
}

const inputSchema = z.object({
  pattern: z.string().min(1).describe("Regular expression (RE2 / ripgrep syntax: no backreferences or lookaround)."),
  path: z.string().optional().describe("File or folder to search, relative to the workspace root (default: root)."),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "**/*.ts".'),
  context: z.number().int().min(0).max(20).optional().describe("Lines of context around each match."),
});

/**
 * `search {pattern, path?, glob?, context?}`: a regex over workspace files, `path:line:text` per match. Runs
 * ripgrep when it is on PATH, else a JS search with the same rules (skips .git, node_modules, .gitignored, binary).
 * When `options.ripgrep` names a binary that cannot run, the output's first line is a notice saying so.
 */
export function createSearchTool(workspace: Workspace, options: SearchOptions = {}): AgentTool {
  const maxLines = options.maxLines ?? 200;
  const maxLineChars = options.maxLineChars ?? 400;
  const maxFileBytes = options.maxFileBytes ?? 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 60_000;
  let engine: Promise<SearchEngine> | undefined;
  return createTool({
    name: "search",
    description:
      "Search file contents with a regular expression. Output is `path:line:text` per matching line (context " +
      `lines use \`-\`). Skips .git, node_modules, .gitignored and binary files; at most ${maxLines} lines.`,
    input: inputSchema,
    readOnly: true,
    async execute(input, ctx) {
      const regex = compileSearchPattern(input.pattern);
      const target = await workspace.resolve(input.path ?? ".");
      const info = await stat(target).catch(() => undefined);
      if (!info) throw new ToolInputError("not_found", `Not found: ${workspace.display(target)}.`);
      if (!info.isDirectory()) assertRegularFile(info, workspace.display(target));
      engine ??= findRipgrep(options.ripgrep ?? "auto", maxFileBytes);
      const { ripgrep, notice } = await engine;
      // Nothing in a tool may run unbounded: one signal for the caller's abort and the search's own timeout.
      // (`AbortSignal.timeout` threw on Infinity and NaN and fired at once past 2^31-1 ms.)
      const timedOut = new AbortController();
      const timer = setSafeTimeout(() => timedOut.abort(), timeoutMs);
      const signal = AbortSignal.any([ctx.signal, timedOut.signal]);
      let lines: string[];
      try {
        lines = ripgrep
          ? await searchWithRipgrep(ripgrep, workspace, target, input, maxLines + 1, signal)
          : await searchWithJs(workspace, target, info.isDirectory(), regex, input, maxLines + 1, maxFileBytes, signal);
      } finally {
        timer.clear();
      }
      if (ctx.signal.aborted) throw new HeddleError("aborted", "Search aborted.");
      if (signal.aborted) {
        throw new ToolInputError("timeout", `Search stopped after ${timeoutMs} ms; narrow the pattern, path or glob.`);
      }
      const out = notice ? [notice] : [];
      if (lines.length === 0) out.push(`No matches for /${input.pattern}/.`);
      for (const line of lines.slice(0, maxLines)) {
        out.push(line.length > maxLineChars ? `${line.slice(0, maxLineChars)}…` : line);
      }
      if (lines.length > maxLines) out.push(`[output cut at ${maxLines} lines; narrow the pattern, path or glob]`);
      return out.join("\n");
    },
  });
}

type SearchInput = z.output<typeof inputSchema>;

async function searchWithJs(
  workspace: Workspace,
  target: string,
  isDir: boolean,
  regex: SearchPattern,
  input: SearchInput,
  limit: number,
  maxFileBytes: number,
  signal: AbortSignal,
): Promise<string[]> {
  const files = isDir
    ? await walkWorkspaceFiles(workspace, { dir: target, ...(input.glob !== undefined && { pattern: input.glob }) })
    : [workspace.display(target)];
  const context = input.context ?? 0;
  const out: string[] = [];
  for (const rel of files) {
    if (signal.aborted) return out;
    const real = path.join(workspace.root, rel);
    const info = await stat(real).catch(() => undefined);
    // The walk lists FIFOs, sockets and devices too: reading one would block.
    if (!info?.isFile() || info.size > maxFileBytes) continue;
    const bytes = await readRegularFile(real, rel, maxFileBytes).catch(() => undefined);
    if (!bytes || looksBinary(bytes)) continue;
    const lines = bytes.toString("utf8").split(/\r?\n/);
    let lastShown = -1;
    for (let i = 0; i < lines.length; i++) {
      if (!regex.test(lines[i]!)) continue;
      const from = Math.max(i - context, lastShown + 1);
      if (context > 0 && lastShown >= 0 && from > lastShown + 1) out.push("--");
      for (let j = from; j <= Math.min(lines.length - 1, i + context); j++) {
        if (j <= lastShown) continue;
        const sep = j === i || regex.test(lines[j]!) ? ":" : "-";
        out.push(`${rel}${sep}${j + 1}${sep}${lines[j]}`);
        lastShown = j;
        if (out.length >= limit) return out;
      }
    }
  }
  return out;
}

/** The engine a search tool runs: ripgrep at `ripgrep`, else the JS search, with `notice` when that was not asked for. */
interface SearchEngine {
  ripgrep?: string;
  notice?: string;
}

async function findRipgrep(setting: "auto" | false | string, maxFileBytes: number): Promise<SearchEngine> {
  if (setting === false) return {};
  const binary = setting === "auto" ? "rg" : setting;
  const problem = await whyBinaryCannotRun(binary);
  if (problem === undefined) return { ripgrep: binary };
  // "auto" means "ripgrep if installed": a machine without it just gets the JS search. A binary the user named is a
  // setting that is not being honoured, and the JS search's results differ (it skips large files), so say so.
  if (setting === "auto") return {};
  return {
    notice:
      `[ripgrep ${JSON.stringify(binary)} could not run (${problem}); searched with the built-in JS engine, ` +
      `which skips files over ${maxFileBytes} bytes]`,
  };
}

/** Runs `binary --version`: `undefined` when it works, else what went wrong. */
function whyBinaryCannotRun(binary: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(binary, ["--version"], { stdio: "ignore" });
    child.on("error", (error) => resolve(error.message));
    child.on("exit", (code, signal) => resolve(code === 0 ? undefined : `--version exited with ${code ?? signal}`));
  });
}

function searchWithRipgrep(
  rg: string,
  workspace: Workspace,
  target: string,
  input: SearchInput,
  limit: number,
  signal: AbortSignal,
): Promise<string[]> {
  const args = [
    "--line-number",
    "--no-heading",
    "--color",
    "never",
    "--hidden",
    "--no-require-git",
    // Sorted like the JS fallback, so the same search gives the same output (and a capped one the same head).
    "--sort",
    "path",
    "--glob",
    "!.git",
    "--glob",
    "!node_modules",
  ];
  if (input.context) args.push("--context", String(input.context));
  if (input.glob) args.push("--glob", input.glob);
  args.push("--regexp", input.pattern, "--", path.relative(workspace.root, target) || ".");
  return new Promise((resolve, reject) => {
    if (signal.aborted) return resolve([]);
    const child = spawn(rg, args, { cwd: workspace.root, stdio: ["ignore", "pipe", "pipe"] });
    // Not spawn's `signal` option: its AbortError would hide the lines found so far.
    const stop = () => child.kill("SIGKILL");
    signal.addEventListener("abort", stop, { once: true });
    const lines: string[] = [];
    let pending = "";
    let stderr = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      pending += chunk;
      const parts = pending.split("\n");
      pending = parts.pop()!;
      for (const line of parts) if (lines.length < limit) lines.push(line.startsWith("./") ? line.slice(2) : line);
      if (lines.length >= limit) child.kill();
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", (error) => {
      signal.removeEventListener("abort", stop);
      reject(error);
    });
    child.on("close", (code) => {
      signal.removeEventListener("abort", stop);
      if (pending && lines.length < limit) lines.push(pending);
      // 1 is "no match"; a kill after the cap is not an error either.
      if (code === 2 && lines.length === 0) {
        reject(new ToolInputError("invalid_pattern", `ripgrep failed: ${stderr.trim()}`));
      } else resolve(lines);
    });
  });
}
