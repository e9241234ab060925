import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { type AgentRunInput, type AgentRunResult, createId, userMessage } from "@heddle/shared";
import { createSession, openSession, type SessionOptions, type SessionRuntime } from "../sessions/index.js";
import { TeamError, type TeamLimitName } from "./errors.js";
import { EventQueue } from "./event-queue.js";
import { formatTaskNotification, renderForTeammate } from "./frames.js";
import type { TeamMailboxMessage } from "./mailbox.js";
import { formatShutdownApproved, parseTeamControlMessage, type TeamControlMessage } from "./protocol.js";
import type { ChainLink } from "./team-governor.js";
import {
  INITIAL_TASK_KEY,
  initialTaskWasCut,
  RESUME_NOTICE,
  teamTurnMessageId,
  turnIsComplete,
} from "./teammate-turns.js";
import type {
  TeammateContext,
  TeammateEvent,
  TeammateOptions,
  TeammateState,
  TeammateStatus,
  TeammateStopReason,
  TeammateTurnResult,
} from "./teammate-types.js";

export { teamTurnMessageId } from "./teammate-turns.js";
export type {
  TeammateContext,
  TeammateEvent,
  TeammateOptions,
  TeammateState,
  TeammateStatus,
  TeammateStopReason,
  TeammateTurnResult,
  TeamUsage,
} from "./teammate-types.js";

/**
 * One teammate: its own `SessionRuntime` (a fresh `AgentRuntime` per turn, the history in the store) fed by its
 * mailbox. Each message is a turn; it is marked read only after the turn that took it is stored, and the user
 * message of that turn has an id derived from the mailbox message's, so after a crash the turn is finished or
 * recognized as done, never run twice.
 */
export class TeammateRunner {
  readonly agentId: string;
  readonly role: string | undefined;
  readonly sessionId: string;
  readonly #options: TeammateOptions;
  readonly #ctx: TeammateContext;
  readonly #stopController = new AbortController();
  #state: TeammateState = "created";
  #stopReason: TeammateStopReason | undefined;
  #limit: { name: TeamLimitName; detail: string } | undefined;
  #turns = 0;
  #current: TeamMailboxMessage | undefined;
  #currentLink: ChainLink | undefined;
  #session: SessionRuntime | undefined;
  #loop: Promise<void> | undefined;

  constructor(options: TeammateOptions, ctx: TeammateContext) {
    this.#options = options;
    this.#ctx = ctx;
    this.agentId = options.agentId;
    this.role = options.role;
    this.sessionId =
      options.sessionId ?? (ctx.teamId ? `teammate-${ctx.teamId}-${options.agentId}` : `teammate-${options.agentId}`);
  }

  get state(): TeammateState {
    return this.#state;
  }

  status(): TeammateStatus {
    return {
      agentId: this.agentId,
      ...(this.role !== undefined && { role: this.role }),
      sessionId: this.sessionId,
      state: this.#state,
      turns: this.#turns,
      ...(this.#current && { currentMessageId: this.#current.id }),
      ...(this.#stopReason && { stopReason: this.#stopReason }),
      ...(this.#limit && { limit: this.#limit.name, limitDetail: this.#limit.detail }),
    };
  }

  /** The reply chain of the turn running now: what a message this teammate sends during it belongs to. */
  get currentLink(): ChainLink | undefined {
    return this.#currentLink;
  }

  /**
   * Runs the teammate: the initial prompt as its first turn (skipped when a previous run already did it), then
   * each mailbox message as a new turn, until it is stopped or approves a shutdown. Teammate and reader are
   * decoupled: events queue up while the reader is slow. Leaving the loop early stops the teammate.
   */
  async *run(initialPrompt?: string): AsyncGenerator<TeammateEvent, void, undefined> {
    if (this.#loop) throw new TeamError("team_agent_running", `Teammate "${this.agentId}" was already started.`);
    const queue = new EventQueue<TeammateEvent>();
    const emit = (event: TeammateEvent) => {
      queue.push(event);
      this.#ctx.emit(event);
    };
    this.#loop = this.#main(initialPrompt, emit).then(
      () => queue.end(),
      (error) => queue.end(error),
    );
    try {
      yield* queue;
    } finally {
      await this.stop();
    }
  }

  /** Stops the teammate: aborts its running turn (that message stays unread) and ends its wait for mail. */
  async stop(): Promise<boolean> {
    const wasActive = this.#state !== "stopped" && this.#loop !== undefined;
    if (!this.#stopController.signal.aborted) {
      this.#stopController.abort(new TeamError("team_agent_running", `Teammate "${this.agentId}" was stopped.`));
      this.#session?.abort("the teammate was stopped");
    }
    await this.#loop;
    if (!this.#loop) this.#state = "stopped";
    return wasActive;
  }

  async #main(initialPrompt: string | undefined, emit: (event: TeammateEvent) => void): Promise<void> {
    const signal = this.#stopController.signal;
    let reason: TeammateStopReason = "stopped";
    let failure: unknown;
    try {
      const { session, resumed } = await this.#openSession();
      this.#session = session;
      emit({ type: "teammate-started", agentId: this.agentId, sessionId: session.id, resumed });
      // The initial task runs once; one a crash cut is finished even when this run was given no prompt.
      if ((initialPrompt !== undefined || (await initialTaskWasCut(session))) && !signal.aborted) {
        if (!(await this.#refusedByLimit())) {
          this.#ctx.governor.countTurn();
          await this.#turn(session, undefined, initialPrompt ?? "", emit, { chain: createId("chain"), links: 0 });
        }
        // Refused before the turn, or the turn used up a limit: either way the teammate stops here.
        if (this.#limit) reason = "limit";
        else if (!signal.aborted && (await this.#refusedByLimit())) reason = "limit";
      }
      while (!signal.aborted && reason !== "limit") {
        const message = await this.#ctx.mailbox.peek(this.agentId);
        if (!message) {
          this.#state = "idle";
          emit({ type: "idle", agentId: this.agentId });
          await this.#hooks?.run("TeammateIdle", this.#hookFields());
          try {
            await this.#ctx.mailbox.wait(this.agentId, signal);
          } catch (error) {
            if (signal.aborted) break;
            throw error;
          }
          continue;
        }
        // Instant models must not starve the event loop: a team's turns give way between them.
        await yieldToEventLoop();
        if (signal.aborted) break;
        const control = controlOf(message, this.#ctx.leadId);
        if (control) emit({ type: "control-received", agentId: this.agentId, message, control });
        if (control?.kind === "shutdown_request" && this.#options.autoApproveShutdown) {
          // Approval first, then the request is read: a crash in between repeats the approval, never loses it.
          await this.#ctx.mailbox.send({
            to: message.from,
            from: this.agentId,
            kind: "shutdown_approved",
            text: formatShutdownApproved(this.agentId),
            ...(this.#ctx.teamId !== undefined && { teamId: this.#ctx.teamId }),
          });
          await this.#ctx.mailbox.markRead(this.agentId, message.id);
          emit({ type: "shutdown-approved", agentId: this.agentId, to: message.from });
          reason = "shutdown";
          break;
        }
        // A limit reached leaves the message unread, for a later run with more room.
        if (await this.#refusedByLimit()) {
          reason = "limit";
          break;
        }
        const link = this.#ctx.governor.takeLink(message.id);
        const refusal = this.#ctx.governor.chainRefusal(link);
        if (refusal) {
          await this.#refuseChain(message, refusal.first, emit);
          continue;
        }
        this.#ctx.governor.countTurn();
        const done = await this.#turn(session, message, undefined, emit, link);
        // A turn cut by stop() leaves its message unread: the next start finishes it.
        if (!done) break;
        await this.#ctx.mailbox.markRead(this.agentId, message.id);
        if (await this.#refusedByLimit()) {
          reason = "limit";
          break;
        }
      }
    } catch (error) {
      reason = "error";
      failure = error;
    } finally {
      this.#current = undefined;
      this.#state = "stopped";
      this.#stopReason = reason;
      const session = this.#session;
      this.#session = undefined;
      await session?.close().catch(() => {});
      emit({
        type: "stopped",
        agentId: this.agentId,
        reason,
        ...(reason === "limit" && this.#limit && { limit: this.#limit.name }),
        ...(failure !== undefined && { error: failure }),
      });
    }
  }

  // The team's command hooks (its host's), for the teammate events.
  get #hooks() {
    return this.#ctx.host.policy.commandHooks;
  }

  #hookFields() {
    return {
      agent_id: this.agentId,
      session_id: this.sessionId,
      ...(this.role !== undefined && { agent_type: this.role }),
      ...(this.#ctx.teamId !== undefined && { team_name: this.#ctx.teamId }),
    };
  }

  // A team limit that forbids the next turn stops this teammate (a non-error reason) and tells the lead.
  async #refusedByLimit(): Promise<boolean> {
    const refusal = this.#ctx.governor.turnRefusal();
    if (!refusal) return false;
    this.#limit = { name: refusal.limit, detail: refusal.detail };
    await this.#tellLead(
      "stopped",
      `${this.agentId} stopped: ${refusal.detail}. Its unread messages stay in its mailbox.`,
      refusal.limit,
    );
    return true;
  }

  // A message past the reply-chain limit is read but not run; the lead hears of the chain once.
  async #refuseChain(message: TeamMailboxMessage, first: boolean, emit: (event: TeammateEvent) => void) {
    if (first)
      await this.#tellLead(
        "refused",
        `${this.agentId} did not take a message from ${message.from}: the teammates have sent one another more than ` +
          `${this.#ctx.governor.limits.maxReplyChain} messages since your last message to them (limits.maxReplyChain). ` +
          "Later messages of that exchange are dropped too. Send a new message to restart the work.",
        "maxReplyChain",
      );
    await this.#ctx.mailbox.markRead(this.agentId, message.id);
    emit({ type: "message-refused", agentId: this.agentId, message, limit: "maxReplyChain" });
  }

  async #tellLead(status: string, text: string, limit: TeamLimitName): Promise<void> {
    await this.#ctx.mailbox.send({
      to: this.#ctx.leadId,
      from: this.agentId,
      kind: "task_notification",
      text: formatTaskNotification(this.agentId, status, text, { limit }),
      ...(this.#ctx.teamId !== undefined && { teamId: this.#ctx.teamId }),
    });
  }

  async #openSession(): Promise<{ session: SessionRuntime; resumed: boolean }> {
    const { agentId: _a, role, autoApproveShutdown: _s, sessionId: _i, systemPrompt, ...rest } = this.#options;
    if (rest.commandHooks !== undefined || rest.host !== undefined)
      throw new TeamError(
        "team_invalid_input",
        `Teammate "${this.agentId}": command hooks and the host are the team's (AgentTeamManager options), not a teammate's`,
      );
    const options: SessionOptions = {
      ...rest,
      systemPrompt: [systemPrompt, this.#teamNote()].filter(Boolean).join("\n\n"),
      host: this.#ctx.host,
      store: this.#ctx.store,
      agentId: this.agentId,
      parentAgentId: this.#ctx.leadId,
      ...(role !== undefined && { agentRole: role }),
    };
    const exists = await this.#ctx.store.getSession(this.sessionId);
    if (exists) return { session: await openSession({ ...options, id: this.sessionId }), resumed: true };
    return {
      session: await createSession({ ...options, id: this.sessionId, title: `teammate ${this.agentId}` }),
      resumed: false,
    };
  }

  // Tells the model where it stands, so a real model reads the message tags and knows its answer is reported.
  #teamNote(): string {
    const role = this.role ? ` (role: ${this.role})` : "";
    return (
      `You are "${this.agentId}"${role}, a teammate in a team led by "${this.#ctx.leadId}". Each task or message ` +
      `arrives as a turn, wrapped in <teammate_message from="..."> (or <teammate_notification> for a teammate's ` +
      "report); the final answer of your turn is sent back to whoever sent it, so end each turn with a short report."
    );
  }

  /** Runs (or finishes, or recognizes as done) the turn for one message; false when stop() cut it. */
  async #turn(
    session: SessionRuntime,
    message: TeamMailboxMessage | undefined,
    initialPrompt: string | undefined,
    emit: (event: TeammateEvent) => void,
    link: ChainLink,
  ): Promise<boolean> {
    const key = message?.id ?? INITIAL_TASK_KEY;
    const turnMessageId = teamTurnMessageId(key);
    // Usually the message is new to the store: one indexed lookup says so, and the whole history is read only when
    // a previous run stored this turn (a crash to finish or recognize). The turn itself reads the history anyway.
    const stored = await this.#ctx.store.getMessage(session.id, turnMessageId);
    const history = stored ? await session.history() : [];
    const index = history.findIndex((m) => m.id === turnMessageId);
    const base = { agentId: this.agentId, ...(message && { message }) };
    if (index >= 0 && turnIsComplete(history, index)) {
      emit({ type: "turn-recovered", ...base });
      // Still unread, so the crash came between the stored turn and markRead: the notification may be missing.
      if (message) await this.#notify(message, undefined, this.#ctx.governor.takeLink(message.id));
      return true;
    }
    // Seen but cut by a crash: the task is not repeated; a short notice lets the model go on from the stored
    // history (openSession already gave the calls the crash cut an error result).
    const input: AgentRunInput =
      index >= 0
        ? userMessage(RESUME_NOTICE, { id: createId("team-resume"), metadata: { team: { resumeOf: key } } })
        : userMessage(message ? renderForTeammate(message, this.#ctx.leadId) : initialPrompt!, {
            id: turnMessageId,
            metadata: {
              team: {
                messageId: message?.id ?? null,
                from: message?.from ?? this.#ctx.leadId,
                kind: message?.kind ?? "user",
              },
            },
          });
    this.#state = "running";
    this.#current = message;
    this.#currentLink = link;
    emit({ type: "turn-started", ...base, resumed: index >= 0 });
    const unsubscribe = session.subscribe((event) => emit({ type: "session-event", agentId: this.agentId, event }));
    let result: AgentRunResult;
    try {
      result = await session.send(input);
    } finally {
      unsubscribe();
      this.#current = undefined;
      this.#currentLink = undefined;
    }
    this.#turns++;
    const summary: TeammateTurnResult = {
      status: result.status,
      reason: result.reason,
      ...(result.reasonDetail !== undefined && { reasonDetail: result.reasonDetail }),
      outputText: result.outputText,
      iterations: result.iterations,
      toolCalls: result.toolCalls,
      usage: result.usage,
    };
    emit({ type: "turn-finished", ...base, result: summary });
    if (summary.status === "completed" && (!message || message.kind === "user"))
      await this.#hooks?.run("TaskCompleted", {
        ...this.#hookFields(),
        task_id: message?.id ?? INITIAL_TASK_KEY,
        task_subject: (message?.text ?? initialPrompt ?? "").slice(0, 200),
        output_text: summary.outputText,
      });
    if (this.#stopController.signal.aborted) return false;
    await this.#notify(message, summary, link);
    return true;
  }

  // Tells whoever gave a task that its turn ended. Notifications never answer notifications (no ping-pong).
  async #notify(
    message: TeamMailboxMessage | undefined,
    result: TeammateTurnResult | undefined,
    link: ChainLink,
  ): Promise<void> {
    if (!this.#ctx.notifyOnTurnEnd) return;
    if (message && message.kind !== "user") return;
    const to = message?.from ?? this.#ctx.leadId;
    if (to === this.agentId) return;
    const status = result ? result.status : "completed";
    const text = result?.outputText.trim() ? result.outputText : "(no summary)";
    const sent = await this.#ctx.mailbox.send({
      to,
      from: this.agentId,
      kind: "task_notification",
      text: formatTaskNotification(this.agentId, status, this.#ctx.governor.fitMessage(text)),
      ...(this.#ctx.teamId !== undefined && { teamId: this.#ctx.teamId }),
    });
    // An answer to a teammate is a link of the chain that reached this one.
    if (to !== this.#ctx.leadId) this.#ctx.governor.recordMessage(sent.id, link);
  }
}

/**
 * The control a message carries: only a `shutdown_request` record sent by the lead. Text is never parsed for
 * controls, so a teammate cannot forge one inside a message.
 */
function controlOf(message: TeamMailboxMessage, leadId: string): TeamControlMessage | undefined {
  if (message.kind !== "shutdown_request" || message.from !== leadId) return undefined;
  const reason = parseTeamControlMessage(message.text)?.reason;
  return { kind: "shutdown_request", from: message.from, ...(reason !== undefined && { reason }) };
}
