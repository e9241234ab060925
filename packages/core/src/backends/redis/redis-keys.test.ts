// Team and agent ids chosen by an attacker to make two inboxes share a Redis key. Every id component of a key is
// escaped, so distinct (team, agent) pairs always have distinct keys, and an inbox is never another's read markers.
import fc from "fast-check";
import Redis from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { REDIS_URL, reachable, runScopedName } from "../../../test/support/services.js";
import { inboxKey, readsKey } from "./redis-keys.js";
import { RedisTeamMailbox } from "./redis-mailbox.js";

const up = await reachable(REDIS_URL);
if (!up) console.warn(`[heddle] Redis is not reachable at ${REDIS_URL}: the Redis key tests skip`);

const prefix = runScopedName("heddle_keys");
const opened: RedisTeamMailbox[] = [];
const mailbox = (teamId: string) => {
  const opening = new RedisTeamMailbox({ url: REDIS_URL, teamId, keyPrefix: prefix, blockMs: 200 });
  opened.push(opening);
  return opening;
};
afterAll(async () => {
  for (const m of opened) await m.close();
  if (!up) return;
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe("Redis team mailbox keys", () => {
  it("are injective: every inbox and read-marker key splits back into exactly the ids it was made from", () => {
    // Ids built from the pieces a key is made of, so separators, segment names and escape-like text all come up.
    const id = fc
      .array(fc.constantFrom("a", ":", "inbox", "read", "team", "%", "3A", "%3A", "%25"), {
        minLength: 1,
        maxLength: 5,
      })
      .map((pieces) => pieces.join(""));
    const decodeSegment = (segment: string) => segment.replace(/%(25|3A)/g, (_, code) => (code === "25" ? "%" : ":"));
    fc.assert(
      fc.property(id, id, (teamId, agentId) => {
        // A left inverse: the key determines its ids, so two distinct (team, agent) pairs never share a key.
        const inbox = inboxKey("p", teamId, agentId).split(":");
        expect(inbox).toHaveLength(5);
        expect([inbox[0], inbox[1], inbox[3]]).toEqual(["p", "team", "inbox"]);
        expect([decodeSegment(inbox[2]!), decodeSegment(inbox[4]!)]).toEqual([teamId, agentId]);
        // One more segment than any inbox: read markers are never another agent's inbox.
        expect(readsKey("p", teamId, agentId).split(":")).toEqual([...inbox, "read"]);
      }),
      { numRuns: 1000 },
    );
  });

  it("keep ids without ':' or '%' as they were, so inboxes written by earlier versions stay readable", () => {
    expect(inboxKey("heddle", "release-42", "worker-1")).toBe("heddle:team:release-42:inbox:worker-1");
    expect(readsKey("heddle", "release-42", "worker-1")).toBe("heddle:team:release-42:inbox:worker-1:read");
  });
});

describe.skipIf(!up)("RedisTeamMailbox with crafted ids", () => {
  it("two teams whose ids are crafted to collide cannot read each other's messages", async () => {
    // Before: team "A", agent "B:inbox:C" and team "A:inbox:B", agent "C" were both "<prefix>:team:A:inbox:B:inbox:C".
    const victim = mailbox("A");
    const attacker = mailbox("A:inbox:B");
    await victim.send({ to: "B:inbox:C", from: "lead", text: "secret of team A" });
    expect(await attacker.list("C")).toEqual([]);
    expect(await attacker.peek("C")).toBeUndefined();
    expect(await attacker.dequeue("C")).toBeUndefined();
    await attacker.send({ to: "C", from: "mallory", text: "planted by the other team" });
    expect((await victim.list("B:inbox:C")).map((m) => m.text)).toEqual(["secret of team A"]);
    expect((await attacker.list("C")).map((m) => m.text)).toEqual(["planted by the other team"]);
    // Clearing one team's inbox leaves the other's alone.
    expect(await attacker.clear("C")).toBe(1);
    expect((await victim.dequeue("B:inbox:C"))?.text).toBe("secret of team A");
  });

  it("an agent named '<other>:read' has its own inbox, not the other agent's read markers", async () => {
    // Before: the inbox of "w:read" was the read-marker hash of "w" (WRONGTYPE on send, markers read as messages).
    const team = mailbox(runScopedName("reads"));
    const first = await team.send({ to: "w", from: "lead", text: "for w" });
    expect(await team.markRead("w", first.id)).toBe(true);
    await team.send({ to: "w:read", from: "lead", text: "for w:read" });
    await team.send({ to: "w", from: "lead", text: "for w again" });
    expect((await team.list("w")).map((m) => m.text)).toEqual(["for w again"]);
    expect((await team.list("w:read")).map((m) => m.text)).toEqual(["for w:read"]);
    expect((await team.dequeue("w:read"))?.text).toBe("for w:read");
    expect((await team.dequeue("w"))?.text).toBe("for w again");
  });

  it("reads an inbox an earlier version wrote under the unescaped key", async () => {
    const teamId = runScopedName("old");
    const redis = new Redis(REDIS_URL);
    await redis.xadd(
      `${prefix}:team:${teamId}:inbox:w`,
      "*",
      "from",
      "lead",
      "to",
      "w",
      "kind",
      "user",
      "text",
      "old",
      "createdAt",
      1,
    );
    await redis.quit();
    expect((await mailbox(teamId).dequeue("w"))?.text).toBe("old");
  });
});
