// The parent side of the peer benchmark: starts the loopback servers (each its own process), runs each job in
// a fresh worker process, and checks every job against the server: the runs the worker says it did must be
// exactly the runs that reached their last turn on the server with all their tool results, checked.
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { summarizeProfile } from "../cpu-profile.mjs";

const here = (name) => fileURLToPath(new URL(`./${name}`, import.meta.url));
/** The server's name for each scenario family. */
export const WIRE = { chat: "openai-chat", anthropic: "anthropic", gemini: "gemini" };

/** Starts one server process for a loop shape; resolves with {url, stats(), close()}. */
export async function startServer({ turns, argumentBytes, fragments }) {
  const child = fork(here("server.mjs"), [String(turns), String(argumentBytes), String(fragments)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const url = await new Promise((resolve, reject) => {
    child.once("message", (message) => resolve(message.url));
    child.once("exit", (code) => reject(new Error(`peers server exited early with code ${code}`)));
  });
  return {
    url,
    turns,
    argumentBytes,
    stats: () =>
      new Promise((resolve) => {
        const onMessage = (message) => {
          if (message?.type !== "stats") return;
          child.off("message", onMessage);
          resolve(message.stats);
        };
        child.on("message", onMessage);
        child.send({ type: "stats" });
      }),
    close: () => child.connected && child.disconnect(),
  };
}

/** Runs a worker process; resolves with its reply, rejects with its error. */
function runWorker(job, execArgv = []) {
  const child = fork(here("worker.mjs"), [JSON.stringify(job)], {
    execArgv: ["--expose-gc", ...execArgv],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    let reply;
    child.once("message", (message) => {
      reply = message;
    });
    child.once("exit", (code) => {
      if (reply?.ok) resolve(reply);
      else
        reject(
          new Error(
            `peers worker ${job.kind} ${job.family} ${job.client ?? job.clients}: ${reply?.error ?? `exited ${code}`}`,
          ),
        );
    });
  });
}

/**
 * Runs one job against `server` and checks it: the server must have seen exactly `reply.runs` runs of this
 * family reach their last turn, each bringing back all turns-1 tool results (the server checks their content).
 */
export async function runJob(server, job, execArgv) {
  const family = WIRE[job.family];
  const before = await server.stats();
  const reply = await runWorker(
    { ...job, url: server.url, turns: server.turns, argumentBytes: server.argumentBytes },
    execArgv,
  );
  const after = await server.stats();
  const runs = (after.completed[family] ?? 0) - (before.completed[family] ?? 0);
  const results = (after.toolResults[family] ?? 0) - (before.toolResults[family] ?? 0);
  if (after.rejected !== before.rejected)
    throw new Error(`peers: the server rejected a request: ${after.lastRejection}`);
  if (runs !== reply.runs || results !== reply.runs * (server.turns - 1)) {
    throw new Error(
      `peers: ${job.kind} ${job.family} ${job.client ?? job.clients} reported ${reply.runs} runs; the server saw ` +
        `${runs} complete runs with ${results} tool results (expected ${reply.runs * (server.turns - 1)})`,
    );
  }
  return reply;
}

/** Runs a `profile` job (warm-up, then a CPU profile of the steady loops); returns the self-time summary. */
export async function profileJob(server, job) {
  const dir = mkdtempSync(join(tmpdir(), "heddle-bench-peers-prof-"));
  try {
    const profilePath = join(dir, `${job.family}-${job.client}.cpuprofile`);
    await runJob(server, { ...job, kind: "profile", profilePath });
    return summarizeProfile(profilePath);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Median and min-max of a list of ratios. */
export function spread(ratios) {
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), n: ratios.length };
}
