import { createId } from "@heddle/shared";
import {
  checkAgentId,
  checkSendInput,
  MailboxWaiters,
  mailboxMaxMessageBytes,
  type SendTeamMessageInput,
  TeamError,
  type TeamMailbox,
  type TeamMailboxMessage,
} from "../../teams/contract.js";

/** The data behind an `InMemoryTeamMailbox`; pass one object to several mailboxes to share it. */
export interface InMemoryTeamMailboxData {
  /** Every stored message in send order. */
  messages: TeamMailboxMessage[];
  waiters: MailboxWaiters;
}

export function createInMemoryTeamMailboxData(): InMemoryTeamMailboxData {
  return { messages: [], waiters: new MailboxWaiters() };
}

/** What `new InMemoryTeamMailbox(...)` takes. */
export interface InMemoryTeamMailboxOptions {
  /** The messages to use; pass one object to several mailboxes to share it. */
  data?: InMemoryTeamMailboxData;
  /** The largest message `send` stores, in UTF-8 bytes of its text and ids (default 2 MiB). */
  maxMessageBytes?: number;
}

/** A `TeamMailbox` in memory, for one process: `wait` wakes on `send` with no polling. Values are copied in and out. */
export class InMemoryTeamMailbox implements TeamMailbox {
  readonly #data: InMemoryTeamMailboxData;
  readonly #maxMessageBytes: number;
  // This instance's own waits, so closing it ends them and no others.
  readonly #controllers = new Set<AbortController>();
  #closed = false;

  constructor(options: InMemoryTeamMailboxOptions = {}) {
    this.#data = options.data ?? createInMemoryTeamMailboxData();
    this.#maxMessageBytes = mailboxMaxMessageBytes(options.maxMessageBytes, "InMemoryTeamMailbox");
  }

  async send(input: SendTeamMessageInput): Promise<TeamMailboxMessage> {
    this.#assertOpen();
    const checked = checkSendInput(input, this.#maxMessageBytes);
    const message: TeamMailboxMessage = { id: createId("msg"), ...checked, createdAt: Date.now() };
    this.#data.messages.push(message);
    this.#data.waiters.wake(message.to);
    return { ...message };
  }

  async dequeue(agentId: string): Promise<TeamMailboxMessage | undefined> {
    this.#assertOpen();
    checkAgentId(agentId, "dequeue: agentId");
    const message = this.#unread(agentId)[0];
    if (!message) return undefined;
    message.readAt = Date.now();
    return { ...message };
  }

  async peek(agentId: string): Promise<TeamMailboxMessage | undefined> {
    this.#assertOpen();
    checkAgentId(agentId, "peek: agentId");
    const message = this.#unread(agentId)[0];
    return message && { ...message };
  }

  async list(agentId: string): Promise<TeamMailboxMessage[]> {
    this.#assertOpen();
    checkAgentId(agentId, "list: agentId");
    return this.#unread(agentId).map((message) => ({ ...message }));
  }

  async markRead(agentId: string, messageId: string): Promise<boolean> {
    this.#assertOpen();
    checkAgentId(agentId, "markRead: agentId");
    const message = this.#data.messages.find((m) => m.id === messageId && m.to === agentId);
    if (!message || message.readAt !== undefined) return false;
    message.readAt = Date.now();
    return true;
  }

  async clear(agentId: string): Promise<number> {
    this.#assertOpen();
    checkAgentId(agentId, "clear: agentId");
    const before = this.#data.messages.length;
    this.#data.messages = this.#data.messages.filter((m) => m.to !== agentId);
    return before - this.#data.messages.length;
  }

  async wait(agentId: string, signal?: AbortSignal): Promise<void> {
    this.#assertOpen();
    checkAgentId(agentId, "wait: agentId");
    if (this.#unread(agentId).length > 0) return;
    // A private controller links the caller's signal to close(), so close() ends only this mailbox's waits.
    const controller = new AbortController();
    const forward = () => controller.abort(signal!.reason);
    if (signal?.aborted) forward();
    signal?.addEventListener("abort", forward, { once: true });
    this.#controllers.add(controller);
    try {
      await this.#data.waiters.add(agentId, controller.signal);
    } finally {
      signal?.removeEventListener("abort", forward);
      this.#controllers.delete(controller);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const error = new TeamError("team_mailbox_closed", "The team mailbox was closed while waiting.");
    for (const controller of [...this.#controllers]) controller.abort(error);
  }

  #unread(agentId: string): TeamMailboxMessage[] {
    return this.#data.messages.filter((m) => m.to === agentId && m.readAt === undefined);
  }

  #assertOpen(): void {
    if (this.#closed) throw new TeamError("team_mailbox_closed", "The team mailbox is closed.");
  }
}
