import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * The pids of every live descendant of `pid` (children, their children, ...). Reads /proc on Linux and asks `ps`
 * elsewhere; returns [] when neither works. Used to end what a stdio server started (`npx` runs the real server
 * as its child), which closing the server's own process would leave running.
 */
export function descendantPids(pid: number): number[] {
  const parents = parentMap();
  const children = new Map<number, number[]>();
  for (const [child, parent] of parents) children.set(parent, [...(children.get(parent) ?? []), child]);
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (found.includes(child)) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** A process seen once: its start time tells it apart from a later process that reuses the pid. */
export interface ProcessRef {
  pid: number;
  start: string | undefined;
}

/** `pid` itself and its live descendants, each with its start time. */
export function snapshotTree(pid: number): ProcessRef[] {
  return [{ pid, start: startTime(pid) }, ...snapshotDescendants(pid)];
}

/** The live descendants of `pid`, each with its start time. */
export function snapshotDescendants(pid: number): ProcessRef[] {
  return descendantPids(pid).map((child) => ({ pid: child, start: startTime(child) }));
}

/**
 * Ends the processes still alive and still the same process (same start time): SIGTERM, then SIGKILL after
 * `graceMs`; resolves once they are gone or a second after the SIGKILL.
 */
export async function endProcesses(refs: readonly ProcessRef[], graceMs: number): Promise<void> {
  const alive = () => refs.filter((ref) => isAlive(ref.pid) && startTime(ref.pid) === ref.start).map((r) => r.pid);
  let pids = alive();
  if (pids.length === 0) return;
  signalAll(pids, "SIGTERM");
  const until = Date.now() + graceMs;
  while (pids.length > 0 && Date.now() < until) {
    await sleep(25);
    pids = alive();
  }
  if (pids.length === 0) return;
  signalAll(pids, "SIGKILL");
  const hardUntil = Date.now() + 1000;
  while (Date.now() < hardUntil && alive().length > 0) await sleep(25);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); undefined off Linux. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

/** Sends `signal` to each pid, ignoring those already gone. */
export function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function parentMap(): Map<number, number> {
  const map = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return psParentMap();
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces and parentheses: fields resume after its last ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      map.set(Number(entry), Number(fields[1]));
    } catch {
      // Ended while we looked.
    }
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
