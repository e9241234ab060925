import { TeamError } from "./errors.js";
import type { SendTeamMessageInput, TeamMailbox, TeamMailboxMessage } from "./mailbox.js";

/**
 * A worker's view of the team mailbox: a teammate reads its inbox only while this worker's lease on it is still
 * good by the worker's own clock. A worker that stalled past its lease (a long pause, a cut network) would
 * otherwise take a message from under the teammate's new holder; here its read fails with `team_lease_lost` and
 * the teammate stops. Everything else passes through.
 */
export class LeasedMailbox implements TeamMailbox {
  readonly #inner: TeamMailbox;
  readonly #holds: (agentId: string) => boolean;

  constructor(inner: TeamMailbox, holds: (agentId: string) => boolean) {
    this.#inner = inner;
    this.#holds = holds;
  }

  send(input: SendTeamMessageInput): Promise<TeamMailboxMessage> {
    return this.#inner.send(input);
  }

  dequeue(agentId: string): Promise<TeamMailboxMessage | undefined> {
    return this.#held(agentId, () => this.#inner.dequeue(agentId));
  }

  peek(agentId: string): Promise<TeamMailboxMessage | undefined> {
    return this.#held(agentId, () => this.#inner.peek(agentId));
  }

  list(agentId: string): Promise<TeamMailboxMessage[]> {
    return this.#inner.list(agentId);
  }

  markRead(agentId: string, messageId: string): Promise<boolean> {
    return this.#inner.markRead(agentId, messageId);
  }

  clear(agentId: string): Promise<number> {
    return this.#inner.clear(agentId);
  }

  wait(agentId: string, signal?: AbortSignal): Promise<void> {
    return this.#held(agentId, () => this.#inner.wait(agentId, signal));
  }

  /** The worker closes nothing it was given: the caller owns the mailbox. */
  async close(): Promise<void> {}

  #held<T>(agentId: string, read: () => Promise<T>): Promise<T> {
    if (!this.#holds(agentId))
      return Promise.reject(
        new TeamError("team_lease_lost", `This worker's lease on "${agentId}" ended; another worker may hold it now.`),
      );
    return read();
  }
}
