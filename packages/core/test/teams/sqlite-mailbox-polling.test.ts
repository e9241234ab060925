// How a SqliteTeamMailbox sees a send it did not make: mailboxes on one file in one process wake each other at once;
// a mailbox that does not know the sender (another process) polls the file while, and only while, a wait is pending.
// Another process is stood in for by a second path to the same file (through a symlinked folder): the mailboxes key
// their in-process siblings by the resolved path, so only the poll can carry the send across.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isHeddleError } from "@heddle/shared";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteTeamMailbox } from "../../src/teams/index.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-mailbox-poll-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** One database file, reachable by two paths that resolve differently (a folder and a symlink to it). */
function twoPaths(): [string, string] {
  const real = join(dir, `real-${++files}`);
  mkdirSync(real);
  const alias = join(dir, `alias-${files}`);
  symlinkSync(real, alias);
  return [join(real, "team.db"), join(alias, "team.db")];
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("SqliteTeamMailbox: a send from a mailbox it does not know", () => {
  it("wakes a wait through the poll, which runs only while the wait is pending", async () => {
    const [path, other] = twoPaths();
    const waiter = new SqliteTeamMailbox({ path, pollIntervalMs: 10 });
    const sender = new SqliteTeamMailbox({ path: other, pollIntervalMs: 10 });
    try {
      expect(waiter.polling).toBe(false);
      let woke = false;
      const waiting = waiter.wait("w").then(() => {
        woke = true;
      });
      expect(waiter.polling).toBe(true);
      expect(waiter.waiting).toBe(1);
      await sender.send({ from: "lead", to: "w", text: "hello" });
      // No sibling wake is possible across the two paths: the wait ends through the poll alone.
      await waiting;
      expect(woke).toBe(true);
      expect(waiter.waiting).toBe(0);
      expect(waiter.polling).toBe(false);
      expect((await waiter.peek("w"))?.text).toBe("hello");
    } finally {
      await waiter.close();
      await sender.close();
    }
  });

  it("a send to another agent does not end the wait, and the poll goes on until its own message comes", async () => {
    const [path, other] = twoPaths();
    const waiter = new SqliteTeamMailbox({ path, pollIntervalMs: 10 });
    const sender = new SqliteTeamMailbox({ path: other, pollIntervalMs: 10 });
    try {
      let woke = false;
      const waiting = waiter.wait("w").then(() => {
        woke = true;
      });
      await sender.send({ from: "lead", to: "someone-else", text: "not for w" });
      // Several poll periods pass: the file changed, but not for w.
      for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(woke).toBe(false);
      expect(waiter.polling).toBe(true);
      await sender.send({ from: "lead", to: "w", text: "for w" });
      await waiting;
      expect(woke).toBe(true);
    } finally {
      await waiter.close();
      await sender.close();
    }
  });

  it("two waits on one mailbox share one poll, which stops when the last of them ends", async () => {
    const [path, other] = twoPaths();
    const waiter = new SqliteTeamMailbox({ path, pollIntervalMs: 10 });
    const sender = new SqliteTeamMailbox({ path: other, pollIntervalMs: 10 });
    try {
      const first = waiter.wait("a");
      const second = waiter.wait("b");
      expect(waiter.waiting).toBe(2);
      await sender.send({ from: "lead", to: "a", text: "for a" });
      await first;
      // b still waits, so the poll must still run.
      expect(waiter.waiting).toBe(1);
      expect(waiter.polling).toBe(true);
      await sender.send({ from: "lead", to: "b", text: "for b" });
      await second;
      expect(waiter.polling).toBe(false);
    } finally {
      await waiter.close();
      await sender.close();
    }
  });
});

describe("SqliteTeamMailbox: waits that end without a message", () => {
  it("a wait given an aborted signal rejects with its reason and leaves nothing waiting or polling", async () => {
    const mailbox = new SqliteTeamMailbox({ path: ":memory:" });
    try {
      const controller = new AbortController();
      controller.abort(new Error("stop now"));
      await expect(mailbox.wait("w", controller.signal)).rejects.toThrow("stop now");
      expect(mailbox.waiting).toBe(0);
      expect(mailbox.polling).toBe(false);
    } finally {
      await mailbox.close();
    }
  });

  it("close() rejects a pending wait with team_mailbox_closed and stops the poll; a later call says closed", async () => {
    const mailbox = new SqliteTeamMailbox({ path: ":memory:" });
    const waiting = mailbox.wait("w");
    expect(mailbox.polling).toBe(true);
    await mailbox.close();
    const error = await waiting.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isHeddleError(error, "team_mailbox_closed")).toBe(true);
    expect(mailbox.polling).toBe(false);
    await expect(mailbox.send({ from: "lead", to: "w", text: "late" })).rejects.toThrow(/closed/);
    // Closing twice is harmless.
    await mailbox.close();
  });

  it("a mailbox opened after its siblings closed still wakes its own waits at once", async () => {
    const [path] = twoPaths();
    const first = new SqliteTeamMailbox({ path });
    await first.close();
    const waiter = new SqliteTeamMailbox({ path, pollIntervalMs: 60_000 });
    const sender = new SqliteTeamMailbox({ path });
    try {
      const waiting = waiter.wait("w");
      await sender.send({ from: "lead", to: "w", text: "now" });
      // The poll would take a minute: only the sibling wake can end this wait.
      let woke = false;
      void waiting.then(() => {
        woke = true;
      });
      for (let i = 0; i < 20 && !woke; i++) await settle();
      expect(woke).toBe(true);
    } finally {
      await waiter.close();
      await sender.close();
    }
  });
});

describe("SqliteTeamMailbox options", () => {
  it("refuses a missing or empty path with team_invalid_input that names the option", () => {
    for (const options of [undefined, {}, { path: "" }] as never[]) {
      let error: unknown;
      try {
        new SqliteTeamMailbox(options);
      } catch (e) {
        error = e;
      }
      expect(isHeddleError(error, "team_invalid_input")).toBe(true);
      expect(String((error as Error).message)).toContain("options.path");
    }
  });

  it("creates the folder of a file path that does not exist yet; ':memory:' mailboxes share nothing", async () => {
    const path = join(dir, "made", "on", "demand", "team.db");
    const onDisk = new SqliteTeamMailbox({ path });
    const a = new SqliteTeamMailbox({ path: ":memory:" });
    const b = new SqliteTeamMailbox({ path: ":memory:" });
    try {
      await onDisk.send({ from: "lead", to: "w", text: "kept" });
      expect((await onDisk.peek("w"))?.text).toBe("kept");
      await a.send({ from: "lead", to: "w", text: "only in a" });
      expect(await b.peek("w")).toBeUndefined();
    } finally {
      await onDisk.close();
      await a.close();
      await b.close();
    }
  });
});
