import { HeddleError } from "@heddle/shared";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_MAILBOX_MAX_MESSAGE_BYTES, type TeamMailbox } from "../teams/index.js";

/** Options the suite passes when it opens a mailbox; a mailbox must honour each one it is given. */
export interface TeamMailboxConformanceOptions {
  /** The largest message `send` may store, in UTF-8 bytes of its text and ids (`to`, `from`, `teamId`). */
  maxMessageBytes?: number;
}

/**
 * Opens a mailbox at `location`. Opening the same location again must reach the same messages (another process or
 * a restart); a new location must be empty. Each test gets its own location. `options` are the mailbox's options
 * for this test (absent: the defaults).
 */
export type MakeTeamMailbox = (
  location: string,
  options?: TeamMailboxConformanceOptions,
) => TeamMailbox | Promise<TeamMailbox>;

let locationCounter = 0;
const tick = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The behaviour every `TeamMailbox` must have, as a vitest suite. Call it at the top level of a test file:
 * `runTeamMailboxConformance("my mailbox", (location) => new MyMailbox(location))`.
 */
export function runTeamMailboxConformance(name: string, makeMailbox: MakeTeamMailbox): void {
  describe(`TeamMailbox conformance: ${name}`, () => {
    const opened: TeamMailbox[] = [];
    let location = "";
    const open = async (options?: TeamMailboxConformanceOptions): Promise<TeamMailbox> => {
      const mailbox = await (options ? makeMailbox(location, options) : makeMailbox(location));
      opened.push(mailbox);
      return mailbox;
    };
    const fresh = async (options?: TeamMailboxConformanceOptions): Promise<TeamMailbox> => {
      location = `mailbox-conformance-${process.pid}-${Date.now()}-${++locationCounter}`;
      return open(options);
    };
    afterEach(async () => {
      for (const mailbox of opened.splice(0)) await mailbox.close();
    });

    it("sends a message with its fields; kind defaults to user", async () => {
      const mailbox = await fresh();
      const before = Date.now();
      const sent = await mailbox.send({ to: "worker", from: "lead", text: "hello", teamId: "t1" });
      expect(sent).toMatchObject({ to: "worker", from: "lead", text: "hello", teamId: "t1", kind: "user" });
      expect(sent.id).toMatch(/\S/);
      expect(sent.createdAt).toBeGreaterThanOrEqual(before);
      expect(sent.readAt).toBeUndefined();
      const control = await mailbox.send({ to: "worker", from: "lead", text: "stop", kind: "shutdown_request" });
      expect(control.kind).toBe("shutdown_request");
      expect(control.teamId).toBeUndefined();
      expect(control.id).not.toBe(sent.id);
    });

    it("peek leaves a message unread; dequeue takes the oldest and marks it read", async () => {
      const mailbox = await fresh();
      const first = await mailbox.send({ to: "w", from: "lead", text: "one" });
      await mailbox.send({ to: "w", from: "lead", text: "two" });
      await mailbox.send({ to: "other", from: "lead", text: "not yours" });
      expect((await mailbox.peek("w"))?.id).toBe(first.id);
      expect((await mailbox.peek("w"))?.id).toBe(first.id);
      const taken = await mailbox.dequeue("w");
      expect(taken).toMatchObject({ id: first.id, text: "one" });
      expect(taken?.readAt).toEqual(expect.any(Number));
      expect((await mailbox.dequeue("w"))?.text).toBe("two");
      expect(await mailbox.dequeue("w")).toBeUndefined();
      expect(await mailbox.peek("w")).toBeUndefined();
      expect(await mailbox.peek("nobody")).toBeUndefined();
      expect((await mailbox.list("other")).map((m) => m.text)).toEqual(["not yours"]);
    });

    it("keeps send order even within one millisecond", async () => {
      const mailbox = await fresh();
      const texts = Array.from({ length: 30 }, (_, i) => `m${i}`);
      for (const text of texts) await mailbox.send({ to: "w", from: "lead", text });
      expect((await mailbox.list("w")).map((m) => m.text)).toEqual(texts);
      const taken: string[] = [];
      for (let m = await mailbox.dequeue("w"); m; m = await mailbox.dequeue("w")) taken.push(m.text);
      expect(taken).toEqual(texts);
    });

    it("markRead marks an unread message of that agent once", async () => {
      const mailbox = await fresh();
      const a = await mailbox.send({ to: "w", from: "lead", text: "a" });
      const b = await mailbox.send({ to: "w", from: "lead", text: "b" });
      expect(await mailbox.markRead("someone-else", a.id)).toBe(false);
      expect(await mailbox.markRead("w", "msg_unknown")).toBe(false);
      expect(await mailbox.markRead("w", a.id)).toBe(true);
      expect(await mailbox.markRead("w", a.id)).toBe(false);
      expect((await mailbox.list("w")).map((m) => m.id)).toEqual([b.id]);
      expect((await mailbox.peek("w"))?.id).toBe(b.id);
    });

    it("clear deletes every message of one agent and says how many", async () => {
      const mailbox = await fresh();
      await mailbox.send({ to: "w", from: "lead", text: "a" });
      await mailbox.send({ to: "w", from: "lead", text: "b" });
      await mailbox.send({ to: "w", from: "lead", text: "c" });
      await mailbox.dequeue("w");
      await mailbox.send({ to: "v", from: "lead", text: "kept" });
      expect(await mailbox.clear("w")).toBe(3);
      expect(await mailbox.list("w")).toEqual([]);
      expect(await mailbox.clear("w")).toBe(0);
      expect((await mailbox.list("v")).map((m) => m.text)).toEqual(["kept"]);
    });

    it("hands out copies: changing a returned message changes nothing stored", async () => {
      const mailbox = await fresh();
      const sent = await mailbox.send({ to: "w", from: "lead", text: "original" });
      sent.text = "changed";
      const listed = await mailbox.list("w");
      listed[0]!.text = "changed too";
      expect((await mailbox.peek("w"))?.text).toBe("original");
    });

    it("refuses bad input with team_invalid_input", async () => {
      const mailbox = await fresh();
      const bad = [
        { to: "", from: "lead", text: "x" },
        { to: "w", from: "", text: "x" },
        { to: "w", from: "lead", text: 42 },
        { to: "w", from: "lead", text: "x", kind: "gossip" },
      ];
      for (const input of bad)
        await expect(mailbox.send(input as never)).rejects.toMatchObject({ code: "team_invalid_input" });
      await expect(mailbox.dequeue("")).rejects.toMatchObject({ code: "team_invalid_input" });
    });

    it("refuses a message over maxMessageBytes (UTF-8 bytes of text and ids) with team_message_too_large, storing nothing", async () => {
      const mailbox = await fresh({ maxMessageBytes: 64 });
      // "w" and "lead" are 5 bytes: 59 bytes of text fit, 60 do not.
      const fits = await mailbox.send({ to: "w", from: "lead", text: "x".repeat(59) });
      await expect(mailbox.send({ to: "w", from: "lead", text: "x".repeat(60) })).rejects.toMatchObject({
        code: "team_message_too_large",
        bytes: 65,
        maxBytes: 64,
      });
      // Counted in UTF-8, not in UTF-16 units: 30 "é" are 60 bytes.
      await expect(mailbox.send({ to: "w", from: "lead", text: "é".repeat(30) })).rejects.toMatchObject({
        code: "team_message_too_large",
      });
      // The ids count too.
      await mailbox.send({ to: "w", from: "f".repeat(63), text: "" });
      await expect(mailbox.send({ to: "w", from: "f".repeat(64), text: "" })).rejects.toMatchObject({
        code: "team_message_too_large",
      });
      await expect(
        mailbox.send({ to: "w", from: "lead", text: "x".repeat(30), teamId: "t".repeat(30) }),
      ).rejects.toMatchObject({ code: "team_message_too_large" });
      expect((await mailbox.list("w")).map((m) => [m.from.length, m.text.length])).toEqual([
        [4, 59],
        [63, 0],
      ]);
      expect((await mailbox.peek("w"))?.id).toBe(fits.id);
    });

    it("by default stores a message of 2 MiB exactly and refuses one byte more", async () => {
      const mailbox = await fresh();
      expect(DEFAULT_MAILBOX_MAX_MESSAGE_BYTES).toBe(2 * 1024 * 1024);
      const text = "y".repeat(DEFAULT_MAILBOX_MAX_MESSAGE_BYTES - "w".length - "lead".length);
      await mailbox.send({ to: "w", from: "lead", text });
      await expect(mailbox.send({ to: "w", from: "lead", text: `${text}y` })).rejects.toMatchObject({
        code: "team_message_too_large",
      });
      const stored = await mailbox.list("w");
      expect(stored).toHaveLength(1);
      expect(stored[0]!.text === text).toBe(true);
    });

    it("refuses text and ids that are not well-formed Unicode (a lone surrogate) with team_invalid_input, storing nothing", async () => {
      const mailbox = await fresh();
      const bad = [
        { to: "w", from: "lead", text: "\ud800" },
        { to: "w", from: "lead", text: "before \udc00 after" },
        { to: "w", from: "lead", text: "ends high \udbff" },
        { to: "w", from: "lead", text: "reversed \udc00\ud800 pair" },
        { to: "w\ud800", from: "lead", text: "x" },
        { to: "w", from: "\udfff", text: "x" },
        { to: "w", from: "lead", text: "x", teamId: "t\ud800" },
      ];
      for (const input of bad)
        await expect(mailbox.send(input), JSON.stringify(input)).rejects.toMatchObject({ code: "team_invalid_input" });
      await expect(mailbox.list("w\ud800")).rejects.toMatchObject({ code: "team_invalid_input" });
      await expect(mailbox.peek("\udc00")).rejects.toMatchObject({ code: "team_invalid_input" });
      await expect(mailbox.wait("\ud800")).rejects.toMatchObject({ code: "team_invalid_input" });
      expect(await mailbox.list("w")).toEqual([]);
    });

    it("keeps well-formed text and ids exactly: astral characters, U+FFFD, NUL, combining marks, CR LF", async () => {
      const first = await fresh();
      const text = "a\u0000b 😀 \ufffd e\u0301 \r\n 𝌆 \u{10ffff} end";
      const to = "agent-😀-é";
      const sent = await first.send({ to, from: "lead-\u{1f980}", text, teamId: "team-𝌆" });
      expect(sent).toMatchObject({ to, from: "lead-\u{1f980}", text, teamId: "team-𝌆" });
      expect((await first.list(to)).map((m) => m.text)).toEqual([text]);
      await first.close();
      const reopened = await open();
      const [stored] = await reopened.list(to);
      expect(stored).toMatchObject({ to, from: "lead-\u{1f980}", text, teamId: "team-𝌆" });
      expect((await reopened.dequeue(to))?.text).toBe(text);
    });

    it("wait resolves at once when mail is there, and when mail arrives for that agent only", async () => {
      const mailbox = await fresh();
      await mailbox.send({ to: "ready", from: "lead", text: "already here" });
      await mailbox.wait("ready");

      let woke = false;
      const waiting = mailbox.wait("w").then(() => {
        woke = true;
      });
      await tick();
      await mailbox.send({ to: "someone-else", from: "lead", text: "not for w" });
      await tick();
      expect(woke).toBe(false);
      await mailbox.send({ to: "w", from: "lead", text: "for w" });
      await waiting;
      expect(woke).toBe(true);
    });

    it("wait wakes on a message sent through another mailbox on the same location", async () => {
      const receiver = await fresh();
      const sender = await open();
      const waiting = receiver.wait("w");
      await tick();
      await sender.send({ to: "w", from: "lead", text: "from elsewhere" });
      await waiting;
      expect((await receiver.dequeue("w"))?.text).toBe("from elsewhere");
    });

    it("wait rejects when its signal aborts and when the mailbox closes", async () => {
      const mailbox = await fresh();
      const controller = new AbortController();
      const aborted = mailbox.wait("w", controller.signal);
      controller.abort(new HeddleError("aborted", "gave up"));
      await expect(aborted).rejects.toThrow("gave up");
      await expect(mailbox.wait("w", controller.signal)).rejects.toThrow("gave up");

      const closing = await open();
      const pending = closing.wait("w");
      await tick();
      await closing.close();
      await expect(pending).rejects.toMatchObject({ code: "team_mailbox_closed" });
      await expect(closing.send({ to: "w", from: "lead", text: "late" })).rejects.toMatchObject({
        code: "team_mailbox_closed",
      });
    });

    it("keeps messages and their read state across a reopen", async () => {
      const first = await fresh();
      const a = await first.send({ to: "w", from: "lead", text: "a" });
      await first.send({ to: "w", from: "lead", text: "b" });
      await first.markRead("w", a.id);
      await first.close();
      const reopened = await open();
      expect((await reopened.list("w")).map((m) => m.text)).toEqual(["b"]);
    });

    it("concurrent senders through several mailboxes lose and duplicate nothing", async () => {
      const mailboxes = [await fresh(), await open(), await open(), await open()];
      await Promise.all(
        mailboxes.map(async (mailbox, sender) => {
          for (let i = 0; i < 25; i++) await mailbox.send({ to: "sink", from: `s${sender}`, text: `s${sender}-${i}` });
        }),
      );
      const texts = (await mailboxes[0]!.list("sink")).map((m) => m.text);
      expect(texts).toHaveLength(100);
      expect(new Set(texts).size).toBe(100);
      // Each sender's messages stay in its own order.
      for (let sender = 0; sender < 4; sender++) {
        const own = texts.filter((t) => t.startsWith(`s${sender}-`));
        expect(own).toEqual(Array.from({ length: 25 }, (_, i) => `s${sender}-${i}`));
      }
    });

    it("concurrent dequeues through two mailboxes take each message exactly once", async () => {
      const a = await fresh();
      const b = await open();
      for (let i = 0; i < 60; i++) await a.send({ to: "w", from: "lead", text: `m${i}` });
      const drain = async (mailbox: TeamMailbox) => {
        const got: string[] = [];
        for (let m = await mailbox.dequeue("w"); m; m = await mailbox.dequeue("w")) {
          got.push(m.text);
          await Promise.resolve();
        }
        return got;
      };
      const [fromA, fromB] = await Promise.all([drain(a), drain(b)]);
      const all = [...fromA, ...fromB];
      expect(all).toHaveLength(60);
      expect(new Set(all).size).toBe(60);
    });
  });
}
