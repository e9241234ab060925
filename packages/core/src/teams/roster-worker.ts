/**
 * The rule this file keeps: a worker runs a roster teammate only while it holds that teammate's lease. It takes
 * teammates with no live lease up to its capacity, renews every third of `leaseMs`, and stops a teammate whose
 * lease it lost (it writes nothing for it after that). Before a teammate reads, the worker takes over the messages
 * its previous holder took but never marked read, so they come first, in send order. A clean stop releases each
 * lease once its teammate stopped; a teammate that stopped on its own (shutdown, limit, error) is recorded stopped.
 */
import { hostname } from "node:os";
import { TeamError } from "./errors.js";
import { LeasedMailbox } from "./leased-mailbox.js";
import type { TeamLeaseGrant, TeamRoster } from "./roster.js";
import { checkLeaseMs, checkWorkerId } from "./roster.js";
import { AgentTeamManager } from "./team-manager.js";
import type { TeamWorkerOptions, TeamWorkerResult, TeamWorkerTeammateResult } from "./team-worker-types.js";
import type { TeammateRunner } from "./teammate-runner.js";
import { specOptions } from "./teammate-spec.js";
import type { TeammateEvent, TeammateStopReason } from "./teammate-types.js";

interface Held {
  grant: TeamLeaseGrant;
  /** The lease is good until then, by this process's monotonic clock (0: lost). */
  deadline: number;
  runner?: TeammateRunner;
  drain: Promise<void>;
  lost: boolean;
  /** The holder's roster writes of this teammate, one after another. */
  writes: Promise<unknown>;
}

const DEFAULT_LEASE_MS = 15_000;
const DEFAULT_CAPACITY = 16;

/** `runTeamWorker` with a roster: leases teammates, runs them, hands them back. */
export async function runRosterWorker(options: TeamWorkerOptions & { roster: TeamRoster }): Promise<TeamWorkerResult> {
  const {
    roster,
    workerId = `${hostname()}:${process.pid}`,
    leaseMs = DEFAULT_LEASE_MS,
    maxTeammates = DEFAULT_CAPACITY,
    pollIntervalMs,
    buildTeammate,
    signal,
    onEvent,
    teammates,
    mailbox,
    store,
    ...managerOptions
  } = options;
  if (teammates !== undefined)
    throw new TeamError(
      "team_invalid_input",
      "runTeamWorker: give a roster (the worker leases teammates) or teammates (a fixed list), not both",
    );
  checkWorkerId(workerId, "runTeamWorker");
  checkLeaseMs(leaseMs, "runTeamWorker");
  if (!Number.isInteger(maxTeammates) || maxTeammates < 1)
    throw new TeamError("team_invalid_input", "runTeamWorker: maxTeammates must be an integer >= 1");
  const teamId = managerOptions.teamId ?? roster.teamId;
  if (teamId !== roster.teamId)
    throw new TeamError(
      "team_invalid_input",
      `runTeamWorker: teamId "${teamId}" is not the roster's ("${roster.teamId}")`,
    );
  const pollMs = Math.max(10, pollIntervalMs ?? Math.min(1000, leaseMs / 3));
  const held = new Map<string, Held>();
  // Teammates whose lease this worker lost, while their runner still stops.
  const stopping = new Map<string, Held>();
  const results: TeamWorkerTeammateResult[] = [];
  const manager = new AgentTeamManager({
    ...managerOptions,
    teamId,
    store,
    mailbox: new LeasedMailbox(mailbox, (agentId) => (held.get(agentId)?.deadline ?? 0) > performance.now()),
  });
  const capacity = Math.min(maxTeammates, manager.limits.maxTeammates);
  const emit = (event: TeammateEvent) => {
    try {
      onEvent?.(event);
    } catch {
      // A listener's failure is its own; the teammates go on.
    }
  };
  const later = (h: Held, write: () => Promise<unknown>) => {
    h.writes = h.writes.then(write).catch(() => {});
  };

  const lose = (h: Held) => {
    if (h.lost) return;
    h.lost = true;
    h.deadline = 0;
    const agentId = h.grant.agentId;
    if (held.get(agentId) === h) held.delete(agentId);
    stopping.set(agentId, h);
    emit({ type: "lease-lost", agentId, workerId });
    void h.runner?.stop();
  };

  const finish = async (h: Held, reason: TeammateStopReason, error: unknown) => {
    await h.writes;
    const agentId = h.grant.agentId;
    if (error instanceof TeamError && error.code === "team_lease_lost") lose(h);
    if (!h.lost) {
      // A clean stop hands the teammate over; a teammate that ended on its own is recorded as stopped for good.
      const done =
        reason === "stopped"
          ? roster.release(workerId, agentId)
          : roster.stop(agentId, { reason, workerId, ...stopDetail(h, error) });
      await done.catch(() => {});
      emit({ type: "lease-released", agentId, workerId });
    }
    if (held.get(agentId) === h) held.delete(agentId);
    if (stopping.get(agentId) === h) stopping.delete(agentId);
    results.push({
      agentId,
      sessionId: h.runner?.sessionId ?? "",
      reason,
      turns: h.runner?.status().turns ?? 0,
      ...(error !== undefined && { error }),
      ...(h.lost && { leaseLost: true }),
    });
  };

  const run = async (h: Held, previous: Held | undefined) => {
    const { agentId } = h.grant;
    await previous?.drain;
    try {
      // The previous holder's taken-but-unread messages first, so the teammate reads in send order.
      await mailbox.takeOver?.(agentId);
    } catch (error) {
      // The mailbox is unreachable now: give the teammate back for a later try.
      return finish(h, "stopped", error);
    }
    let runner: TeammateRunner;
    try {
      const built = await buildTeammate?.(h.grant);
      runner = manager.createTeammate({ ...specOptions(h.grant.spec, managerOptions.tools), ...built, agentId });
    } catch (error) {
      emit({ type: "stopped", agentId, reason: "error", error });
      return finish(h, "error", error);
    }
    h.runner = runner;
    if (h.lost || signal?.aborted) {
      await runner.stop(); // never started: stopped, so this worker can take the same id again later
      return finish(h, "stopped", undefined);
    }
    let reason: TeammateStopReason = "stopped";
    let failure: unknown;
    try {
      for await (const event of runner.run(h.grant.initialPrompt)) {
        if (event.type === "turn-started") later(h, () => roster.setState(workerId, agentId, "running"));
        if (event.type === "idle") later(h, () => roster.setState(workerId, agentId, "idle"));
        if (event.type === "turn-finished") later(h, () => roster.addUsage(agentId, event.result.usage));
        if (event.type === "stopped") {
          reason = event.reason;
          failure = event.error;
        }
        emit(event);
      }
    } catch (error) {
      reason = "error";
      failure = error;
    }
    await finish(h, reason, failure);
  };

  const take = (grant: TeamLeaseGrant, deadline: number) => {
    const previous = stopping.get(grant.agentId);
    const h: Held = { grant, deadline, lost: false, writes: Promise.resolve(), drain: Promise.resolve() };
    held.set(grant.agentId, h);
    emit({
      type: "lease-taken",
      agentId: grant.agentId,
      workerId,
      ...(grant.previousWorkerId !== undefined && { previousWorkerId: grant.previousWorkerId }),
    });
    h.drain = run(h, previous);
  };

  let nextRenewAt = 0;
  const tick = async () => {
    const renewing = [...held.values()];
    if (renewing.length > 0 && performance.now() >= nextRenewAt) {
      const startedAt = performance.now();
      nextRenewAt = startedAt + leaseMs / 3;
      try {
        const kept = new Set(
          await roster.renew(
            workerId,
            renewing.map((h) => h.grant.agentId),
            leaseMs,
          ),
        );
        for (const h of renewing)
          if (!kept.has(h.grant.agentId)) lose(h);
          else if (!h.lost) h.deadline = startedAt + leaseMs;
      } catch {
        // The roster is unreachable: the leases run out by the clock below, unless a later renewal gets through.
        nextRenewAt = performance.now();
      }
    }
    for (const h of [...held.values()]) if (h.deadline <= performance.now()) lose(h);
    const room = capacity - held.size;
    if (room <= 0 || signal?.aborted) return;
    const startedAt = performance.now();
    let grants: TeamLeaseGrant[] = [];
    try {
      grants = await roster.acquire(workerId, { leaseMs, max: room });
    } catch {
      return; // unreachable now: the next poll tries again
    }
    for (const grant of grants) take(grant, startedAt + leaseMs);
  };

  if (signal?.aborted) return { teammates: results };
  let wake: () => void = () => {};
  const onAbort = () => wake();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    while (!signal?.aborted) {
      await tick();
      if (signal?.aborted) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    const all = [...held.values(), ...stopping.values()];
    await Promise.all(all.map((h) => h.runner?.stop()));
    await Promise.all(all.map((h) => h.drain));
  }
  return { teammates: results };
}

// Why a teammate stopped, in words, for the roster: the limit it reached, or its error's message.
function stopDetail(h: Held, error: unknown): { detail?: string } {
  const limit = h.runner?.status();
  if (limit?.limit !== undefined) return { detail: `${limit.limit}: ${limit.limitDetail ?? ""}` };
  if (error !== undefined) return { detail: String((error as Error)?.message ?? error) };
  return {};
}
