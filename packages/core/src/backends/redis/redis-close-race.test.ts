// close() racing the calls of a RedisTeamMailbox, forced rather than hoped for: every Redis command the mailbox
// sends goes through a gate, and the test closes the mailbox just before the k-th command of a call is sent, for
// every k, and once more while the blocking XREADGROUP of a wait is on the server. Every call must then reject
// with `team_mailbox_closed`, never ioredis's "Connection is closed.", and leave no connection open.
import Redis from "ioredis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { REDIS_URL, reachable, runScopedName } from "../../../test/support/services.js";
import { RedisTeamMailbox } from "./redis-mailbox.js";

const up = await reachable(REDIS_URL);
if (!up) console.warn(`[heddle] Redis is not reachable at ${REDIS_URL}: the close race tests skip`);

const prefix = runScopedName("heddle_close");
type Send = (this: Redis, command: { name: string; args: unknown[] }, stream?: unknown) => Promise<unknown>;
const proto = Redis.prototype as unknown as { sendCommand: Send };
const realSend = proto.sendCommand;

// The gate: `before(command, n)` runs (and is awaited) before the n-th mailbox command (one that names a key under
// this file's prefix) is handed to ioredis; `after` right after it was handed over.
let gate: { before?(name: string, n: number): Promise<void>; after?(name: string, n: number): void } | undefined;
let sent: string[] = [];
const gated = new WeakSet<object>();
proto.sendCommand = function (this: Redis, command, stream) {
  const ours = command.args.some((arg) => String(arg).startsWith(`${prefix}:`));
  // ioredis hands a command to sendCommand again (ignoring what it returns) when it replays its offline queue on
  // connect: only the first hand-over is the mailbox's.
  if (!gate || !ours || gated.has(command)) return realSend.call(this, command, stream);
  gated.add(command);
  const label = `${command.name}${command.args.includes("BLOCK") ? " BLOCK" : ""}`;
  sent.push(label);
  const n = sent.length;
  const current = gate;
  return (async () => {
    await current.before?.(label, n);
    const reply = realSend.call(this, command, stream);
    current.after?.(label, n);
    return reply;
  })();
};
afterEach(() => {
  gate = undefined;
  sent = [];
});

// Every connection a mailbox opens carries this run's name (ioredis takes options from the URL; duplicates keep
// them), so the server's client list says which of them are still open.
const connectionName = runScopedName("heddle_close");
const url = `${REDIS_URL}/?connectionName=${connectionName}`;
const admin = up ? new Redis(REDIS_URL) : undefined;
afterAll(async () => {
  proto.sendCommand = realSend;
  if (!admin) return;
  const keys = await admin.keys(`${prefix}:*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

async function openConnections(): Promise<number> {
  const list = String(await admin!.client("LIST"));
  return list.split("\n").filter((line) => line.includes(` name=${connectionName} `)).length;
}

/** Resolves once the server lists none of the mailbox's connections (closing sockets take a moment to be seen). */
async function allClosed(): Promise<void> {
  for (let tries = 0; (await openConnections()) > 0; tries++) {
    if (tries > 200) throw new Error(`connections left open: ${await openConnections()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const fresh = () =>
  new RedisTeamMailbox({ url, teamId: runScopedName("race"), keyPrefix: prefix, blockMs: 60_000, claimIdleMs: 0 });

interface RaceCase {
  /** Runs before the gate opens (not counted, never interrupted). */
  setup?(mailbox: RedisTeamMailbox): Promise<void>;
  /** The call close() races. */
  call(mailbox: RedisTeamMailbox): Promise<unknown>;
  /** True when the call blocks on the server (a wait): it is then also closed while its blocking read is in flight. */
  blocks: boolean;
  /** Runs after each race, with what the call resolved to (or undefined when it rejected). */
  check?(mailbox: RedisTeamMailbox, value: unknown): Promise<void>;
}

/** The commands `race.call` sends on a fresh mailbox, up to (and with) its first blocking read when it blocks. */
async function commandsOf(race: RaceCase): Promise<string[]> {
  const mailbox = fresh();
  await race.setup?.(mailbox);
  let blocked!: () => void;
  const reachedBlock = new Promise<void>((resolve) => {
    blocked = resolve;
  });
  gate = { after: (name) => name.endsWith("BLOCK") && blocked() };
  const running = race.call(mailbox).catch(() => {});
  if (race.blocks) await reachedBlock;
  else await running;
  const seen = [...sent];
  gate = undefined;
  await mailbox.close();
  await running;
  sent = [];
  return seen;
}

/** Closes the mailbox just before the k-th command of the call for every k (and during a blocking read). */
async function closeAtEveryCommand(race: RaceCase): Promise<string[]> {
  const commands = await commandsOf(race);
  expect(commands.length).toBeGreaterThan(0);
  const outcomes: string[] = [];
  const points = [
    ...commands.map((_, i) => ({ k: i + 1, afterIt: false })),
    ...(race.blocks ? [{ k: commands.length, afterIt: true }] : []),
  ];
  for (const { k, afterIt } of points) {
    const mailbox = fresh();
    await race.setup?.(mailbox);
    let closing: Promise<void> | undefined;
    const close = (n: number) => {
      if (n === k) closing ??= mailbox.close();
      return closing;
    };
    gate = afterIt ? { after: (_, n) => void close(n) } : { before: async (_, n) => void (await close(n)) };
    let value: unknown;
    const result = await race.call(mailbox).then(
      (resolved) => {
        value = resolved;
        return "resolved";
      },
      (error: unknown) => (error as { code?: string }).code ?? `raw: ${(error as Error).message}`,
    );
    await closing;
    gate = undefined;
    sent = [];
    outcomes.push(`${afterIt ? "after" : "before"} ${commands[k - 1]} (#${k}): ${result}`);
    await race.check?.(mailbox, value);
    await allClosed();
  }
  return outcomes;
}

describe.skipIf(!up)("RedisTeamMailbox.close() racing its calls", () => {
  it("close() before each command of a wait, and while its XREADGROUP BLOCK is on the server: the wait rejects with team_mailbox_closed and no connection stays open", async () => {
    const outcomes = await closeAtEveryCommand({ call: (mailbox) => mailbox.wait("w"), blocks: true });
    expect(outcomes.length).toBeGreaterThanOrEqual(4);
    for (const outcome of outcomes) expect(outcome).toMatch(/: team_mailbox_closed$/);
  }, 60_000);

  it("close() before each command of a dequeue: it rejects with team_mailbox_closed or returns the message, and the message is never lost", async () => {
    // Another mailbox on the same team, outside the race: it sends the message, then looks for it afterwards.
    const other = (mailbox: RedisTeamMailbox) =>
      new RedisTeamMailbox({ url: REDIS_URL, teamId: mailbox.teamId, keyPrefix: prefix, claimIdleMs: 0 });
    const outcomes = await closeAtEveryCommand({
      blocks: false,
      setup: async (mailbox) => {
        const sender = other(mailbox);
        await sender.send({ to: "w", from: "lead", text: "keep me" });
        await sender.close();
      },
      call: (mailbox) => mailbox.dequeue("w"),
      check: async (mailbox, value) => {
        // Either this dequeue handed the message out, or it is still unread and a successor gets it.
        const successor = other(mailbox);
        if (value) {
          expect((value as { text: string }).text).toBe("keep me");
          expect(await successor.list("w")).toEqual([]);
        } else expect((await successor.dequeue("w"))?.text).toBe("keep me");
        await successor.close();
      },
    });
    for (const outcome of outcomes) expect(outcome).toMatch(/: (team_mailbox_closed|resolved)$/);
  }, 60_000);
});
