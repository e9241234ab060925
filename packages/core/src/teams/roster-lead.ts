/**
 * The rule this file keeps: a lead with a roster runs no teammate itself. It records each one (its spec and first
 * task) in the roster, where a worker takes it, and it reads the roster for the team's state and usage, so any lead
 * process, a restarted one too, sees the same team.
 */
import { TeamError } from "./errors.js";
import {
  agentExists,
  checkSpec,
  sumUsage,
  TEAMMATE_SPEC_KEYS,
  type TeammateSpec,
  type TeamRoster,
  type TeamRosterEntry,
} from "./roster.js";
import type { TeamGovernor } from "./team-governor.js";
import type { TeammateStatus, TeamUsage } from "./teammate-types.js";

/** Manager options a lead with a roster takes; every other option belongs to the workers. */
const LEAD_OPTIONS = new Set(["mailbox", "store", "roster", "teamId", "leadId", "limits"]);

/** The spec defaults among a roster lead's options; anything a worker would need is refused with its name. */
export function leadDefaults(options: Record<string, unknown>): Partial<TeammateSpec> {
  const misplaced = Object.keys(options).filter(
    (key) =>
      options[key] !== undefined && !LEAD_OPTIONS.has(key) && !TEAMMATE_SPEC_KEYS.includes(key as keyof TeammateSpec),
  );
  if (misplaced.length > 0)
    throw new TeamError(
      "team_invalid_input",
      `AgentTeamManager: with a roster, teammates run on workers, which build them: ${misplaced.map((k) => `"${k}"`).join(", ")} ` +
        "belong to runTeamWorker's options (a lead with a roster takes mailbox, store, roster, teamId, leadId, limits " +
        `and spec defaults: ${TEAMMATE_SPEC_KEYS.filter((k) => k !== "agentId").join(", ")})`,
    );
  const defaults: Record<string, unknown> = {};
  for (const key of TEAMMATE_SPEC_KEYS) if (options[key] !== undefined) defaults[key] = options[key];
  return defaults as Partial<TeammateSpec>;
}

/** Records a teammate and its first task; refuses an id the roster has, and a team at `limits.maxTeammates`. */
export async function recordTeammate(
  roster: TeamRoster,
  spec: TeammateSpec,
  initialPrompt: string | undefined,
  lead: { leadId: string; governor: TeamGovernor },
): Promise<TeammateStatus> {
  const checked = checkSpec(spec);
  if (checked.agentId === lead.leadId)
    throw new TeamError("team_invalid_input", `spawn: "${checked.agentId}" is the lead's id`);
  const entries = await roster.list();
  if (entries.some((entry) => entry.agentId === checked.agentId)) throw agentExists(checked.agentId);
  lead.governor.admitTeammate(entries.filter((entry) => entry.state !== "stopped").length, checked.agentId);
  const entry = await roster.create({
    spec: checked,
    createdBy: lead.leadId,
    ...(initialPrompt !== undefined && { initialPrompt }),
  });
  return statusOf(entry, roster.teamId);
}

/** A roster entry as a `status()` row: its state, the worker that holds it, and its usage on every worker. */
export function statusOf(entry: TeamRosterEntry, teamId: string): TeammateStatus {
  return {
    agentId: entry.agentId,
    ...(entry.spec.role !== undefined && { role: entry.spec.role }),
    sessionId: entry.spec.sessionId ?? `teammate-${teamId}-${entry.agentId}`,
    state: entry.state,
    turns: entry.usage.turns,
    ...(entry.stopReason !== undefined && { stopReason: entry.stopReason }),
    ...(entry.stopReason === "limit" && entry.stopDetail !== undefined && limitOf(entry.stopDetail)),
    ...(entry.workerId !== undefined && { workerId: entry.workerId }),
    usage: entry.usage,
  };
}

export async function rosterStatus(roster: TeamRoster): Promise<TeammateStatus[]> {
  return (await roster.list()).map((entry) => statusOf(entry, roster.teamId));
}

export async function rosterUsage(roster: TeamRoster): Promise<TeamUsage> {
  return sumUsage((await roster.list()).map((entry) => entry.usage));
}

// A worker records a limit stop as "<limit>: <detail>".
function limitOf(detail: string): Pick<TeammateStatus, "limit" | "limitDetail"> {
  const match = /^(maxTeammates|maxTurns|maxBudgetUsd|maxMessageBytes|maxReplyChain): (.*)$/s.exec(detail);
  if (!match) return { limitDetail: detail };
  return { limit: match[1] as TeammateStatus["limit"], limitDetail: match[2]! };
}
