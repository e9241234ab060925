// RedisTeamMailbox at its edges: what it stamps on a message, a wait cut by an abort while its read blocks on the
// server, ids it must not pass to Redis, and the options it refuses.
import { isHeddleError } from "@heddle/shared";
import Redis from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { REDIS_URL, reachable, runScopedName } from "../../../test/support/services.js";
import { RedisTeamMailbox } from "./redis-mailbox.js";

const up = await reachable(REDIS_URL);
const prefix = runScopedName("heddle_test_edges");
afterAll(async () => {
  if (!up) return;
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const mailboxFor = (teamId: string, blockMs = 5_000) =>
  new RedisTeamMailbox({ url: REDIS_URL, teamId, keyPrefix: prefix, blockMs });

describe.skipIf(!up)("RedisTeamMailbox edges", () => {
  it("stamps teamId only when the sender gave one, and a read message has exactly the fields sent", async () => {
    const mailbox = mailboxFor(runScopedName("stamp"));
    try {
      const plain = await mailbox.send({ to: "w", from: "lead", text: "no team" });
      expect(plain).not.toHaveProperty("teamId");
      const read = await mailbox.dequeue("w");
      expect(read).not.toHaveProperty("teamId");
      expect(read).toMatchObject({ id: plain.id, from: "lead", to: "w", text: "no team", createdAt: plain.createdAt });
      const stamped = await mailbox.send({ to: "w", from: "lead", text: "team", teamId: "t1" });
      expect(stamped.teamId).toBe("t1");
      expect((await mailbox.dequeue("w"))?.teamId).toBe("t1");
    } finally {
      await mailbox.close();
    }
  });

  it("an abort while the read blocks on the server ends the wait with the abort's reason, at once", async () => {
    const mailbox = mailboxFor(runScopedName("abort"), 60_000);
    const admin = new Redis(REDIS_URL);
    try {
      const controller = new AbortController();
      const waiting = mailbox.wait("w", controller.signal);
      // Let the wait reach its blocked XREADGROUP (a minute long), then abort: only the abort can end it now.
      for (let i = 0; i < 200; i++) {
        const list = String(await admin.client("LIST"));
        if (/cmd=xreadgroup/.test(list) && /flags=\w*b/.test(list)) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      controller.abort(new Error("the person stopped it"));
      await expect(waiting).rejects.toThrow("the person stopped it");
      // A later send is still there to read: the aborted wait took nothing.
      await mailbox.send({ to: "w", from: "lead", text: "after" });
      expect((await mailbox.dequeue("w"))?.text).toBe("after");
    } finally {
      await mailbox.close();
      await admin.quit();
    }
  });

  it("a wait given an aborted signal rejects before it reads anything", async () => {
    const mailbox = mailboxFor(runScopedName("pre-abort"));
    try {
      await mailbox.send({ to: "w", from: "lead", text: "waiting here" });
      const controller = new AbortController();
      controller.abort(new Error("already stopped"));
      await expect(mailbox.wait("w", controller.signal)).rejects.toThrow("already stopped");
    } finally {
      await mailbox.close();
    }
  });

  it("markRead of an id that is not a stream id is false and touches nothing; a real id is true once", async () => {
    const mailbox = mailboxFor(runScopedName("ids"));
    try {
      const sent = await mailbox.send({ to: "w", from: "lead", text: "x" });
      for (const bad of ["", "abc", `${sent.id}x`, `x${sent.id}`, "1-2-3", "-", "+"])
        expect(await mailbox.markRead("w", bad), bad).toBe(false);
      expect(await mailbox.peek("w")).toMatchObject({ id: sent.id });
      expect(await mailbox.markRead("w", sent.id)).toBe(true);
      expect(await mailbox.markRead("w", sent.id)).toBe(false);
      expect(await mailbox.peek("w")).toBeUndefined();
    } finally {
      await mailbox.close();
    }
  });

  it("refuses options without a url or client, and a team id that is not a plain id", () => {
    const refused = (options: unknown) => {
      try {
        new RedisTeamMailbox(options as never);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    for (const options of [undefined, { teamId: "t" }]) {
      const error = refused(options);
      expect(isHeddleError(error, "team_invalid_input")).toBe(true);
      expect(String((error as Error).message)).toContain("options.url");
    }
    const badTeam = refused({ url: REDIS_URL, teamId: "" });
    expect(isHeddleError(badTeam, "team_invalid_input")).toBe(true);
    expect(String((badTeam as Error).message)).toContain("options.teamId");
  });

  it("close() during a blocked wait rejects it with team_mailbox_closed, and every later call says closed", async () => {
    const mailbox = mailboxFor(runScopedName("close"), 60_000);
    const waiting = mailbox.wait("w");
    await new Promise((resolve) => setTimeout(resolve, 100));
    await mailbox.close();
    const error = await waiting.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isHeddleError(error, "team_mailbox_closed")).toBe(true);
    for (const call of [
      () => mailbox.send({ to: "w", from: "lead", text: "late" }),
      () => mailbox.peek("w"),
      () => mailbox.wait("w"),
    ]) {
      const late = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isHeddleError(late, "team_mailbox_closed")).toBe(true);
    }
  });
});
