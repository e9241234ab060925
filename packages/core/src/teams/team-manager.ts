import { InMemoryTeamRoster } from "../backends/memory/index.js";
import { type AgentHost, createAgentHost } from "../host/index.js";
import { MemorySessionStore, type SessionStore } from "../sessions/index.js";
import { TeamAgentExistsError, TeamError } from "./errors.js";
import { checkAgentId, type TeamMailbox, type TeamMailboxMessage } from "./mailbox.js";
import { formatShutdownRequest } from "./protocol.js";
import type { TeammateSpec, TeamRoster, TeamTaskBoard } from "./roster.js";
import { leadDefaults, recordTeammate, rosterStatus, rosterUsage } from "./roster-lead.js";
import { TeamGovernor, type TeamLimits } from "./team-governor.js";
import { TeammateRunner } from "./teammate-runner.js";
import type { TeammateEvent, TeammateOptions, TeammateStatus, TeamUsage } from "./teammate-types.js";

/**
 * `Local` for a manager without a roster (`R` undefined), `Remote` for one with a roster; both when unknown. A
 * roster lives in a store, so what reads or writes it is async.
 */
export type WithRoster<R extends TeamRoster | undefined, Local, Remote> = [R] extends [undefined]
  ? Local
  : [R] extends [TeamRoster]
    ? Remote
    : Local | Remote;

/** What `AgentTeamManager` takes: where messages and sessions live, the team's policy and limits, and defaults. */
export interface AgentTeamManagerOptions<R extends TeamRoster | undefined = TeamRoster | undefined>
  extends Partial<Omit<TeammateOptions, "agentId" | "sessionId">> {
  mailbox: TeamMailbox;
  /**
   * The team's durable record (`InMemoryTeamRoster`, `SqliteTeamRoster`, `RedisTeamRoster`). With it, this manager
   * is a lead that runs no teammate itself: `spawn` records a teammate and its first task, workers
   * (`runTeamWorker` with the same roster) run it, and `status()` and `usage()` read the roster (async). Without a
   * model, tools or session options: those are the workers'.
   */
  roster?: R;
  /** Where teammates' sessions live (default: a `MemorySessionStore`, so nothing survives the process). */
  store?: SessionStore;
  /** Stamped on every message the manager and its teammates send; part of each teammate's session id. */
  teamId?: string;
  /** The lead's agent id: the only sender whose shutdown requests count, the parent of every teammate (default `lead`). */
  leadId?: string;
  /** Teammates send a `task_notification` to whoever gave a task when its turn ends (default true). */
  notifyOnTurnEnd?: boolean;
  /**
   * The host whose policy the team runs under (a lead session's `session.host`): every teammate's tool rules,
   * approver, hooks and limits can only narrow it. Without it, the team is the root, and `commandHooks` here
   * (never per teammate) are its hooks.
   */
  host?: AgentHost;
  /** Bounds of the team: teammates, turns, spend, message size, reply chains (see `TeamLimits` for defaults). */
  limits?: TeamLimits;
}

export type TeamListener = (event: TeammateEvent) => void;

/**
 * A team of long-lived teammates, each with its own session, fed by one mailbox, all started under one team host
 * and bounded by the team's limits. The manager creates them, sends them messages and shutdown requests, reports
 * their state, and stops them. It never closes the mailbox or the store it was given.
 */
export class AgentTeamManager<R extends TeamRoster | undefined = undefined> {
  readonly mailbox: TeamMailbox;
  /** The roster given (then this manager is a lead whose teammates run on workers), else `undefined`. */
  readonly roster: R;
  readonly store: SessionStore;
  readonly teamId: string | undefined;
  readonly leadId: string;
  /** The host every teammate's session runs under. */
  readonly host: AgentHost;
  readonly #governor: TeamGovernor;
  readonly #defaults: Partial<TeammateOptions>;
  readonly #notifyOnTurnEnd: boolean;
  readonly #teammates = new Map<string, TeammateRunner>();
  readonly #background = new Map<string, Promise<void>>();
  readonly #listeners = new Set<TeamListener>();
  readonly #specDefaults: Partial<TeammateSpec>;
  #tasks: TeamTaskBoard | undefined;

  constructor(options: AgentTeamManagerOptions<R>) {
    if (!options || typeof options.mailbox?.send !== "function")
      throw new TeamError("team_invalid_input", "AgentTeamManager: options.mailbox must be a TeamMailbox");
    const { mailbox, store, roster, teamId, leadId, notifyOnTurnEnd, host, limits, commandHooks, ...defaults } =
      options;
    if (roster !== undefined && typeof (roster as TeamRoster | null)?.acquire !== "function")
      throw new TeamError("team_invalid_input", "AgentTeamManager: options.roster must be a TeamRoster");
    this.#specDefaults = roster ? leadDefaults(options as unknown as Record<string, unknown>) : {};
    if (roster && teamId !== undefined && teamId !== roster.teamId)
      throw new TeamError(
        "team_invalid_input",
        `AgentTeamManager: teamId "${teamId}" is not the roster's ("${roster.teamId}")`,
      );
    this.mailbox = mailbox;
    this.roster = roster as R;
    this.store = store ?? new MemorySessionStore();
    this.teamId = roster?.teamId ?? teamId;
    this.leadId = leadId ?? "lead";
    checkAgentId(this.leadId, "AgentTeamManager: leadId");
    this.#notifyOnTurnEnd = notifyOnTurnEnd ?? true;
    this.#defaults = defaults;
    this.#governor = new TeamGovernor(limits);
    if (host && commandHooks)
      throw new TeamError(
        "team_invalid_input",
        "AgentTeamManager: with a parent host, the team runs the host's command hooks; commandHooks cannot be given too",
      );
    if (commandHooks && !defaults.workspaceRoot)
      throw new TeamError("team_invalid_input", 'AgentTeamManager: "commandHooks" needs "workspaceRoot"');
    // The team's own policy is empty: each teammate's options (the defaults here, then its own) narrow the parent.
    const parent =
      host ??
      createAgentHost(
        commandHooks ? { commandHooks: { ...commandHooks, workspaceRoot: defaults.workspaceRoot! } } : {},
      );
    this.host = parent.child({}, { scope: this.#governor.scope, spendRollsUp: true });
  }

  /** The team's limits, defaults filled in. */
  get limits(): TeamGovernor["limits"] {
    return this.#governor.limits;
  }

  /**
   * The team's turns and spend so far. Without a roster: this process's teammates, now. With one: every teammate
   * on every worker, summed from the roster (each finished turn's usage, as its worker recorded it).
   */
  usage(): WithRoster<R, { turns: number; costUsd: number }, Promise<TeamUsage>> {
    if (this.roster) return rosterUsage(this.roster) as never;
    return { turns: this.#governor.turns, costUsd: this.#governor.scope.spentUsd } as never;
  }

  /** The team's shared task list (`team_tasks`): the roster's, or without one a list in this process's memory. */
  get tasks(): TeamTaskBoard {
    this.#tasks ??= this.roster ?? new InMemoryTeamRoster({ teamId: this.teamId ?? "team" });
    return this.#tasks;
  }

  /**
   * Makes a teammate (not started: iterate `run(prompt)`, or use `spawn`). Its id must be new to this manager; a
   * team already at `limits.maxTeammates` running teammates refuses it with a `TeamLimitError`.
   */
  createTeammate(options: TeammateOptions): TeammateRunner {
    if (this.roster)
      throw new TeamError(
        "team_invalid_input",
        "createTeammate: this manager has a roster, so its teammates run on workers; spawn() records one",
      );
    if (!options || typeof options !== "object")
      throw new TeamError("team_invalid_input", "createTeammate: options must be an object");
    checkAgentId(options.agentId, "createTeammate: agentId");
    if (options.agentId === this.leadId)
      throw new TeamError("team_invalid_input", `createTeammate: "${options.agentId}" is the lead's id`);
    const existing = this.#teammates.get(options.agentId);
    if (existing && existing.state !== "stopped") throw new TeamAgentExistsError(options.agentId);
    if (options.commandHooks !== undefined || options.host !== undefined)
      throw new TeamError(
        "team_invalid_input",
        `createTeammate(${options.agentId}): command hooks and the host are the team's, not a teammate's`,
      );
    const merged: TeammateOptions = { ...this.#defaults, ...options };
    if (!merged.model && (!merged.providerId || !merged.modelId))
      throw new TeamError(
        "team_invalid_input",
        `createTeammate(${options.agentId}): give "model", or "providerId" and "modelId" (here or as a team default)`,
      );
    const running = [...this.#teammates.values()].filter((runner) => runner.state !== "stopped").length;
    this.#governor.admitTeammate(running, options.agentId);
    const runner = new TeammateRunner(merged, {
      mailbox: this.mailbox,
      store: this.store,
      ...(this.teamId !== undefined && { teamId: this.teamId }),
      leadId: this.leadId,
      notifyOnTurnEnd: this.#notifyOnTurnEnd,
      host: this.host,
      governor: this.#governor,
      emit: (event) => this.#emit(event),
    });
    this.#teammates.set(options.agentId, runner);
    return runner;
  }

  /**
   * Without a roster: creates a teammate and runs it in the background (its events reach `subscribe` listeners).
   * With a roster: records the teammate (a `TeammateSpec`: plain data) and its first task, for a worker to take;
   * resolves with its status row (`waiting`). An id the roster has, recorded by any lead, is a
   * `TeamAgentExistsError`; a team at `limits.maxTeammates` teammates not stopped, a `TeamLimitError`.
   */
  spawn(
    options: WithRoster<R, TeammateOptions, TeammateSpec>,
    initialPrompt?: string,
  ): WithRoster<R, TeammateRunner, Promise<TeammateStatus>> {
    if (this.roster) {
      const spec = { ...this.#specDefaults, ...(options as TeammateSpec) };
      return recordTeammate(this.roster, spec, initialPrompt, {
        leadId: this.leadId,
        governor: this.#governor,
      }) as never;
    }
    return this.#spawnHere(options as TeammateOptions, initialPrompt) as never;
  }

  #spawnHere(options: TeammateOptions, initialPrompt?: string): TeammateRunner {
    const runner = this.createTeammate(options);
    const drain = (async () => {
      for await (const _event of runner.run(initialPrompt)) {
        // Listeners already heard it.
      }
    })().catch(() => {
      // The failure is in the teammate's `stopped` event and its status.
    });
    this.#background.set(runner.agentId, drain);
    return runner;
  }

  get(agentId: string): TeammateRunner | undefined {
    return this.#teammates.get(agentId);
  }

  /** Listens to every teammate's events; returns the function that stops listening. */
  subscribe(listener: TeamListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Puts a message in `agentId`'s mailbox; a busy teammate takes it between its turns. A text over
   * `limits.maxMessageBytes` is refused with a `TeamLimitError`. A message from a teammate during its turn is a
   * link of that turn's reply chain.
   */
  async send(agentId: string, text: string, from: string = this.leadId): Promise<TeamMailboxMessage> {
    if (typeof text === "string") this.#governor.admitMessage(text);
    const sent = await this.mailbox.send({
      to: agentId,
      from,
      kind: "user",
      text,
      ...(this.teamId !== undefined && { teamId: this.teamId }),
    });
    if (from !== this.leadId && agentId !== this.leadId)
      this.#governor.recordMessage(sent.id, this.#teammates.get(from)?.currentLink);
    return sent;
  }

  /**
   * Asks a teammate to shut down (`<shutdown_request from=".." reason=".."/>`); see `autoApproveShutdown`. Only a
   * request from the lead is a control: one from anyone else reaches the teammate as an ordinary message.
   */
  requestShutdown(agentId: string, from: string = this.leadId, reason?: string): Promise<TeamMailboxMessage> {
    const text = formatShutdownRequest(from, reason);
    try {
      this.#governor.admitMessage(text);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.mailbox.send({
      to: agentId,
      from,
      kind: "shutdown_request",
      text,
      ...(this.teamId !== undefined && { teamId: this.teamId }),
    });
  }

  /**
   * Stops one teammate now (its running turn is aborted, its message stays unread); false when not running. With a
   * roster: records it stopped for good; its worker stops it at its next lease renewal (within `leaseMs / 3`).
   */
  async stop(agentId: string): Promise<boolean> {
    if (this.roster) return this.roster.stop(agentId, { reason: "stopped" });
    const runner = this.#teammates.get(agentId);
    if (!runner) return false;
    const stopped = await runner.stop();
    await this.#background.get(agentId);
    this.#background.delete(agentId);
    return stopped;
  }

  /**
   * Stops every teammate and waits until none runs a turn or holds its session. With a roster: records every
   * teammate stopped (for good, on every worker); a lead that leaves the team running just exits instead.
   */
  async stopAll(): Promise<void> {
    if (this.roster) {
      const roster: TeamRoster = this.roster;
      await Promise.all((await roster.list()).map((entry) => roster.stop(entry.agentId, { reason: "stopped" })));
      return;
    }
    await Promise.all([...this.#teammates.keys()].map((agentId) => this.stop(agentId)));
  }

  /**
   * Every teammate this manager made, in creation order. With a roster: every teammate of the roster, whichever lead
   * recorded it, with the worker that holds it (`workerId`), its state there, and its usage on every worker.
   */
  status(): WithRoster<R, TeammateStatus[], Promise<TeammateStatus[]>> {
    if (this.roster) return rosterStatus(this.roster) as never;
    return [...this.#teammates.values()].map((runner) => runner.status()) as never;
  }

  #emit(event: TeammateEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own; the team goes on.
      }
    }
  }
}
