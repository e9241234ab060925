import type { AgentUsage } from "@heddle/shared";
import type { TeammateStopReason, TeamUsage } from "../../teams/contract.js";
import {
  addTurnUsage,
  agentExists,
  type CreateTeamRosterEntry,
  checkAgentId,
  checkCreateInput,
  checkLeaseMs,
  checkMax,
  checkTaskCall,
  checkTaskInput,
  checkWorkerId,
  claimed,
  completed,
  emptyUsage,
  newTask,
  notFound,
  rosterClosedError,
  TeamError,
  type TeamLeaseGrant,
  type TeammateSpec,
  type TeamRoster,
  type TeamRosterEntry,
  type TeamTask,
} from "../../teams/contract.js";

interface Row {
  spec: TeammateSpec;
  initialPrompt?: string;
  createdBy: string;
  createdAt: number;
  state: "waiting" | "running" | "idle" | "stopped";
  stopReason?: TeammateStopReason;
  stopDetail?: string;
  leaseHolder?: string;
  leaseExpiresAt?: number;
  lastWorkerId?: string;
  usage: TeamUsage;
}

/** The records behind an `InMemoryTeamRoster`; pass one object to several rosters to share them (two "leads"). */
export interface InMemoryTeamRosterData {
  /** Teammates in the order they were recorded. */
  rows: Map<string, Row>;
  tasks: TeamTask[];
}

export function createInMemoryTeamRosterData(): InMemoryTeamRosterData {
  return { rows: new Map(), tasks: [] };
}

export interface InMemoryTeamRosterOptions {
  /** Default `team`. */
  teamId?: string;
  data?: InMemoryTeamRosterData;
  /** The clock leases are measured by (default `Date.now`); tests pass their own to expire a lease. */
  now?: () => number;
}

/** A `TeamRoster` in memory, for one process (workers in the same process, tests). Values are copied in and out. */
export class InMemoryTeamRoster implements TeamRoster {
  readonly teamId: string;
  readonly #data: InMemoryTeamRosterData;
  readonly #now: () => number;
  #closed = false;

  constructor(options: InMemoryTeamRosterOptions = {}) {
    this.teamId = options.teamId ?? "team";
    checkAgentId(this.teamId, "InMemoryTeamRoster: teamId");
    this.#data = options.data ?? createInMemoryTeamRosterData();
    this.#now = options.now ?? Date.now;
  }

  async create(input: CreateTeamRosterEntry): Promise<TeamRosterEntry> {
    this.#open();
    const checked = checkCreateInput(input);
    const agentId = checked.spec.agentId;
    if (this.#data.rows.has(agentId)) throw agentExists(agentId);
    const row: Row = { ...checked, createdAt: this.#now(), state: "waiting", usage: emptyUsage() };
    this.#data.rows.set(agentId, row);
    return this.#entry(agentId, row);
  }

  async get(agentId: string): Promise<TeamRosterEntry | undefined> {
    this.#open();
    checkAgentId(agentId, "TeamRoster.get: agentId");
    const row = this.#data.rows.get(agentId);
    return row && this.#entry(agentId, row);
  }

  async list(): Promise<TeamRosterEntry[]> {
    this.#open();
    return [...this.#data.rows].map(([agentId, row]) => this.#entry(agentId, row));
  }

  async acquire(workerId: string, options: { leaseMs: number; max: number }): Promise<TeamLeaseGrant[]> {
    this.#open();
    checkWorkerId(workerId, "TeamRoster.acquire");
    checkLeaseMs(options?.leaseMs, "TeamRoster.acquire");
    checkMax(options.max, "TeamRoster.acquire");
    const now = this.#now();
    const grants: TeamLeaseGrant[] = [];
    for (const [agentId, row] of this.#data.rows) {
      if (grants.length >= options.max) break;
      if (row.state === "stopped" || this.#live(row, now)) continue;
      const previous = row.lastWorkerId;
      Object.assign(row, { leaseHolder: workerId, leaseExpiresAt: now + options.leaseMs, lastWorkerId: workerId });
      row.state = "running";
      grants.push({
        ...this.#entry(agentId, row),
        workerId,
        ...(previous !== undefined && previous !== workerId && { previousWorkerId: previous }),
      });
    }
    return grants;
  }

  async renew(workerId: string, agentIds: string[], leaseMs: number): Promise<string[]> {
    this.#open();
    checkWorkerId(workerId, "TeamRoster.renew");
    checkLeaseMs(leaseMs, "TeamRoster.renew");
    const now = this.#now();
    return agentIds.filter((agentId) => {
      const row = this.#data.rows.get(agentId);
      if (!row || row.state === "stopped" || !this.#heldBy(row, workerId, now)) return false;
      row.leaseExpiresAt = now + leaseMs;
      return true;
    });
  }

  async release(workerId: string, agentId: string): Promise<boolean> {
    this.#open();
    checkWorkerId(workerId, "TeamRoster.release");
    const row = this.#data.rows.get(agentId);
    if (!row || !this.#heldBy(row, workerId, this.#now())) return false;
    row.leaseHolder = undefined;
    row.leaseExpiresAt = undefined;
    return true;
  }

  async setState(workerId: string, agentId: string, state: "running" | "idle"): Promise<boolean> {
    this.#open();
    checkWorkerId(workerId, "TeamRoster.setState");
    if (state !== "running" && state !== "idle")
      throw new TeamError("team_invalid_input", 'TeamRoster.setState: state must be "running" or "idle"');
    const row = this.#data.rows.get(agentId);
    if (!row || row.state === "stopped" || !this.#heldBy(row, workerId, this.#now())) return false;
    row.state = state;
    return true;
  }

  async stop(
    agentId: string,
    options: { reason: TeammateStopReason; detail?: string; workerId?: string },
  ): Promise<boolean> {
    this.#open();
    checkAgentId(agentId, "TeamRoster.stop: agentId");
    const row = this.#data.rows.get(agentId);
    if (!row || row.state === "stopped") return false;
    if (options.workerId !== undefined && !this.#heldBy(row, options.workerId, this.#now())) return false;
    Object.assign(row, { state: "stopped", stopReason: options.reason, leaseHolder: undefined });
    row.leaseExpiresAt = undefined;
    if (options.detail !== undefined) row.stopDetail = options.detail;
    return true;
  }

  async addUsage(agentId: string, usage: AgentUsage): Promise<void> {
    this.#open();
    const row = this.#data.rows.get(agentId);
    if (row) row.usage = addTurnUsage(row.usage, usage);
  }

  async addTask(input: { title: string; description?: string; createdBy: string }): Promise<TeamTask> {
    this.#open();
    checkTaskInput(input);
    const task = newTask(this.#data.tasks.length + 1, input, this.#now());
    this.#data.tasks.push(task);
    return { ...task };
  }

  async claimTask(agentId: string, taskId?: string): Promise<TeamTask | undefined> {
    this.#open();
    checkTaskCall(agentId, taskId, "claimTask", true);
    const index =
      taskId === undefined
        ? this.#data.tasks.findIndex((t) => t.state === "open")
        : this.#data.tasks.findIndex((t) => t.id === taskId);
    if (index < 0) {
      if (taskId === undefined) return undefined;
      throw notFound(taskId);
    }
    const task = claimed(this.#data.tasks[index]!, agentId, this.#now());
    this.#data.tasks[index] = task;
    return { ...task };
  }

  async completeTask(agentId: string, taskId: string, result?: string): Promise<TeamTask> {
    this.#open();
    checkTaskCall(agentId, taskId, "completeTask");
    const index = this.#data.tasks.findIndex((t) => t.id === taskId);
    if (index < 0) throw notFound(taskId);
    const task = completed(this.#data.tasks[index]!, agentId, result, this.#now());
    this.#data.tasks[index] = task;
    return { ...task };
  }

  async listTasks(): Promise<TeamTask[]> {
    this.#open();
    return this.#data.tasks.map((task) => ({ ...task }));
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #live(row: Row, now: number): boolean {
    return row.leaseHolder !== undefined && row.leaseExpiresAt !== undefined && row.leaseExpiresAt > now;
  }

  #heldBy(row: Row, workerId: string, now: number): boolean {
    return this.#live(row, now) && row.leaseHolder === workerId;
  }

  #entry(agentId: string, row: Row): TeamRosterEntry {
    const live = row.state !== "stopped" && this.#live(row, this.#now());
    return {
      agentId,
      spec: structuredClone(row.spec),
      ...(row.initialPrompt !== undefined && { initialPrompt: row.initialPrompt }),
      createdBy: row.createdBy,
      createdAt: row.createdAt,
      state: row.state === "stopped" ? "stopped" : live ? row.state : "waiting",
      ...(row.stopReason !== undefined && { stopReason: row.stopReason }),
      ...(row.stopDetail !== undefined && { stopDetail: row.stopDetail }),
      ...(live && { workerId: row.leaseHolder!, leaseExpiresAt: row.leaseExpiresAt! }),
      ...(row.lastWorkerId !== undefined && { lastWorkerId: row.lastWorkerId }),
      usage: { ...row.usage },
    };
  }

  #open(): void {
    if (this.#closed) throw rosterClosedError("team roster");
  }
}
