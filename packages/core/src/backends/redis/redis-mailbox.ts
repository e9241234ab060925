import { hostname } from "node:os";
import { createId } from "@heddle/shared";
import {
  abortReason,
  checkAgentId,
  checkSendInput,
  mailboxMaxMessageBytes,
  type SendTeamMessageInput,
  TeamError,
  type TeamMailbox,
  type TeamMailboxMessage,
  type TeamMessageKind,
} from "../../teams/contract.js";
import { connectRedis } from "./redis-connect.js";
import { inboxKey, readsKey } from "./redis-keys.js";

/** The part of an `ioredis` client the mailbox uses; `new Redis(url)` fits. */
export interface RedisClientLike {
  xadd(key: string, ...args: (string | number)[]): Promise<string | null>;
  xrange(key: string, start: string, end: string, ...args: (string | number)[]): Promise<[string, string[]][]>;
  xreadgroup(...args: (string | number)[]): Promise<unknown>;
  xautoclaim(...args: (string | number)[]): Promise<unknown>;
  xgroup(...args: (string | number)[]): Promise<unknown>;
  xack(key: string, group: string, ...ids: string[]): Promise<number>;
  xlen(key: string): Promise<number>;
  hsetnx(key: string, field: string, value: string | number): Promise<number>;
  hexists(key: string, field: string): Promise<number>;
  hkeys(key: string): Promise<string[]>;
  del(...keys: string[]): Promise<number>;
  duplicate(): RedisClientLike;
  quit(): Promise<unknown>;
  disconnect(): void;
}

export interface RedisTeamMailboxOptions {
  /** A `redis://` URL; the mailbox opens (and on `close()` quits) its own connection. */
  url?: string;
  /** A client the host owns (`new Redis(...)` from ioredis); `close()` leaves it open. */
  client?: RedisClientLike;
  /** The team whose inboxes these are: every key is scoped by it. */
  teamId: string;
  /** Prefix of every key (default `heddle`), so several applications or test runs share one Redis. */
  keyPrefix?: string;
  /** This process's consumer name in each recipient's group (default host:pid:random). */
  consumer?: string;
  /**
   * How long a message may sit taken-but-unread by another consumer before this one claims it (ms, default
   * 30 000): the successor of a crashed process takes over its messages after this long.
   */
  claimIdleMs?: number;
  /** Longest single server-side block of `wait` before it looks again for claimable messages (ms, default 5 000). */
  blockMs?: number;
  /** The largest message `send` stores, in UTF-8 bytes of its text and ids (default 2 MiB). */
  maxMessageBytes?: number;
}

const GROUP = "heddle";

/**
 * A `TeamMailbox` on Redis Streams (`ioredis`, an optional peer dependency loaded on first use), for teammates that
 * run in different processes or hosts. Each recipient has a stream and a consumer group: `peek` hands a message to
 * one consumer (`XREADGROUP`), it stays pending there until `markRead` acknowledges it (`XACK`, and a read marker
 * with its time), and a crashed consumer's pending messages are claimed by its successor (`XAUTOCLAIM`) once they
 * were idle `claimIdleMs`. `wait` blocks on the server (`XREADGROUP BLOCK`), so nothing polls while nothing arrives.
 * Read messages stay in the stream (a person can inspect it) until `clear`.
 */
export class RedisTeamMailbox implements TeamMailbox {
  readonly teamId: string;
  readonly #options: RedisTeamMailboxOptions;
  readonly #prefix: string;
  readonly #consumer: string;
  readonly #claimIdleMs: number;
  readonly #blockMs: number;
  readonly #maxMessageBytes: number;
  readonly #groups = new Set<string>();
  readonly #waits = new Set<{ connection: RedisClientLike; reject(error: unknown): void }>();
  #client: Promise<RedisClientLike> | undefined;
  #closed = false;

  constructor(options: RedisTeamMailboxOptions) {
    if (!options || (!options.url && !options.client))
      throw new TeamError("team_invalid_input", "RedisTeamMailbox: give options.url or options.client.");
    checkAgentId(options.teamId, "RedisTeamMailbox: options.teamId");
    this.teamId = options.teamId;
    this.#options = options;
    this.#prefix = options.keyPrefix ?? "heddle";
    this.#consumer = options.consumer ?? `${hostname()}:${process.pid}:${createId("c")}`;
    this.#claimIdleMs = Math.max(0, options.claimIdleMs ?? 30_000);
    this.#blockMs = Math.max(10, options.blockMs ?? 5_000);
    this.#maxMessageBytes = mailboxMaxMessageBytes(options.maxMessageBytes, "RedisTeamMailbox");
  }

  async send(input: SendTeamMessageInput): Promise<TeamMailboxMessage> {
    const checked = checkSendInput(input, this.#maxMessageBytes);
    const key = this.#inbox(checked.to);
    return this.#call(async (redis) => {
      const createdAt = Date.now();
      const fields: (string | number)[] = ["from", checked.from, "to", checked.to, "kind", checked.kind];
      fields.push("text", checked.text, "createdAt", createdAt);
      if (checked.teamId !== undefined) fields.push("teamId", checked.teamId);
      const id = await redis.xadd(key, "*", ...fields);
      return { id: id!, ...(checked.teamId !== undefined && { teamId: checked.teamId }), ...rest(checked), createdAt };
    });
  }

  async dequeue(agentId: string): Promise<TeamMailboxMessage | undefined> {
    const message = await this.peek(agentId);
    if (!message) return undefined;
    const readAt = Date.now();
    await this.#call(() => this.#markRead(agentId, message.id, readAt));
    return { ...message, readAt };
  }

  /**
   * The next unread message for this consumer, left unread: its own pending one, else one a dead consumer left
   * (claimed), else the next new one (now pending here).
   */
  async peek(agentId: string): Promise<TeamMailboxMessage | undefined> {
    const key = this.#inbox(agentId);
    const reads = this.#reads(agentId);
    return this.#call((redis) =>
      this.#withGroup(key, async () => {
        for (;;) {
          const own = entries(await redis.xreadgroup("GROUP", GROUP, this.#consumer, "COUNT", 1, "STREAMS", key, "0"));
          const claimed = own.length
            ? own
            : claimedEntries(await redis.xautoclaim(key, GROUP, this.#consumer, this.#claimIdleMs, "0-0", "COUNT", 1));
          const next = claimed.length
            ? claimed
            : entries(await redis.xreadgroup("GROUP", GROUP, this.#consumer, "COUNT", 1, "STREAMS", key, ">"));
          const entry = next[0];
          if (!entry) return undefined;
          // Marked read without being taken (markRead on a listed message): acknowledge it and look further.
          if (await redis.hexists(reads, entry[0])) {
            await redis.xack(key, GROUP, entry[0]);
            continue;
          }
          return toMessage(entry);
        }
      }),
    );
  }

  /**
   * Claims every message of `agentId`'s inbox that any consumer took but did not acknowledge (`XAUTOCLAIM` with no
   * idle minimum), so this consumer's next `peek` returns them first, oldest first: a new lease holder takes a dead
   * holder's message at once, in order, instead of after `claimIdleMs` and behind newer messages.
   */
  async takeOver(agentId: string): Promise<number> {
    const key = this.#inbox(agentId);
    return this.#call((redis) =>
      this.#withGroup(key, async () => {
        let taken = 0;
        let cursor = "0-0";
        do {
          const reply = await redis.xautoclaim(key, GROUP, this.#consumer, 0, cursor, "COUNT", 100);
          taken += claimedEntries(reply).length;
          cursor = Array.isArray(reply) && typeof reply[0] === "string" ? reply[0] : "0-0";
        } while (cursor !== "0-0");
        return taken;
      }),
    );
  }

  async list(agentId: string): Promise<TeamMailboxMessage[]> {
    const key = this.#inbox(agentId);
    const reads = this.#reads(agentId);
    return this.#call(async (redis) => {
      const [rows, read] = await Promise.all([redis.xrange(key, "-", "+"), redis.hkeys(reads)]);
      const done = new Set(read);
      return rows.filter(([id]) => !done.has(id)).map(toMessage);
    });
  }

  markRead(agentId: string, messageId: string): Promise<boolean> {
    return this.#call(() => this.#markRead(agentId, messageId, Date.now()));
  }

  async clear(agentId: string): Promise<number> {
    const key = this.#inbox(agentId);
    const reads = this.#reads(agentId);
    return this.#call(async (redis) => {
      const count = await redis.xlen(key);
      await redis.del(key, reads);
      this.#groups.delete(key);
      return count;
    });
  }

  async wait(agentId: string, signal?: AbortSignal): Promise<void> {
    const key = this.#inbox(agentId);
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      if (await this.peek(agentId)) return;
      if (signal?.aborted) throw abortReason(signal);
      if (await this.#call(() => this.#block(key, signal))) return;
    }
  }

  /** One server-side block for a new message of `key`; true when one was delivered (now pending here). */
  async #block(key: string, signal: AbortSignal | undefined): Promise<boolean> {
    // A connection of its own: a blocked command holds its connection; abort and close disconnect it.
    const connection = (await this.#redis()).duplicate();
    let rejectWait: (error: unknown) => void = () => {};
    const interrupted = new Promise<never>((_, reject) => {
      rejectWait = reject;
    });
    const entry = { connection, reject: rejectWait };
    this.#waits.add(entry);
    const onAbort = () => rejectWait(abortReason(signal!));
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      // close() may have run while this wait was on its way here, after it ended the waits it knew of.
      if (this.#closed) throw closedError();
      const read = this.#withGroup(key, () =>
        connection.xreadgroup("GROUP", GROUP, this.#consumer, "COUNT", 1, "BLOCK", this.#blockMs, "STREAMS", key, ">"),
      );
      read.catch(() => {});
      return entries(await Promise.race([read, interrupted])).length > 0;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.#waits.delete(entry);
      connection.disconnect();
    }
  }

  /** Ends pending waits (they reject with `team_mailbox_closed`) and quits the connection the mailbox opened. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    if (client && !this.#options.client) await (await client.catch(() => undefined))?.quit();
    // Last, so a caller awaiting close() sees its pending waits reject as close() returns, not during the quit.
    for (const wait of this.#waits) wait.reject(closedError());
  }

  async #markRead(agentId: string, messageId: string, readAt: number): Promise<boolean> {
    const redis = await this.#redis();
    const key = this.#inbox(agentId);
    if (typeof messageId !== "string" || !/^\d+-\d+$/.test(messageId)) return false;
    const found = await redis.xrange(key, messageId, messageId);
    if (found.length === 0) return false;
    const first = (await redis.hsetnx(this.#reads(agentId), messageId, readAt)) === 1;
    // The read marker is the record. The XACK only takes the entry off this consumer's pending list, which the next
    // peek also does for a marked entry: a close() that cuts it off has lost nothing, and the message counts as read.
    await this.#withGroup(key, () => redis.xack(key, GROUP, messageId)).catch((error: unknown) => {
      if (!this.#closed) throw error;
    });
    return first;
  }

  /**
   * Runs one call on the client. A call that close() overtakes (its next command meets a quit connection, and
   * ioredis says "Connection is closed.") rejects with `team_mailbox_closed`, like every call after close().
   */
  async #call<T>(work: (redis: RedisClientLike) => Promise<T>): Promise<T> {
    try {
      return await work(await this.#redis());
    } catch (error) {
      if (this.#closed && !isClosedError(error)) throw closedError(error);
      throw error;
    }
  }

  #inbox(agentId: string): string {
    checkAgentId(agentId, "agentId");
    return inboxKey(this.#prefix, this.teamId, agentId);
  }

  #reads(agentId: string): string {
    checkAgentId(agentId, "agentId");
    return readsKey(this.#prefix, this.teamId, agentId);
  }

  #redis(): Promise<RedisClientLike> {
    if (this.#closed) return Promise.reject(closedError());
    this.#client ??= this.#connect();
    return this.#client;
  }

  async #connect(): Promise<RedisClientLike> {
    if (this.#options.client) return this.#options.client;
    return connectRedis<RedisClientLike>(this.#options.url!, "RedisTeamMailbox");
  }

  /** Runs `work` with the recipient's group in place (made with the stream, and again after a `clear`). */
  async #withGroup<T>(key: string, work: () => Promise<T>): Promise<T> {
    const redis = await this.#redis();
    if (!this.#groups.has(key)) {
      await ensureGroup(redis, key);
      this.#groups.add(key);
    }
    try {
      return await work();
    } catch (error) {
      if (!/NOGROUP/.test(String((error as Error)?.message))) throw error;
      await ensureGroup(redis, key);
      return work();
    }
  }
}

type RawEntry = [string, string[]];

function rest(input: { from: string; to: string; kind: TeamMessageKind; text: string }) {
  return { from: input.from, to: input.to, kind: input.kind, text: input.text };
}

function toMessage([id, fields]: RawEntry): TeamMailboxMessage {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
  return {
    id,
    ...(f.teamId !== undefined && { teamId: f.teamId }),
    from: f.from ?? "",
    to: f.to ?? "",
    kind: (f.kind ?? "user") as TeamMessageKind,
    text: f.text ?? "",
    createdAt: Number(f.createdAt ?? 0),
  };
}

/** The entries of an XREADGROUP reply (`[[key, [[id, fields], ...]]]` or null), without deleted ones. */
function entries(reply: unknown): RawEntry[] {
  if (!Array.isArray(reply) || !Array.isArray(reply[0])) return [];
  const list = (reply[0] as [string, RawEntry[]])[1] ?? [];
  return list.filter((entry) => Array.isArray(entry?.[1]));
}

/** The entries of an XAUTOCLAIM reply (`[next, [[id, fields], ...], deleted]`). */
function claimedEntries(reply: unknown): RawEntry[] {
  if (!Array.isArray(reply) || !Array.isArray(reply[1])) return [];
  return (reply[1] as RawEntry[]).filter((entry) => Array.isArray(entry?.[1]));
}

async function ensureGroup(redis: RedisClientLike, key: string): Promise<void> {
  try {
    await redis.xgroup("CREATE", key, GROUP, "0", "MKSTREAM");
  } catch (error) {
    if (!/BUSYGROUP/.test(String((error as Error)?.message))) throw error;
  }
}

function closedError(cause?: unknown): TeamError {
  return new TeamError("team_mailbox_closed", "The Redis team mailbox is closed.", { cause });
}

function isClosedError(error: unknown): boolean {
  return error instanceof TeamError && error.code === "team_mailbox_closed";
}
