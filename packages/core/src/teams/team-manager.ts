import { MemorySessionStore, type SessionStore } from "../sessions/index.js";
import { TeamError } from "./errors.js";
import { checkAgentId, type TeamMailbox, type TeamMailboxMessage } from "./mailbox.js";
import { formatShutdownRequest } from "./protocol.js";
import { type TeammateEvent, type TeammateOptions, TeammateRunner, type TeammateStatus } from "./teammate-runner.js";

/** What `AgentTeamManager` takes: where messages and sessions live, and defaults for every teammate. */
export interface AgentTeamManagerOptions extends Partial<Omit<TeammateOptions, "agentId" | "sessionId">> {
  mailbox: TeamMailbox;
  /** Where teammates' sessions live (default: a `MemorySessionStore`, so nothing survives the process). */
  store?: SessionStore;
  /** Stamped on every message the manager and its teammates send; part of each teammate's session id. */
  teamId?: string;
  /** The lead's agent id: the default sender, the parent of every teammate (default `lead`). */
  leadId?: string;
  /** Teammates send a `task_notification` to whoever gave a task when its turn ends (default true). */
  notifyOnTurnEnd?: boolean;
}

export type TeamListener = (event: TeammateEvent) => void;

/**
 * A team of long-lived teammates, each with its own session, fed by one mailbox. The manager creates them,
 * sends them messages and shutdown requests, reports their state, and stops them. It never closes the mailbox
 * or the store it was given.
 */
export class AgentTeamManager {
  readonly mailbox: TeamMailbox;
  readonly store: SessionStore;
  readonly teamId: string | undefined;
  readonly leadId: string;
  readonly #defaults: Partial<TeammateOptions>;
  readonly #notifyOnTurnEnd: boolean;
  readonly #teammates = new Map<string, TeammateRunner>();
  readonly #background = new Map<string, Promise<void>>();
  readonly #listeners = new Set<TeamListener>();

  constructor(options: AgentTeamManagerOptions) {
    if (!options || typeof options.mailbox?.send !== "function")
      throw new TeamError("team_invalid_input", "AgentTeamManager: options.mailbox must be a TeamMailbox");
    const { mailbox, store, teamId, leadId, notifyOnTurnEnd, ...defaults } = options;
    this.mailbox = mailbox;
    this.store = store ?? new MemorySessionStore();
    this.teamId = teamId;
    this.leadId = leadId ?? "lead";
    checkAgentId(this.leadId, "AgentTeamManager: leadId");
    this.#notifyOnTurnEnd = notifyOnTurnEnd ?? true;
    this.#defaults = defaults;
  }

  /** Makes a teammate (not started: iterate `run(prompt)`, or use `spawn`). Its id must be new to this manager. */
  createTeammate(options: TeammateOptions): TeammateRunner {
    if (!options || typeof options !== "object")
      throw new TeamError("team_invalid_input", "createTeammate: options must be an object");
    checkAgentId(options.agentId, "createTeammate: agentId");
    if (options.agentId === this.leadId)
      throw new TeamError("team_invalid_input", `createTeammate: "${options.agentId}" is the lead's id`);
    const existing = this.#teammates.get(options.agentId);
    if (existing && existing.state !== "stopped")
      throw new TeamError("team_agent_exists", `A teammate "${options.agentId}" is already in the team.`);
    const merged: TeammateOptions = { ...this.#defaults, ...options };
    if (!merged.model && (!merged.providerId || !merged.modelId))
      throw new TeamError(
        "team_invalid_input",
        `createTeammate(${options.agentId}): give "model", or "providerId" and "modelId" (here or as a team default)`,
      );
    const runner = new TeammateRunner(merged, {
      mailbox: this.mailbox,
      store: this.store,
      ...(this.teamId !== undefined && { teamId: this.teamId }),
      leadId: this.leadId,
      notifyOnTurnEnd: this.#notifyOnTurnEnd,
      emit: (event) => this.#emit(event),
    });
    this.#teammates.set(options.agentId, runner);
    return runner;
  }

  /** Creates a teammate and runs it in the background; its events reach `subscribe` listeners. */
  spawn(options: TeammateOptions, initialPrompt?: string): TeammateRunner {
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

  /** Puts a message in `agentId`'s mailbox; a busy teammate takes it between its turns. */
  send(agentId: string, text: string, from: string = this.leadId): Promise<TeamMailboxMessage> {
    return this.mailbox.send({
      to: agentId,
      from,
      kind: "user",
      text,
      ...(this.teamId !== undefined && { teamId: this.teamId }),
    });
  }

  /** Asks a teammate to shut down (`<shutdown_request from=".." reason=".."/>`); see `autoApproveShutdown`. */
  requestShutdown(agentId: string, from: string = this.leadId, reason?: string): Promise<TeamMailboxMessage> {
    return this.mailbox.send({
      to: agentId,
      from,
      kind: "shutdown_request",
      text: formatShutdownRequest(from, reason),
      ...(this.teamId !== undefined && { teamId: this.teamId }),
    });
  }

  /** Stops one teammate now (its running turn is aborted, its message stays unread); false when not running. */
  async stop(agentId: string): Promise<boolean> {
    const runner = this.#teammates.get(agentId);
    if (!runner) return false;
    const stopped = await runner.stop();
    await this.#background.get(agentId);
    this.#background.delete(agentId);
    return stopped;
  }

  /** Stops every teammate and waits until none runs a turn or holds its session. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#teammates.keys()].map((agentId) => this.stop(agentId)));
  }

  /** Every teammate this manager made, in creation order. */
  status(): TeammateStatus[] {
    return [...this.#teammates.values()].map((runner) => runner.status());
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
