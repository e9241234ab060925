import { TeamError } from "./errors.js";
import { runRosterWorker } from "./roster-worker.js";
import { AgentTeamManager } from "./team-manager.js";
import type { TeamWorkerOptions, TeamWorkerResult } from "./team-worker-types.js";
import type { TeammateStopReason } from "./teammate-runner.js";

export type {
  TeamWorkerOptions,
  TeamWorkerResult,
  TeamWorkerTeammate,
  TeamWorkerTeammateResult,
} from "./team-worker-types.js";

/**
 * Runs teammates of a shared team in this process. With a `roster`, it leases the teammates the lead recorded (up to
 * `maxTeammates`), runs them, and keeps renewing their leases until `signal` aborts; then it stops them and releases
 * their leases at once, so other workers take them over (see the roster-worker rules). With a fixed list of
 * `teammates`, it runs those until each has stopped: it approved a shutdown request, failed, or `signal` aborted. The lead (an `AgentTeamManager` on the same mailbox and store, with the same
 * `teamId` and `leadId`) may run in another process or host; it talks to these teammates with `send` and
 * `requestShutdown`, and hears from them through its own inbox. A teammate restarted here after a crash picks up
 * where the stored session stops (see `TeammateRunner`). Resolves once nothing of the worker is left running: the
 * caller then closes the mailbox and the store, and the process can exit by itself.
 */
export async function runTeamWorker(options: TeamWorkerOptions): Promise<TeamWorkerResult> {
  if (!options || typeof options !== "object")
    throw new TeamError("team_invalid_input", "runTeamWorker: options must be an object");
  if (options.roster !== undefined) return runRosterWorker(options as TeamWorkerOptions & { roster: never });
  const {
    teammates,
    signal,
    onEvent,
    workerId,
    leaseMs,
    maxTeammates,
    pollIntervalMs,
    buildTeammate,
    ...managerOptions
  } = options;
  const rosterOnly = { workerId, leaseMs, maxTeammates, pollIntervalMs, buildTeammate };
  const stray = Object.entries(rosterOnly).find(([, value]) => value !== undefined)?.[0];
  if (stray !== undefined)
    throw new TeamError(
      "team_invalid_input",
      `runTeamWorker: ${stray} needs a roster (a fixed list of teammates has no leases)`,
    );
  if (!Array.isArray(teammates) || teammates.length === 0)
    throw new TeamError(
      "team_invalid_input",
      "runTeamWorker: give a roster to lease teammates from, or at least one teammate in options.teammates",
    );
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
