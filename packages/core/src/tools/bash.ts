import { type AgentTool, createTool, HeddleError } from "@heddle/shared";
import { z } from "zod";
import type { ResolvedSandbox } from "../process/index.js";
import { defaultShell, runShellCommand } from "../process/index.js";
import type { Workspace } from "../workspace/index.js";
import { ToolInputError } from "../workspace/index.js";

/** Options of the `bash` tool. */
export interface BashToolOptions {
  /** Names of environment variables passed through from this process (default `DEFAULT_BASH_ENV`). */
  envAllowlist?: string[];
  /** Variables set for every command, on top of the allowlisted ones. */
  env?: { [name: string]: string };
  /** Default timeout (default 120 000 ms). */
  timeoutMs?: number;
  /** Largest `timeout_ms` the model may ask for (default 600 000 ms). */
  maxTimeoutMs?: number;
  /** Output kept: the first and last halves of this many bytes (default 30 000). */
  maxOutputBytes?: number;
  /** The shell binary (default `/bin/bash`, else `/bin/sh`). */
  shell?: string;
}

/** Variables a command gets by default: enough for tools to work, nothing secret by accident. */
export const DEFAULT_BASH_ENV = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TERM",
  "TMPDIR",
  "TZ",
];

const inputSchema = z.object({
  command: z.string().min(1).describe("The shell command to run (bash), in the workspace root."),
  timeout_ms: z.number().int().positive().optional().describe("Timeout in milliseconds."),
});

/**
 * `bash {command, timeout_ms?}`: runs in a real shell with the workspace root as cwd and an allowlisted
 * environment. Without `sandbox` it is confined by tool policy and approval only (it can write `.heddle/` and
 * anything the user can); with one it runs under bubblewrap. A non-zero exit is a normal result that states the
 * code; a timeout or an abort kills every process the command started before the tool returns.
 */
export function createBashTool(
  workspace: Workspace,
  options: BashToolOptions = {},
  sandbox?: ResolvedSandbox,
): AgentTool {
  const defaultTimeout = options.timeoutMs ?? 120_000;
  const maxTimeout = Math.max(defaultTimeout, options.maxTimeoutMs ?? 600_000);
  const maxOutputBytes = options.maxOutputBytes ?? 30_000;
  const shell = options.shell ?? defaultShell();
  const allow = options.envAllowlist ?? DEFAULT_BASH_ENV;
  return createTool({
    name: "bash",
    description:
      "Run a shell command (bash) in the workspace root and get its exit code and output (stdout and stderr " +
      `together; long output keeps its start and end). Default timeout ${defaultTimeout} ms, at most ` +
      `${maxTimeout} ms. Each call is a fresh shell: cd and variables do not carry over.`,
    input: inputSchema,
    async execute(input, ctx) {
      const timeoutMs = Math.min(input.timeout_ms ?? defaultTimeout, maxTimeout);
      const env: { [name: string]: string } = {};
      for (const name of allow) {
        const value = process.env[name];
        if (value !== undefined) env[name] = value;
      }
      Object.assign(env, options.env);
      const result = await runShellCommand({
        command: input.command,
        cwd: workspace.root,
        env,
        timeoutMs,
        signal: ctx.signal,
        maxOutputBytes,
        shell,
        ...(sandbox && { sandbox }),
        onOutput: (stream, text) => ctx.emitUpdate({ stream, text }),
      });
      const output = result.output.length > 0 ? result.output : "(no output)";
      if (result.timedOut) {
        throw new ToolInputError(
          "timeout",
          `Command timed out after ${timeoutMs} ms; it and every process it started were killed. Output so far:\n${output}`,
        );
      }
      if (result.aborted) {
        throw new HeddleError("aborted", "Command aborted; it and every process it started were killed.");
      }
      const status = result.exitCode === null ? `Killed by signal ${result.signal}` : `Exit code ${result.exitCode}`;
      return `${status}\n${output}`;
    },
  });
}
