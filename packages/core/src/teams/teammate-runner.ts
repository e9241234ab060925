import {
  type AgentMessage,
  type AgentRunInput,
  type AgentRunResult,
  type AgentUsage,
  createId,
  getToolCalls,
  userMessage,
} from "@heddle/shared";
import {
  createSession,
  openSession,
  type SessionEvent,
  type SessionOptions,
  type SessionRuntime,
  type SessionStore,
} from "../sessions/index.js";
import { TeamError } from "./errors.js";
import { EventQueue } from "./event-queue.js";
import type { TeamMailbox, TeamMailboxMessage } from "./mailbox.js";
import {
  escapeAttribute,
  formatShutdownApproved,
  parseTeamControlMessage,
  type TeamControlMessage,
} from "./protocol.js";

/** How a teammate is made: a session's options plus its place in the team. */
export interface TeammateOptions
  extends Omit<SessionOptions, "store" | "id" | "agentId" | "parentAgentId" | "agentRole"> {
  agentId: string;
  role?: string;
  /** Answer a shutdown request with `shutdown_approved` and stop, without a turn (default false: the request
   * becomes a turn, and the model or the host decides). */
  autoApproveShutdown?: boolean;
  /** The teammate's session id in the store (default `teammate-<teamId>-<agentId>`, or `teammate-<agentId>`). */
  sessionId?: string;
}

/** Where a teammate is in its life. */
export type TeammateState = "created" | "running" | "idle" | "stopped";

/** Why a teammate stopped: approved a shutdown, was stopped by the host, or failed. */
export type TeammateStopReason = "shutdown" | "stopped" | "error";

/** A turn's outcome without its transcript (events never carry the history). */
export type TeammateTurnResult = Pick<
  AgentRunResult,
  "status" | "reason" | "reasonDetail" | "outputText" | "iterations" | "toolCalls"
> & { usage: AgentUsage };

/** What `TeammateRunner.run` yields; every event names the teammate. */
export type TeammateEvent = { agentId: string } & (
  | { type: "teammate-started"; sessionId: string; resumed: boolean }
  /** A turn starts for `message` (absent for the initial prompt); `resumed` when a crash had cut it. */
  | { type: "turn-started"; message?: TeamMailboxMessage; resumed: boolean }
  | { type: "session-event"; event: SessionEvent }
  | { type: "turn-finished"; message?: TeamMailboxMessage; result: TeammateTurnResult }
  /** The turn for `message` was already stored before a restart: the message is only marked read now. */
  | { type: "turn-recovered"; message?: TeamMailboxMessage }
  | { type: "control-received"; message: TeamMailboxMessage; control: TeamControlMessage }
  | { type: "shutdown-approved"; to: string }
  | { type: "idle" }
  | { type: "stopped"; reason: TeammateStopReason; error?: unknown }
);

/** A teammate as `status()` reports it. */
export interface TeammateStatus {
  agentId: string;
  role?: string;
  sessionId: string;
  state: TeammateState;
  /** Turns run by this runner (this process). */
  turns: number;
  /** The mailbox message of the running turn. */
  currentMessageId?: string;
  stopReason?: TeammateStopReason;
}

/** What a runner needs from its manager. */
export interface TeammateContext {
  mailbox: TeamMailbox;
  store: SessionStore;
  teamId?: string;
  leadId: string;
  /** Send a `task_notification` to whoever gave a task when its turn ends (default true). */
  notifyOnTurnEnd: boolean;
  emit(event: TeammateEvent): void;
}

/** The key of the initial prompt's turn: the user message of that turn gets a fixed id from it. */
const INITIAL_TASK_KEY = "initial-task";

const RESUME_NOTICE =
  "(Your previous turn was cut off by a restart before it finished. Continue the task from where you left off; " +
  "tool calls that did not finish have error results and may need to run again.)";

/** The id of the stored user message that carried a mailbox message (or the initial task) into the session. */
export function teamTurnMessageId(key: string): string {
  return `team-turn-${key}`;
}

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
  #turns = 0;
  #current: TeamMailboxMessage | undefined;
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
    };
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
      if ((initialPrompt !== undefined || (await initialTaskWasCut(session))) && !signal.aborted)
        await this.#turn(session, undefined, initialPrompt ?? "", emit);
      while (!signal.aborted) {
        const message = await this.#ctx.mailbox.peek(this.agentId);
        if (!message) {
          this.#state = "idle";
          emit({ type: "idle", agentId: this.agentId });
          try {
            await this.#ctx.mailbox.wait(this.agentId, signal);
          } catch (error) {
            if (signal.aborted) break;
            throw error;
          }
          continue;
        }
        const control = controlOf(message);
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
        const done = await this.#turn(session, message, undefined, emit);
        // A turn cut by stop() leaves its message unread: the next start finishes it.
        if (!done) break;
        await this.#ctx.mailbox.markRead(this.agentId, message.id);
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
      emit({ type: "stopped", agentId: this.agentId, reason, ...(failure !== undefined && { error: failure }) });
    }
  }

  async #openSession(): Promise<{ session: SessionRuntime; resumed: boolean }> {
    const { agentId: _a, role, autoApproveShutdown: _s, sessionId: _i, systemPrompt, ...rest } = this.#options;
    const options: SessionOptions = {
      ...rest,
      systemPrompt: [systemPrompt, this.#teamNote()].filter(Boolean).join("\n\n"),
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
  ): Promise<boolean> {
    const key = message?.id ?? INITIAL_TASK_KEY;
    const turnMessageId = teamTurnMessageId(key);
    const history = await session.history();
    const index = history.findIndex((m) => m.id === turnMessageId);
    const base = { agentId: this.agentId, ...(message && { message }) };
    if (index >= 0 && turnIsComplete(history, index)) {
      emit({ type: "turn-recovered", ...base });
      // Still unread, so the crash came between the stored turn and markRead: the notification may be missing.
      if (message) await this.#notify(message, undefined);
      return true;
    }
    // Seen but cut by a crash: the task is not repeated; a short notice lets the model go on from the stored
    // history (openSession already gave the calls the crash cut an error result).
    const input: AgentRunInput =
      index >= 0
        ? userMessage(RESUME_NOTICE, { id: createId("team-resume"), metadata: { team: { resumeOf: key } } })
        : userMessage(message ? formatForModel(message) : initialPrompt!, {
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
    emit({ type: "turn-started", ...base, resumed: index >= 0 });
    const unsubscribe = session.subscribe((event) => emit({ type: "session-event", agentId: this.agentId, event }));
    let result: AgentRunResult;
    try {
      result = await session.send(input);
    } finally {
      unsubscribe();
      this.#current = undefined;
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
    if (this.#stopController.signal.aborted) return false;
    await this.#notify(message, summary);
    return true;
  }

  // Tells whoever gave a task that its turn ended. Notifications never answer notifications (no ping-pong).
  async #notify(message: TeamMailboxMessage | undefined, result: TeammateTurnResult | undefined): Promise<void> {
    if (!this.#ctx.notifyOnTurnEnd) return;
    if (message && message.kind !== "user") return;
    const to = message?.from ?? this.#ctx.leadId;
    if (to === this.agentId) return;
    const status = result ? result.status : "completed";
    const text = result?.outputText.trim() ? result.outputText : "(no summary)";
    await this.#ctx.mailbox.send({
      to,
      from: this.agentId,
      kind: "task_notification",
      text: `<task_notification from="${escapeAttribute(this.agentId)}" status="${status}">\n${text}\n</task_notification>`,
      ...(this.#ctx.teamId !== undefined && { teamId: this.#ctx.teamId }),
    });
  }
}

/** The control a message carries: its kind, or a tag inside a user message's text. */
function controlOf(message: TeamMailboxMessage): TeamControlMessage | undefined {
  if (message.kind === "shutdown_request")
    return parseTeamControlMessage(message.text) ?? { kind: "shutdown_request", from: message.from };
  if (message.kind === "user") {
    const control = parseTeamControlMessage(message.text);
    return control?.kind === "shutdown_request" ? control : undefined;
  }
  return undefined;
}

/** A mailbox message as the teammate's model reads it: who sent it and why, then the text. */
function formatForModel(message: TeamMailboxMessage): string {
  const tag = message.kind === "task_notification" ? "teammate_notification" : "teammate_message";
  return `<${tag} from="${escapeAttribute(message.from)}">\n${message.text}\n</${tag}>`;
}

async function initialTaskWasCut(session: SessionRuntime): Promise<boolean> {
  const history = await session.history();
  const index = history.findIndex((m) => m.id === teamTurnMessageId(INITIAL_TASK_KEY));
  return index >= 0 && !turnIsComplete(history, index);
}

/** A stored turn is done when a later turn began, or the history ends with a final assistant answer. */
function turnIsComplete(history: AgentMessage[], index: number): boolean {
  const later = history.slice(index + 1);
  if (later.some((m) => m.role === "user" && m.id.startsWith("team-turn-"))) return true;
  const last = history[history.length - 1]!;
  return last !== history[index] && last.role === "assistant" && getToolCalls(last).length === 0;
}
