import type { AgentUsage } from "@heddle/shared";
import type { TeammateStopReason } from "../../teams/contract.js";
import {
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
  newTask,
  notFound,
  rosterClosedError,
  TeamError,
  type TeamLeaseGrant,
  type TeamRoster,
  type TeamRosterEntry,
  type TeamTask,
  toUsage,
} from "../../teams/contract.js";
import { connectRedis } from "./redis-connect.js";
import { leaseKey, rosterKeys } from "./redis-keys.js";
import * as script from "./redis-roster-scripts.js";

/** The part of an `ioredis` client the roster uses; `new Redis(url)` fits. */
export interface RedisRosterClientLike {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  hget(key: string, field: string): Promise<string | null>;
  hgetall(key: string): Promise<Record<string, string>>;
  quit(): Promise<unknown>;
}

export interface RedisTeamRosterOptions {
  /** A `redis://` URL; the roster opens (and on `close()` quits) its own connection. */
  url?: string;
  /** A client the host owns (`new Redis(...)` from ioredis); `close()` leaves it open. */
  client?: RedisRosterClientLike;
  /** The team whose roster this is: every key is scoped by it. */
  teamId: string;
  /** Prefix of every key (default `heddle`): the same as the team's `RedisTeamMailbox`. */
  keyPrefix?: string;
}

type StoredState = {
  seq?: number;
  state?: "waiting" | "running" | "idle" | "stopped";
  stopReason?: TeammateStopReason;
  stopDetail?: string;
  lastWorkerId?: string;
};

/**
 * A `TeamRoster` on Redis (`ioredis`, an optional peer dependency loaded on first use), for leads and workers on
 * several hosts. Records live in three hashes per team, a lease is a key Redis expires (`SET NX PX`), and every
 * change is one Lua script, atomic on the server. Lease times are the server's: hosts' clocks do not matter.
 */
export class RedisTeamRoster implements TeamRoster {
  readonly teamId: string;
  readonly #options: RedisTeamRosterOptions;
  readonly #keys: ReturnType<typeof rosterKeys>;
  readonly #prefix: string;
  #client: Promise<RedisRosterClientLike> | undefined;
  #closed = false;

  constructor(options: RedisTeamRosterOptions) {
    if (!options || (!options.url && !options.client))
      throw new TeamError("team_invalid_input", "RedisTeamRoster: give options.url or options.client.");
    checkAgentId(options.teamId, "RedisTeamRoster: options.teamId");
    this.teamId = options.teamId;
    this.#options = options;
    this.#prefix = options.keyPrefix ?? "heddle";
    this.#keys = rosterKeys(this.#prefix, this.teamId);
  }

  async create(input: CreateTeamRosterEntry): Promise<TeamRosterEntry> {
    const checked = checkCreateInput(input);
    const agentId = checked.spec.agentId;
    const record = JSON.stringify({ ...checked, createdAt: Date.now() });
    const { roster, state, usage, seq } = this.#keys;
    const order = await this.#eval(script.CREATE, [roster, state, usage, seq], [agentId, record, Date.now()]);
    if (Number(order) === 0) throw agentExists(agentId);
    return (await this.#snapshot([agentId]))[0]!;
  }

  async get(agentId: string): Promise<TeamRosterEntry | undefined> {
    checkAgentId(agentId, "TeamRoster.get: agentId");
    return (await this.#snapshot([agentId]))[0];
  }

  list(): Promise<TeamRosterEntry[]> {
    return this.#snapshot([]);
  }

  async acquire(workerId: string, options: { leaseMs: number; max: number }): Promise<TeamLeaseGrant[]> {
    checkWorkerId(workerId, "TeamRoster.acquire");
    checkLeaseMs(options?.leaseMs, "TeamRoster.acquire");
    checkMax(options.max, "TeamRoster.acquire");
    if (options.max === 0) return [];
    const { state, leasePrefix } = this.#keys;
    const pairs = asStrings(
      await this.#eval(script.ACQUIRE, [state], [leasePrefix, workerId, options.leaseMs, options.max, Date.now()]),
    );
    const previous = new Map<string, string>();
    for (let i = 0; i + 1 < pairs.length; i += 2) previous.set(pairs[i]!, pairs[i + 1]!);
    if (previous.size === 0) return [];
    const entries = await this.#snapshot([...previous.keys()]);
    return entries.map((entry) => {
      const before = previous.get(entry.agentId);
      return { ...entry, workerId, ...(before && before !== workerId && { previousWorkerId: before }) };
    });
  }

  async renew(workerId: string, agentIds: string[], leaseMs: number): Promise<string[]> {
    checkWorkerId(workerId, "TeamRoster.renew");
    checkLeaseMs(leaseMs, "TeamRoster.renew");
    if (agentIds.length === 0) return [];
    const keys = agentIds.map((id) => this.#lease(id));
    const kept = (await this.#eval(script.RENEW, keys, [workerId, leaseMs])) as number[];
    return kept.map((index) => agentIds[Number(index) - 1]!);
  }

  async release(workerId: string, agentId: string): Promise<boolean> {
    checkWorkerId(workerId, "TeamRoster.release");
    return Number(await this.#eval(script.RELEASE, [this.#lease(agentId)], [workerId])) === 1;
  }

  async setState(workerId: string, agentId: string, state: "running" | "idle"): Promise<boolean> {
    checkWorkerId(workerId, "TeamRoster.setState");
    if (state !== "running" && state !== "idle")
      throw new TeamError("team_invalid_input", 'TeamRoster.setState: state must be "running" or "idle"');
    const keys = [this.#lease(agentId), this.#keys.state];
    return Number(await this.#eval(script.SET_STATE, keys, [workerId, agentId, state, Date.now()])) === 1;
  }

  async stop(
    agentId: string,
    options: { reason: TeammateStopReason; detail?: string; workerId?: string },
  ): Promise<boolean> {
    const keys = [this.#lease(agentId), this.#keys.state];
    const args = [agentId, options.reason, options.detail ?? "", options.workerId ?? "", Date.now()];
    return Number(await this.#eval(script.STOP, keys, args)) === 1;
  }

  async addUsage(agentId: string, usage: AgentUsage): Promise<void> {
    checkAgentId(agentId, "TeamRoster.addUsage: agentId");
    const numbers = script.USAGE_ORDER.map((field) => {
      const value = usage?.[field];
      return typeof value === "number" && Number.isFinite(value) ? value : 0;
    });
    await this.#eval(script.ADD_USAGE, [this.#keys.usage, this.#keys.roster], [agentId, ...numbers]);
  }

  async addTask(input: { title: string; description?: string; createdBy: string }): Promise<TeamTask> {
    checkTaskInput(input);
    const { id: _id, ...task } = newTask(0, input, Date.now());
    const json = await this.#eval(script.ADD_TASK, [this.#keys.tasks, this.#keys.taskSeq], [JSON.stringify(task)]);
    return toTask(String(json));
  }

  async claimTask(agentId: string, taskId?: string): Promise<TeamTask | undefined> {
    checkTaskCall(agentId, taskId, "claimTask", true);
    for (;;) {
      const stored = taskId === undefined ? await this.#oldestOpen() : await this.#task(taskId);
      if (!stored) return undefined;
      const next = claimed(toTask(stored), agentId, Date.now());
      if (await this.#replaceTask(next, stored)) return next;
    }
  }

  async completeTask(agentId: string, taskId: string, result?: string): Promise<TeamTask> {
    checkTaskCall(agentId, taskId, "completeTask");
    for (;;) {
      const stored = (await this.#task(taskId))!;
      const next = completed(toTask(stored), agentId, result, Date.now());
      if (await this.#replaceTask(next, stored)) return next;
    }
  }

  async listTasks(): Promise<TeamTask[]> {
    const all = await this.#call((redis) => redis.hgetall(this.#keys.tasks));
    return Object.values(all)
      .map((json) => JSON.parse(json) as TeamTask & { seq: number })
      .sort((a, b) => a.seq - b.seq)
      .map(({ seq: _seq, ...task }) => task);
  }

  /** Quits the connection the roster opened (a client passed in stays open). Calls after it reject. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    if (client && !this.#options.client) await (await client.catch(() => undefined))?.quit();
  }

  async #task(taskId: string): Promise<string> {
    const stored = await this.#call((redis) => redis.hget(this.#keys.tasks, taskId));
    if (stored === null) throw notFound(taskId);
    return stored;
  }

  async #oldestOpen(): Promise<string | undefined> {
    const all = Object.values(await this.#call((redis) => redis.hgetall(this.#keys.tasks)));
    return all
      .map((json) => ({ json, task: JSON.parse(json) as TeamTask & { seq: number } }))
      .filter(({ task }) => task.state === "open")
      .sort((a, b) => a.task.seq - b.task.seq)[0]?.json;
  }

  // Compare and set: the task is replaced only if nobody changed it since it was read (else the caller reads again).
  async #replaceTask(task: TeamTask, before: string): Promise<boolean> {
    const seq = (JSON.parse(before) as { seq: number }).seq;
    const json = JSON.stringify({ ...task, seq });
    return Number(await this.#eval(script.REPLACE_TASK, [this.#keys.tasks], [task.id, before, json])) === 1;
  }

  async #snapshot(agentIds: string[]): Promise<TeamRosterEntry[]> {
    const { roster, state, usage, leasePrefix } = this.#keys;
    const now = Date.now();
    const flat = asStrings(await this.#eval(script.SNAPSHOT, [roster, state, usage], [leasePrefix, ...agentIds]));
    const rows: Array<TeamRosterEntry & { seq: number }> = [];
    for (let i = 0; i + 5 < flat.length; i += 6) {
      const [agentId, rawRecord, rawState, rawUsage, holder, ttl] = flat.slice(i, i + 6) as string[];
      const record = JSON.parse(rawRecord!) as CreateTeamRosterEntry & { createdAt: number };
      const st = JSON.parse(rawState!) as StoredState;
      const live = st.state !== "stopped" && holder !== "" && Number(ttl) > 0;
      rows.push({
        seq: st.seq ?? 0,
        agentId: agentId!,
        spec: record.spec,
        ...(record.initialPrompt !== undefined && { initialPrompt: record.initialPrompt }),
        createdBy: record.createdBy,
        createdAt: record.createdAt,
        state: st.state === "stopped" ? "stopped" : live ? (st.state ?? "running") : "waiting",
        ...(st.stopReason !== undefined && { stopReason: st.stopReason }),
        ...(st.stopDetail !== undefined && { stopDetail: st.stopDetail }),
        ...(live && { workerId: holder!, leaseExpiresAt: now + Number(ttl) }),
        ...(st.lastWorkerId !== undefined && { lastWorkerId: st.lastWorkerId }),
        usage: toUsage(JSON.parse(rawUsage!)),
      });
    }
    return rows.sort((a, b) => a.seq - b.seq).map(({ seq: _seq, ...entry }) => entry);
  }

  #lease(agentId: string): string {
    checkAgentId(agentId, "agentId");
    return leaseKey(this.#prefix, this.teamId, agentId);
  }

  #eval(body: string, keys: string[], args: (string | number)[]): Promise<unknown> {
    return this.#call((redis) => redis.eval(body, keys.length, ...keys, ...args));
  }

  // A call close() overtakes rejects with team_roster_closed, like every call after close().
  async #call<T>(work: (redis: RedisRosterClientLike) => Promise<T>): Promise<T> {
    try {
      return await work(await this.#redis());
    } catch (error) {
      if (this.#closed && !(error instanceof TeamError && error.code === "team_roster_closed"))
        throw new TeamError("team_roster_closed", "The Redis team roster is closed.", { cause: error });
      throw error;
    }
  }

  #redis(): Promise<RedisRosterClientLike> {
    if (this.#closed) return Promise.reject(rosterClosedError("Redis team roster"));
    this.#client ??= this.#options.client
      ? Promise.resolve(this.#options.client)
      : connectRedis<RedisRosterClientLike>(this.#options.url!, "RedisTeamRoster");
    return this.#client;
  }
}

function asStrings(reply: unknown): string[] {
  return Array.isArray(reply) ? reply.map((value) => String(value)) : [];
}

function toTask(json: string): TeamTask {
  const { seq: _seq, ...task } = JSON.parse(json) as TeamTask & { seq: number };
  return task;
}
