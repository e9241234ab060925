import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * Finding and ending the processes a child started. Two users:
 * - a shell command (the bash tool, command hooks), found on Linux without relying on its process group: a child
 *   can leave the group and the session (`setsid`), and with `setsid -f` its parent exits so it is not even a
 *   descendant any more. Each command gets a random token in its environment, which every descendant inherits; a
 *   sweep of /proc matches the token, the descendants of the shell, its process group and its session. Elsewhere
 *   (no /proc) only the process group is signalled.
 * - an MCP stdio server, whose tree is snapshotted (pid and start time) and ended after its transport closes
 *   (`npx` runs the real server as its child, which closing the server's own process would leave running).
 */

/** The environment variable that marks a command's processes. */
export const PROCESS_TOKEN_ENV = "HEDDLE_PROCESS_TOKEN";

interface ProcStat {
  ppid: number;
  pgid: number;
  sid: number;
  /** Clock ticks since boot: tells a process from a later one that reused its pid. */
  startTime: string;
  zombie: boolean;
}

function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid pgrp session ...`; comm may hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return {
    zombie: fields[0] === "Z" || fields[0] === "X",
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    startTime: fields[19] ?? "",
  };
}

function hasToken(pid: number, marker: Buffer): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`).includes(marker);
  } catch {
    return false;
  }
}

/**
 * Live processes that belong to the command whose shell is `rootPid`, as `pid → start time`. Reads /proc
 * synchronously: its files never block, and a sweep must not wait behind a busy thread pool.
 */
export function findCommandProcesses(rootPid: number, token: string): Map<number, string> {
  const found = new Map<number, string>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return found;
  }
  // Stryker disable next-line StringLiteral: an empty marker matches every process, and the sweep would signal them all.
  const marker = Buffer.from(`${PROCESS_TOKEN_ENV}=${token}\0`);
  const stats = new Map<number, ProcStat>();
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    const stat = readStat(pid);
    if (stat && !stat.zombie) stats.set(pid, stat);
  }
  const children = new Map<number, number[]>();
  for (const [pid, stat] of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  const add = (pid: number) => {
    const stat = stats.get(pid);
    if (!stat || found.has(pid)) return;
    found.set(pid, stat.startTime);
    for (const child of children.get(pid) ?? []) add(child);
  };
  for (const [pid, stat] of stats) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: these widen the sweep to every process.
    if (pid === rootPid || stat.pgid === rootPid || stat.sid === rootPid || hasToken(pid, marker)) add(pid);
  }
  return found;
}

/** True while `pid` runs (a zombie has exited). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readStat(pid);
  return stat === undefined ? true : !stat.zombie;
}

function signal(pid: number, startTime: string | undefined, sig: NodeJS.Signals): void {
  // The pid may have been reused since the sweep: only the same process is signalled.
  if (startTime !== undefined && readStat(pid)?.startTime !== startTime) return;
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

function signalGroup(pgid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pgid, sig);
  } catch {
    // The group is already gone.
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Most SIGKILL sweeps after the grace period; each catches what forked since the last. */
const KILL_ROUNDS = 10;
const KILL_ROUND_MS = 50;

/**
 * Ends a command and everything it started: SIGTERM to its group and to every process the sweep finds, then,
 * after `graceMs` (sooner when all are gone), SIGKILL to whatever remains (a process that ignores SIGTERM),
 * sweeping again for processes forked meanwhile. Resolves once the kill is done, so a caller returns only after
 * it: the timers are not `unref`'d, so a host that exits right away still waits for the kill.
 */
export async function killCommandTree(rootPid: number, token: string, graceMs: number): Promise<void> {
  const known = new Map<number, string>();
  const sweep = () => {
    for (const [pid, start] of findCommandProcesses(rootPid, token)) known.set(pid, start);
  };
  const alive = () => [...known].filter(([pid]) => processAlive(pid));

  sweep();
  signalGroup(rootPid, "SIGTERM");
  for (const [pid, start] of known) signal(pid, start, "SIGTERM");
  const graceEnd = Date.now() + graceMs;
  // During the grace period only the known processes are polled (cheap); the SIGKILL rounds sweep /proc again.
  while (Date.now() < graceEnd) {
    if (alive().length === 0) break;
    await sleep(Math.min(KILL_ROUND_MS, Math.max(1, graceEnd - Date.now())));
  }
  for (let round = 0; round < KILL_ROUNDS; round++) {
    sweep();
    signalGroup(rootPid, "SIGKILL");
    const remaining = alive();
    if (remaining.length === 0 && round > 0) return;
    for (const [pid, start] of remaining) signal(pid, start, "SIGKILL");
    await sleep(KILL_ROUND_MS);
  }
}

/** Every live process's parent, from /proc on Linux, else from `ps`; empty when neither works. */
function parentMap(): Map<number, number> {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return psParentMap();
  }
  const map = new Map<number, number>();
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const stat = readStat(pid);
    if (stat && !stat.zombie) map.set(pid, stat.ppid);
  }
  return map;
}

function psParentMap(): Map<number, number> {
  const map = new Map<number, number>();
  try {
    const out = execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" });
    for (const line of out.split("\n")) {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number);
      if (pid && ppid !== undefined && !Number.isNaN(ppid)) map.set(pid, ppid);
    }
  } catch {
    // No ps either: nothing to report.
  }
  return map;
}

/** The pids of every live descendant of `pid` (children, their children, ...). */
export function descendantPids(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const [child, parent] of parentMap()) children.set(parent, [...(children.get(parent) ?? []), child]);
  const found = new Set<number>();
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      if (found.has(child)) continue;
      found.add(child);
      queue.push(child);
    }
  }
  return [...found];
}

/** A process seen once: its start time tells it apart from a later process that reuses the pid. */
export interface ProcessRef {
  pid: number;
  /** Undefined off Linux, where only the pid is compared. */
  start: string | undefined;
}

/** `pid` itself and its live descendants, each with its start time. */
export function snapshotTree(pid: number): ProcessRef[] {
  return [{ pid, start: readStat(pid)?.startTime }, ...snapshotDescendants(pid)];
}

/** The live descendants of `pid`, each with its start time. */
export function snapshotDescendants(pid: number): ProcessRef[] {
  return descendantPids(pid).map((child) => ({ pid: child, start: readStat(child)?.startTime }));
}

/**
 * Ends the processes still alive and still the same process (same start time): SIGTERM, then SIGKILL after
 * `graceMs`; resolves once they are gone or a second after the SIGKILL.
 */
export async function endProcesses(refs: readonly ProcessRef[], graceMs: number): Promise<void> {
  const alive = () => refs.filter((ref) => processAlive(ref.pid) && readStat(ref.pid)?.startTime === ref.start);
  let remaining = alive();
  if (remaining.length === 0) return;
  for (const ref of remaining) signal(ref.pid, ref.start, "SIGTERM");
  const until = Date.now() + graceMs;
  while (remaining.length > 0 && Date.now() < until) {
    await sleep(25);
    remaining = alive();
  }
  if (remaining.length === 0) return;
  for (const ref of remaining) signal(ref.pid, ref.start, "SIGKILL");
  const hardUntil = Date.now() + 1000;
  while (Date.now() < hardUntil && alive().length > 0) await sleep(25);
}
