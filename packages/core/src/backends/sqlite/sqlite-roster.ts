import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { AgentUsage } from "@heddle/shared";
import type Database from "better-sqlite3";
import type { TeammateStopReason } from "../../teams/contract.js";
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
  TeamDatabaseError,
  TeamError,
  type TeamLeaseGrant,
  type TeamRoster,
  type TeamRosterEntry,
  type TeamTask,
  toUsage,
} from "../../teams/contract.js";
import { openSqliteDatabase } from "./driver.js";
import { sqliteFileProblem } from "./sqlite-errors.js";
import { migrate } from "./sqlite-roster-schema.js";

export interface SqliteTeamRosterOptions {
  /** The database file (the sessions and mailbox file works: the roster keeps to its own tables). */
  path: string;
  /** The team these records belong to (default `team`): one file can hold several teams. */
  teamId?: string;
  /** How long a writer waits for another process's lock before failing (ms, default 5000). */
  busyTimeoutMs?: number;
  /** The clock leases are measured by (default `Date.now`: every process on the machine shares it). */
  now?: () => number;
}

interface RosterRow {
  agent_id: string;
  record: string;
  state: "waiting" | "running" | "idle" | "stopped";
  stop_reason: TeammateStopReason | null;
  stop_detail: string | null;
  lease_holder: string | null;
  lease_expires_at: number | null;
  last_worker_id: string | null;
  usage: string;
}

/**
 * A durable `TeamRoster` on better-sqlite3 (WAL, busy timeout): workers and leads in several processes of one
 * machine share one file. Each change is one immediate transaction; leases are measured by the machine's clock.
 */
export class SqliteTeamRoster implements TeamRoster {
  readonly teamId: string;
  readonly path: string;
  readonly #now: () => number;
  #db: Database.Database | undefined;

  constructor(options: SqliteTeamRosterOptions) {
    if (!options || typeof options.path !== "string" || options.path === "")
      throw new TeamError("team_invalid_input", "SqliteTeamRoster: options.path must be a file path (or ':memory:').");
    this.teamId = options.teamId ?? "team";
    checkAgentId(this.teamId, "SqliteTeamRoster: teamId");
    this.path = options.path;
    this.#now = options.now ?? Date.now;
    let db: Database.Database | undefined;
    try {
      if (options.path !== ":memory:") mkdirSync(dirname(resolve(options.path)), { recursive: true });
      db = openSqliteDatabase(options.path);
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      db.pragma("journal_mode = WAL");
      migrate(db, options.path);
    } catch (error) {
      db?.close();
      throw fileError(error, options.path);
    }
    this.#db = db;
  }

  create(input: CreateTeamRosterEntry): Promise<TeamRosterEntry> {
    return this.#write((db) => {
      const checked = checkCreateInput(input);
      const agentId = checked.spec.agentId;
      if (db.prepare("SELECT 1 FROM team_roster WHERE team_id = ? AND agent_id = ?").get(this.teamId, agentId))
        throw agentExists(agentId);
      const { seq } = db
        .prepare("SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM team_roster WHERE team_id = ?")
        .get(this.teamId) as { seq: number };
      const record = JSON.stringify({ ...checked, createdAt: this.#now() });
      db.prepare(
        `INSERT INTO team_roster (team_id, agent_id, seq, record, state, usage)
         VALUES (?, ?, ?, ?, 'waiting', ?)`,
      ).run(this.teamId, agentId, seq, record, JSON.stringify(emptyUsage()));
      return this.#entry(this.#row(db, agentId)!);
    });
  }

  get(agentId: string): Promise<TeamRosterEntry | undefined> {
    return this.#read((db) => {
      checkAgentId(agentId, "TeamRoster.get: agentId");
      const row = this.#row(db, agentId);
      return row && this.#entry(row);
    });
  }

  list(): Promise<TeamRosterEntry[]> {
    return this.#read((db) =>
      (db.prepare("SELECT * FROM team_roster WHERE team_id = ? ORDER BY seq").all(this.teamId) as RosterRow[]).map(
        (row) => this.#entry(row),
      ),
    );
  }

  acquire(workerId: string, options: { leaseMs: number; max: number }): Promise<TeamLeaseGrant[]> {
    return this.#write((db) => {
      checkWorkerId(workerId, "TeamRoster.acquire");
      checkLeaseMs(options?.leaseMs, "TeamRoster.acquire");
      checkMax(options.max, "TeamRoster.acquire");
      const now = this.#now();
      const free = db
        .prepare(
          `SELECT * FROM team_roster WHERE team_id = ? AND state != 'stopped'
           AND (lease_holder IS NULL OR lease_expires_at <= ?) ORDER BY seq LIMIT ?`,
        )
        .all(this.teamId, now, options.max) as RosterRow[];
      const take = db.prepare(
        `UPDATE team_roster SET lease_holder = ?, lease_expires_at = ?, last_worker_id = ?, state = 'running'
         WHERE team_id = ? AND agent_id = ?`,
      );
      return free.map((row) => {
        take.run(workerId, now + options.leaseMs, workerId, this.teamId, row.agent_id);
        const previous = row.last_worker_id;
        return {
          ...this.#entry(this.#row(db, row.agent_id)!),
          workerId,
          ...(previous !== null && previous !== workerId && { previousWorkerId: previous }),
        };
      });
    });
  }

  renew(workerId: string, agentIds: string[], leaseMs: number): Promise<string[]> {
    return this.#write((db) => {
      checkWorkerId(workerId, "TeamRoster.renew");
      checkLeaseMs(leaseMs, "TeamRoster.renew");
      const now = this.#now();
      const extend = db.prepare(
        `UPDATE team_roster SET lease_expires_at = ? WHERE team_id = ? AND agent_id = ? AND state != 'stopped'
         AND lease_holder = ? AND lease_expires_at > ?`,
      );
      return agentIds.filter((id) => extend.run(now + leaseMs, this.teamId, id, workerId, now).changes === 1);
    });
  }

  release(workerId: string, agentId: string): Promise<boolean> {
    return this.#write((db) => {
      checkWorkerId(workerId, "TeamRoster.release");
      return (
        db
          .prepare(
            `UPDATE team_roster SET lease_holder = NULL, lease_expires_at = NULL
             WHERE team_id = ? AND agent_id = ? AND lease_holder = ? AND lease_expires_at > ?`,
          )
          .run(this.teamId, agentId, workerId, this.#now()).changes === 1
      );
    });
  }

  setState(workerId: string, agentId: string, state: "running" | "idle"): Promise<boolean> {
    return this.#write((db) => {
      checkWorkerId(workerId, "TeamRoster.setState");
      if (state !== "running" && state !== "idle")
        throw new TeamError("team_invalid_input", 'TeamRoster.setState: state must be "running" or "idle"');
      return (
        db
          .prepare(
            `UPDATE team_roster SET state = ? WHERE team_id = ? AND agent_id = ? AND state != 'stopped'
             AND lease_holder = ? AND lease_expires_at > ?`,
          )
          .run(state, this.teamId, agentId, workerId, this.#now()).changes === 1
      );
    });
  }

  stop(agentId: string, options: { reason: TeammateStopReason; detail?: string; workerId?: string }): Promise<boolean> {
    return this.#write((db) => {
      checkAgentId(agentId, "TeamRoster.stop: agentId");
      const fenced = options.workerId !== undefined;
      return (
        db
          .prepare(
            `UPDATE team_roster SET state = 'stopped', stop_reason = ?, stop_detail = ?, lease_holder = NULL,
             lease_expires_at = NULL WHERE team_id = ? AND agent_id = ? AND state != 'stopped'
             ${fenced ? "AND lease_holder = ? AND lease_expires_at > ?" : ""}`,
          )
          .run(
            options.reason,
            options.detail ?? null,
            this.teamId,
            agentId,
            ...(fenced ? [options.workerId!, this.#now()] : []),
          ).changes === 1
      );
    });
  }

  addUsage(agentId: string, usage: AgentUsage): Promise<void> {
    return this.#write((db) => {
      const row = this.#row(db, agentId);
      if (!row) return;
      const next = addTurnUsage(toUsage(JSON.parse(row.usage)), usage);
      db.prepare("UPDATE team_roster SET usage = ? WHERE team_id = ? AND agent_id = ?").run(
        JSON.stringify(next),
        this.teamId,
        agentId,
      );
    });
  }

  addTask(input: { title: string; description?: string; createdBy: string }): Promise<TeamTask> {
    return this.#write((db) => {
      checkTaskInput(input);
      const { seq } = db
        .prepare("SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM team_tasks WHERE team_id = ?")
        .get(this.teamId) as { seq: number };
      const task = newTask(seq, input, this.#now());
      db.prepare("INSERT INTO team_tasks (team_id, seq, id, record) VALUES (?, ?, ?, ?)").run(
        this.teamId,
        seq,
        task.id,
        JSON.stringify(task),
      );
      return task;
    });
  }

  claimTask(agentId: string, taskId?: string): Promise<TeamTask | undefined> {
    return this.#write((db) => {
      checkTaskCall(agentId, taskId, "claimTask", true);
      const row = (
        taskId === undefined
          ? db
              .prepare(
                `SELECT record FROM team_tasks WHERE team_id = ? AND json_extract(record, '$.state') = 'open'
                 ORDER BY seq LIMIT 1`,
              )
              .get(this.teamId)
          : db.prepare("SELECT record FROM team_tasks WHERE team_id = ? AND id = ?").get(this.teamId, taskId)
      ) as { record: string } | undefined;
      if (!row) {
        if (taskId === undefined) return undefined;
        throw notFound(taskId);
      }
      return this.#saveTask(db, claimed(JSON.parse(row.record), agentId, this.#now()));
    });
  }

  completeTask(agentId: string, taskId: string, result?: string): Promise<TeamTask> {
    return this.#write((db) => {
      checkTaskCall(agentId, taskId, "completeTask");
      const row = db.prepare("SELECT record FROM team_tasks WHERE team_id = ? AND id = ?").get(this.teamId, taskId) as
        | { record: string }
        | undefined;
      if (!row) throw notFound(taskId);
      return this.#saveTask(db, completed(JSON.parse(row.record), agentId, result, this.#now()));
    });
  }

  listTasks(): Promise<TeamTask[]> {
    return this.#read((db) =>
      (
        db.prepare("SELECT record FROM team_tasks WHERE team_id = ? ORDER BY seq").all(this.teamId) as {
          record: string;
        }[]
      ).map((row) => JSON.parse(row.record) as TeamTask),
    );
  }

  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    db?.close();
  }

  #saveTask(db: Database.Database, task: TeamTask): TeamTask {
    db.prepare("UPDATE team_tasks SET record = ? WHERE team_id = ? AND id = ?").run(
      JSON.stringify(task),
      this.teamId,
      task.id,
    );
    return task;
  }

  #row(db: Database.Database, agentId: string): RosterRow | undefined {
    return db.prepare("SELECT * FROM team_roster WHERE team_id = ? AND agent_id = ?").get(this.teamId, agentId) as
      | RosterRow
      | undefined;
  }

  #entry(row: RosterRow): TeamRosterEntry {
    const record = JSON.parse(row.record) as CreateTeamRosterEntry & { createdAt: number };
    const live =
      row.state !== "stopped" &&
      row.lease_holder !== null &&
      row.lease_expires_at !== null &&
      row.lease_expires_at > this.#now();
    return {
      agentId: row.agent_id,
      spec: record.spec,
      ...(record.initialPrompt !== undefined && { initialPrompt: record.initialPrompt }),
      createdBy: record.createdBy,
      createdAt: record.createdAt,
      state: row.state === "stopped" ? "stopped" : live ? row.state : "waiting",
      ...(row.stop_reason !== null && { stopReason: row.stop_reason }),
      ...(row.stop_detail !== null && { stopDetail: row.stop_detail }),
      ...(live && { workerId: row.lease_holder!, leaseExpiresAt: row.lease_expires_at! }),
      ...(row.last_worker_id !== null && { lastWorkerId: row.last_worker_id }),
      usage: toUsage(JSON.parse(row.usage)),
    };
  }

  // One immediate transaction per change: the write lock is taken before the read, so two processes never both
  // see a teammate free and both lease it.
  #write<T>(body: (db: Database.Database) => T): Promise<T> {
    return this.#read((db) => db.transaction(() => body(db)).immediate());
  }

  #read<T>(body: (db: Database.Database) => T): Promise<T> {
    try {
      if (!this.#db) throw rosterClosedError(`team roster on ${this.path}`);
      return Promise.resolve(body(this.#db));
    } catch (error) {
      return Promise.reject(fileError(error, this.path));
    }
  }
}

function fileError(error: unknown, path: string): unknown {
  if (error instanceof TeamError) return error;
  const problem = sqliteFileProblem(error, path, "team roster database");
  return problem ? new TeamDatabaseError(problem.code, path, problem.message, error) : error;
}
