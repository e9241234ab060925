import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import type { Writable } from "node:stream";
import { clampTimeoutMs, MAX_TIMEOUT_MS, setSafeTimeout } from "@heddle/shared";
import { killCommandTree, PROCESS_TOKEN_ENV } from "./process-tree.js";
import { type ResolvedSandbox, SANDBOX_SECCOMP_FD } from "./sandbox.js";

/** How to run one shell command. */
export interface ShellRunOptions {
  command: string;
  cwd: string;
  env: { [name: string]: string | undefined };
  /** Written to the command's stdin, which is then closed. */
  stdin?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes kept per stream: the first half and the last half of the output. */
  maxOutputBytes: number;
  onOutput?(stream: "stdout" | "stderr", text: string): void;
  /** Default `/bin/bash` when present, else `/bin/sh`. */
  shell?: string;
  /** After SIGTERM, whatever still runs gets SIGKILL this much later (default 1000 ms). */
  killGraceMs?: number;
  /** Run the shell under bubblewrap (see `resolveSandbox`). */
  sandbox?: ResolvedSandbox;
}

/** The longest delay a Node timer keeps. The same as `MAX_TIMEOUT_MS` from `@heddle/shared`, kept under this name. */
export const MAX_TIMER_MS = MAX_TIMEOUT_MS;

/** A timeout as a timer can hold it: `clampTimeoutMs` from `@heddle/shared`, kept under this name. */
export const clampTimerMs = clampTimeoutMs;

export interface ShellRunResult {
  /** `null` when the shell was ended by a signal. */
  exitCode: number | null;
  signal: string | null;
  /** stdout and stderr interleaved as they arrived, capped head + tail. */
  output: string;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
}

/** After the shell exits, background children may still hold its pipes: stop waiting for them this soon. */
const PIPE_DRAIN_MS = 150;

/**
 * Runs `command` in a real shell as the leader of its own process group. A timeout or an abort ends the command
 * and everything it started (a `sleep` in a pipeline, a dev server, a `setsid` child, one that ignores SIGTERM:
 * see `killCommandTree`), and the promise settles only once they are dead.
 */
export function runShellCommand(options: ShellRunOptions): Promise<ShellRunResult> {
  const started = Date.now();
  const shell = options.shell ?? defaultShell();
  const output = new HeadTailBuffer(options.maxOutputBytes);
  const stdout = new HeadTailBuffer(options.maxOutputBytes);
  const stderr = new HeadTailBuffer(options.maxOutputBytes);
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      resolve({
        exitCode: null,
        signal: null,
        output: "",
        stdout: "",
        stderr: "",
        timedOut: false,
        aborted: true,
        durationMs: 0,
      });
      return;
    }
    const token = randomBytes(12).toString("hex");
    const seccomp = options.sandbox?.seccomp;
    const argv = [shell, "-c", options.command];
    const [file, args] = options.sandbox
      ? [options.sandbox.bwrapPath, [...options.sandbox.args(), "--", ...argv]]
      : [shell, argv.slice(1)];
    let released = false;
    const releaseSandbox = () => {
      if (released) return;
      released = true;
      options.sandbox?.release?.();
    };
    const child = spawn(file, args, {
      cwd: options.cwd,
      // Debian's bash sources ~/.bashrc when stdin is a socket (Node's pipes are) and SHLVL is unset, taking it
      // for an rsh login: a set SHLVL keeps the command's shell plain. The token marks every process it starts.
      env: { SHLVL: "1", ...options.env, [PROCESS_TOKEN_ENV]: token },
      detached: true,
      // Without input to give, stdin is /dev/null so a command that reads it ends instead of hanging.
      // A network-less sandbox reads its seccomp filter from one more pipe (SANDBOX_SECCOMP_FD, after stdio).
      stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe", ...(seccomp ? ["pipe" as const] : [])],
    });
    if (seccomp) {
      const feed = child.stdio[SANDBOX_SECCOMP_FD] as Writable;
      // bubblewrap that fails before reading it closes the pipe: its own error and exit code say why.
      feed.on("error", () => {});
      feed.end(Buffer.from(seccomp));
    }
    let timedOut = false;
    let aborted = false;
    let finished = false;
    let killing: Promise<void> | undefined;
    const killGroup = () => {
      if (child.pid === undefined || killing) return;
      killing = killCommandTree(child.pid, token, options.killGraceMs ?? 1000);
    };
    // Infinity: no timer; past 2^31-1 ms: clamped, never the 1 ms Node would make of it.
    const timer = setSafeTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });

    const collect = (stream: "stdout" | "stderr", own: HeadTailBuffer) => (chunk: Buffer) => {
      own.push(chunk);
      output.push(chunk);
      options.onOutput?.(stream, chunk.toString("utf8"));
    };
    child.stdout!.on("data", collect("stdout", stdout));
    child.stderr!.on("data", collect("stderr", stderr));
    // A command that never reads its stdin closes the pipe early; that is not an error of ours.
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.stdin);

    let exit: { code: number | null; signal: string | null } | undefined;
    const finish = async () => {
      if (finished || !exit) return;
      finished = true;
      timer.clear();
      options.signal?.removeEventListener("abort", onAbort);
      child.stdout!.destroy();
      child.stderr!.destroy();
      // The result says every process was killed: wait until that is true.
      await killing;
      releaseSandbox();
      resolve({
        exitCode: exit.code,
        signal: exit.signal,
        output: output.text(),
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        aborted,
        durationMs: Date.now() - started,
      });
    };
    child.on("error", (error) => {
      releaseSandbox();
      timer.clear();
      options.signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      setTimeout(() => void finish(), PIPE_DRAIN_MS).unref();
    });
    child.on("close", () => void finish());
  });
}

/** Keeps the first and last `max / 2` bytes of a stream and counts what fell between. */
export class HeadTailBuffer {
  readonly #half: number;
  #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer = Buffer.alloc(0);
  #total = 0;

  constructor(maxBytes: number) {
    this.#half = Math.max(1, Math.floor(maxBytes / 2));
  }

  push(chunk: Buffer): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#half) {
      const take = rest.subarray(0, this.#half - this.#headBytes);
      this.#head.push(take);
      this.#headBytes += take.length;
      rest = rest.subarray(take.length);
    }
    if (rest.length === 0) return;
    const joined = Buffer.concat([this.#tail, rest]);
    this.#tail = joined.length > this.#half ? Buffer.from(joined.subarray(joined.length - this.#half)) : joined;
  }

  /** Bytes seen, including those dropped. */
  get totalBytes(): number {
    return this.#total;
  }

  text(): string {
    const head = Buffer.concat(this.#head).toString("utf8");
    const omitted = this.#total - this.#headBytes - this.#tail.length;
    const tail = this.#tail.toString("utf8");
    return omitted > 0 ? `${head}\n[… ${omitted} bytes of output omitted …]\n${tail}` : head + tail;
  }
}

let shellFound: string | undefined;

/** `/bin/bash` when the machine has it, else `/bin/sh`. */
export function defaultShell(): string {
  shellFound ??= existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
  return shellFound;
}
