import type { SessionStore } from "../sessions/index.js";
import { TeamError } from "./errors.js";
import type { TeamMailbox } from "./mailbox.js";
import { AgentTeamManager, type AgentTeamManagerOptions } from "./team-manager.js";
import type { TeammateEvent, TeammateOptions, TeammateStopReason } from "./teammate-runner.js";

/** One teammate a worker runs: its options, and the task its first turn takes (run once per session, ever). */
export interface TeamWorkerTeammate extends TeammateOptions {
  initialPrompt?: string;
}

/** What `runTeamWorker` takes: the shared team (mailbox + store), the teammates this worker runs, a stop signal. */
export interface TeamWorkerOptions extends Omit<AgentTeamManagerOptions, "mailbox" | "store"> {
  /** The team's shared mailbox (a `RedisTeamMailbox` for workers on several hosts). The worker never closes it. */
  mailbox: TeamMailbox;
  /** The team's shared session store (a `PostgresSessionStore` for several hosts). The worker never closes it. */
  store: SessionStore;
  /**
   * The teammates assigned to this worker (each agent id to exactly one worker at a time: two workers running one
   * teammate would both append to its session, and the second is refused with `SessionConflictError`).
   */
  teammates: TeamWorkerTeammate[];
  /** Aborting it stops every teammate (a running turn is cut, its message stays unread) and ends the worker. */
  signal?: AbortSignal;
  /** Every event of every teammate of this worker, as it happens (a throwing listener is ignored). */
  onEvent?: (event: TeammateEvent) => void;
}

/** How one teammate of a worker ended: why, after how many turns in this process, and its failure if it failed. */
export interface TeamWorkerTeammateResult {
  agentId: string;
  sessionId: string;
  reason: TeammateStopReason;
  turns: number;
  error?: unknown;
}

/** How each teammate of a worker ended, in the order they were given. */
export interface TeamWorkerResult {
  teammates: TeamWorkerTeammateResult[];
}

/**
 * Runs the teammates assigned to this process from a shared team, until each has stopped: it approved a shutdown
 * request, failed, or `signal` aborted. The lead (an `AgentTeamManager` on the same mailbox and store, with the same
 * `teamId` and `leadId`) may run in another process or host; it talks to these teammates with `send` and
 * `requestShutdown`, and hears from them through its own inbox. A teammate restarted here after a crash picks up
 * where the stored session stops (see `TeammateRunner`). Resolves once nothing of the worker is left running: the
 * caller then closes the mailbox and the store, and the process can exit by itself.
 */
export async function runTeamWorker(options: TeamWorkerOptions): Promise<TeamWorkerResult> {
  if (!options || typeof options !== "object")
    throw new TeamError("team_invalid_input", "runTeamWorker: options must be an object");
  const { teammates, signal, onEvent, ...managerOptions } = options;
  if (!Array.isArray(teammates) || teammates.length === 0)
    throw new TeamError("team_invalid_input", "runTeamWorker: give at least one teammate in options.teammates");
  const ids = teammates.map((t) => t?.agentId);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate !== undefined)
    throw new TeamError("team_invalid_input", `runTeamWorker: teammate "${duplicate}" is listed twice`);

  const manager = new AgentTeamManager(managerOptions);
  // Every runner is made before any starts, so a bad teammate option fails the call before anything ran.
  const runners = teammates.map(({ initialPrompt, ...teammate }) => ({
    runner: manager.createTeammate(teammate),
    initialPrompt,
  }));
  const results = new Map<string, { reason: TeammateStopReason; error?: unknown }>();
  const stopAll = () => {
    void manager.stopAll();
  };
  const outcome = (): TeamWorkerResult => ({
    teammates: runners.map(({ runner }) => ({
      agentId: runner.agentId,
      sessionId: runner.sessionId,
      turns: runner.status().turns,
      reason: "stopped",
      ...results.get(runner.agentId),
    })),
  });
  if (signal?.aborted) return outcome();
  signal?.addEventListener("abort", stopAll, { once: true });
  try {
    await Promise.all(
      runners.map(async ({ runner, initialPrompt }) => {
        for await (const event of runner.run(initialPrompt)) {
          if (event.type === "stopped")
            results.set(runner.agentId, {
              reason: event.reason,
              ...(event.error !== undefined && { error: event.error }),
            });
          if (!onEvent) continue;
          try {
            onEvent(event);
          } catch {
            // A listener's failure is its own; the teammates go on.
          }
        }
      }),
    );
  } finally {
    signal?.removeEventListener("abort", stopAll);
    await manager.stopAll();
  }
  return outcome();
}
