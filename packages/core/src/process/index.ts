// Child processes: running a shell command in its own process group, killing every process it started, and the
// optional bubblewrap sandbox. Used by the bash tool, command hooks and MCP stdio servers.
export {
  descendantPids,
  endProcesses,
  findCommandProcesses,
  killCommandTree,
  PROCESS_TOKEN_ENV,
  type ProcessRef,
  processAlive,
  snapshotDescendants,
  snapshotTree,
} from "./process-tree.js";
export {
  bwrapArgs,
  checkSandboxAvailable,
  type ResolvedSandbox,
  resolveSandbox,
  SANDBOX_SECCOMP_FD,
  type SandboxOptions,
  SandboxUnavailableError,
} from "./sandbox.js";
export { sandboxSeccompFilter } from "./seccomp.js";
export {
  clampTimerMs,
  defaultShell,
  HeadTailBuffer,
  MAX_TIMER_MS,
  runShellCommand,
  type ShellRunOptions,
  type ShellRunResult,
} from "./shell-process.js";
