/**
 * The rule this file keeps: a `TeamRoster` is the durable record of a team. Each teammate is recorded once (its id
 * never twice, whoever records it), with plain data a worker can build it from; at most one worker holds its lease
 * at a time, and only that holder writes its running state; a stopped teammate is never leased again.
 */
import type { AgentUsage } from "@heddle/shared";
import { TeamAgentExistsError, TeamError } from "./errors.js";
import { checkAgentId } from "./mailbox.js";

/**
 * Where a teammate is in its life. `waiting` is a roster teammate no worker holds a live lease on (not taken yet, or
 * its worker stopped or died): the next worker with room takes it.
 */
export type TeammateState = "created" | "waiting" | "running" | "idle" | "stopped";

/** Why a teammate stopped: approved a shutdown, was stopped by the host, reached a team limit, or failed. */
export type TeammateStopReason = "shutdown" | "stopped" | "limit" | "error";

/** A team's spend: every finished turn's usage, added up, and how many turns. */
export interface TeamUsage extends AgentUsage {
  turns: number;
}

/**
 * How a roster teammate is built on whichever worker takes it: plain data (JSON), no functions. The worker turns
 * it into a model and tools (its own `model` or `providerId` + `modelId`, its `tools` narrowed to `toolNames`, and
 * its `buildTeammate` for the rest); what is given here overrides the worker's defaults.
 */
export interface TeammateSpec {
  agentId: string;
  role?: string;
  systemPrompt?: string;
  autoApproveShutdown?: boolean;
  /** With `modelId`: the model, through the worker's gateway (default: the worker's model). */
  providerId?: string;
  modelId?: string;
  /** Names of the worker's tools this teammate gets (default: all of them). */
  toolNames?: string[];
  maxIterations?: number;
  maxBudgetUsd?: number;
  /** As in `TeammateOptions` (default `teammate-<teamId>-<agentId>`). */
  sessionId?: string;
  /** Anything else your worker's `buildTeammate` reads (JSON). */
  metadata?: Record<string, unknown>;
}

export const TEAMMATE_SPEC_KEYS: ReadonlyArray<keyof TeammateSpec> = [
  "agentId",
  "role",
  "systemPrompt",
  "autoApproveShutdown",
  "providerId",
  "modelId",
  "toolNames",
  "maxIterations",
  "maxBudgetUsd",
  "sessionId",
  "metadata",
];

/** One teammate as the roster records it. */
export interface TeamRosterEntry {
  agentId: string;
  spec: TeammateSpec;
  /** Its first task (run once per session, ever, by whichever worker holds it). */
  initialPrompt?: string;
  /** The lead that recorded it. */
  createdBy: string;
  createdAt: number;
  /** `waiting` while no worker holds a live lease on it; `running` / `idle` as its holder reports; `stopped` for good. */
  state: TeammateState;
  stopReason?: TeammateStopReason;
  stopDetail?: string;
  /** The worker that holds its lease now (absent when the lease ended or expired). */
  workerId?: string;
  /** When that lease ends unless renewed (ms since the epoch, by the roster's clock). */
  leaseExpiresAt?: number;
  /** The last worker that took it (the holder now, or the one before it went back to waiting). */
  lastWorkerId?: string;
  usage: TeamUsage;
}

/** A teammate `acquire` leased to a worker, with the worker that held it before (whose messages to take first). */
export interface TeamLeaseGrant extends TeamRosterEntry {
  workerId: string;
  previousWorkerId?: string;
}

/** What `create` records. */
export interface CreateTeamRosterEntry {
  spec: TeammateSpec;
  initialPrompt?: string;
  createdBy: string;
}

/** One item of the team's task list. */
export interface TeamTask {
  id: string;
  title: string;
  description?: string;
  state: "open" | "claimed" | "done";
  createdBy: string;
  createdAt: number;
  claimedBy?: string;
  claimedAt?: number;
  completedAt?: number;
  result?: string;
}

/** The team's shared task list: every method is atomic across processes on a durable roster. */
export interface TeamTaskBoard {
  /** Adds an open task; its id is `task-<n>`, numbered in the order tasks were added. */
  addTask(input: { title: string; description?: string; createdBy: string }): Promise<TeamTask>;
  /**
   * Claims `taskId` for `agentId`, or without an id the oldest open task (`undefined` when none is open). A task
   * someone else claimed, or one that is done, is a `TeamTaskError` (`team_task_conflict`); an unknown id one with
   * `team_task_not_found`. Claiming a task one already holds returns it unchanged.
   */
  claimTask(agentId: string, taskId?: string): Promise<TeamTask | undefined>;
  /** Marks a task `agentId` claimed done, with an optional result; only its claimer may (else `team_task_conflict`). */
  completeTask(agentId: string, taskId: string, result?: string): Promise<TeamTask>;
  /** Every task, in the order they were added. */
  listTasks(): Promise<TeamTask[]>;
}

/**
 * The durable record of a team (its teammates, their leases, usage and task list). Workers lease teammates from it,
 * and the lead reads it for status. Every method is async and atomic; `leaseMs` leases end by themselves when not
 * renewed, so a dead worker's teammates go back to `waiting`.
 */
export interface TeamRoster extends TeamTaskBoard {
  /** The team these records belong to (the manager's and the workers' `teamId`). */
  readonly teamId: string;
  /** Records a new teammate (`waiting`); a `TeamAgentExistsError` when its id is recorded already, even stopped. */
  create(input: CreateTeamRosterEntry): Promise<TeamRosterEntry>;
  get(agentId: string): Promise<TeamRosterEntry | undefined>;
  /** Every teammate, in the order they were recorded. */
  list(): Promise<TeamRosterEntry[]>;
  /**
   * Leases to `workerId` up to `max` teammates that are not stopped and have no live lease, oldest first, for
   * `leaseMs`. Each comes with the worker that held it last, if another one did.
   */
  acquire(workerId: string, options: { leaseMs: number; max: number }): Promise<TeamLeaseGrant[]>;
  /** Extends the leases of `agentIds` that `workerId` still holds; resolves with those (a lost or stopped one is missing). */
  renew(workerId: string, agentIds: string[], leaseMs: number): Promise<string[]>;
  /** Ends `workerId`'s lease at once (a clean stop): another worker may take the teammate now. False when not its holder. */
  release(workerId: string, agentId: string): Promise<boolean>;
  /** The holder records what its teammate is doing; false (nothing written) when `workerId` does not hold the lease. */
  setState(workerId: string, agentId: string, state: "running" | "idle"): Promise<boolean>;
  /**
   * Stops a teammate for good and ends its lease: the lead's stop (no `workerId`), or its holder's record of why it
   * stopped (with `workerId`: written only while that worker holds the lease). False when it was stopped already, is
   * not recorded, or `workerId` is not its holder.
   */
  stop(agentId: string, options: { reason: TeammateStopReason; detail?: string; workerId?: string }): Promise<boolean>;
  /** Adds one finished turn's usage to the teammate's (and so the team's) total. */
  addUsage(agentId: string, usage: AgentUsage): Promise<void>;
  /** Releases what the roster holds (a connection, a file). Calls after it reject with `team_roster_closed`. */
  close(): Promise<void>;
}

export function emptyUsage(): TeamUsage {
  return {
    turns: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costUsd: 0,
  };
}

const USAGE_FIELDS = [
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "cacheWriteTokens",
  "reasoningTokens",
  "costUsd",
] as const;

/** `total` plus one turn of `usage` (missing fields count 0). */
export function addTurnUsage(total: TeamUsage, usage: Partial<AgentUsage>): TeamUsage {
  const next = { ...total, turns: total.turns + 1 };
  for (const field of USAGE_FIELDS) next[field] = total[field] + finite(usage[field]);
  return next;
}

/** The sum of several totals. */
export function sumUsage(totals: TeamUsage[]): TeamUsage {
  const sum = emptyUsage();
  for (const total of totals) {
    sum.turns += total.turns;
    for (const field of USAGE_FIELDS) sum[field] += total[field];
  }
  return sum;
}

/** A stored usage record (any subset of fields) as a full `TeamUsage`. */
export function toUsage(stored: Partial<TeamUsage> | undefined): TeamUsage {
  const usage = emptyUsage();
  usage.turns = finite(stored?.turns);
  for (const field of USAGE_FIELDS) usage[field] = finite(stored?.[field]);
  return usage;
}

function finite(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

export function checkWorkerId(workerId: unknown, where: string): asserts workerId is string {
  checkAgentId(workerId, `${where}: workerId`);
}

export function checkLeaseMs(leaseMs: unknown, where: string): asserts leaseMs is number {
  if (typeof leaseMs !== "number" || !Number.isInteger(leaseMs) || leaseMs < 1 || leaseMs > 2 ** 31 - 1)
    throw new TeamError("team_invalid_input", `${where}: leaseMs must be a positive integer of milliseconds`);
}

export function checkMax(max: unknown, where: string): asserts max is number {
  if (typeof max !== "number" || !Number.isInteger(max) || max < 0)
    throw new TeamError("team_invalid_input", `${where}: max must be an integer >= 0`);
}

/** Checks `create`'s input: a spec of plain data with the known keys, a lead id, an optional prompt. */
export function checkCreateInput(input: CreateTeamRosterEntry): CreateTeamRosterEntry {
  if (typeof input !== "object" || input === null)
    throw new TeamError("team_invalid_input", "TeamRoster.create(input): input must be an object");
  const spec = checkSpec(input.spec);
  checkAgentId(input.createdBy, "TeamRoster.create: createdBy");
  if (input.initialPrompt !== undefined && typeof input.initialPrompt !== "string")
    throw new TeamError("team_invalid_input", "TeamRoster.create: initialPrompt must be a string");
  return {
    spec,
    createdBy: input.createdBy,
    ...(input.initialPrompt !== undefined && { initialPrompt: input.initialPrompt }),
  };
}

/** A teammate spec checked as plain data (JSON, known keys only) and copied. */
export function checkSpec(spec: unknown): TeammateSpec {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec))
    throw new TeamError("team_invalid_input", "A teammate spec must be an object");
  const record = spec as Record<string, unknown>;
  checkAgentId(record.agentId, "teammate spec: agentId");
  const unknown = Object.keys(record).filter(
    (key) => record[key] !== undefined && !TEAMMATE_SPEC_KEYS.includes(key as keyof TeammateSpec),
  );
  if (unknown.length > 0)
    throw new TeamError(
      "team_invalid_input",
      `Teammate "${record.agentId}": with a roster, a teammate is built on its worker from plain data, so ` +
        `${unknown.map((k) => `"${k}"`).join(", ")} cannot be recorded. Give ${TEAMMATE_SPEC_KEYS.join(", ")}; ` +
        "models, tools and other functions come from the worker (runTeamWorker's model, tools and buildTeammate).",
    );
  for (const key of ["role", "systemPrompt", "providerId", "modelId", "sessionId"] as const)
    if (record[key] !== undefined && typeof record[key] !== "string")
      throw new TeamError("team_invalid_input", `Teammate "${record.agentId}": ${key} must be a string`);
  for (const key of ["maxIterations", "maxBudgetUsd"] as const)
    if (record[key] !== undefined && (typeof record[key] !== "number" || !((record[key] as number) >= 0)))
      throw new TeamError("team_invalid_input", `Teammate "${record.agentId}": ${key} must be a number >= 0`);
  if (record.autoApproveShutdown !== undefined && typeof record.autoApproveShutdown !== "boolean")
    throw new TeamError("team_invalid_input", `Teammate "${record.agentId}": autoApproveShutdown must be a boolean`);
  if (
    record.toolNames !== undefined &&
    (!Array.isArray(record.toolNames) || record.toolNames.some((name) => typeof name !== "string"))
  )
    throw new TeamError("team_invalid_input", `Teammate "${record.agentId}": toolNames must be an array of names`);
  if ((record.providerId === undefined) !== (record.modelId === undefined))
    throw new TeamError("team_invalid_input", `Teammate "${record.agentId}": give providerId and modelId together`);
  const copy = JSON.parse(JSON.stringify(record)) as TeammateSpec;
  if (record.metadata !== undefined && JSON.stringify(copy.metadata) !== JSON.stringify(plain(record.metadata)))
    throw new TeamError("team_invalid_input", `Teammate "${record.agentId}": metadata must be plain JSON data`);
  return copy;
}

// Throws on what JSON would silently drop or change: functions, class instances, non-finite numbers.
function plain(value: unknown): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TeamError("team_invalid_input", "metadata: numbers must be finite");
    return value;
  }
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, plain(v)]));
  throw new TeamError("team_invalid_input", `metadata: ${typeof value} values cannot be recorded (plain JSON only)`);
}

/** Checks a task's title and description. */
export function checkTaskInput(input: { title: string; description?: string; createdBy: string }): void {
  if (typeof input !== "object" || input === null)
    throw new TeamError("team_invalid_input", "addTask(input): input must be an object");
  if (typeof input.title !== "string" || input.title.trim() === "")
    throw new TeamError("team_invalid_input", "addTask: title must be a non-empty string");
  if (input.description !== undefined && typeof input.description !== "string")
    throw new TeamError("team_invalid_input", "addTask: description must be a string");
  checkAgentId(input.createdBy, "addTask: createdBy");
}

export function rosterClosedError(name: string): TeamError {
  return new TeamError("team_roster_closed", `The ${name} is closed.`);
}

/** The error of `create` for an id the roster has recorded already. */
export function agentExists(agentId: string): TeamAgentExistsError {
  return new TeamAgentExistsError(
    agentId,
    `The team already has a teammate "${agentId}" (recorded in its roster, perhaps by another lead); choose another id.`,
  );
}
