import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getMessageText, getToolCalls, getToolResults } from "@heddle/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SqliteSessionStore, SqliteTeamMailbox } from "../../src/index.js";
import { buildChild, killAll, removeBundle, startChild } from "./child-process.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-team-proc-"));
beforeAll(() => buildChild(), 60_000);
afterEach(() => killAll());
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  removeBundle();
});

describe("SqliteTeamMailbox across processes", () => {
  it("4 processes sending to one mailbox at once: nothing lost, nothing duplicated, each in its order", async () => {
    const path = join(dir, "senders.db");
    const mailbox = new SqliteTeamMailbox({ path, pollIntervalMs: 20 });
    // A wait in this process wakes on another process's send (the file is polled).
    const woke = mailbox.wait("sink");
    const startAt = Date.now() + 1500;
    const senders = [0, 1, 2, 3].map((i) => startChild(["send", path, `p${i}`, "100", String(startAt)]));
    const codes = await Promise.all(senders.map((s) => s.exited));
    for (const sender of senders) expect(sender.lines.filter((l) => l.startsWith("ERROR"))).toEqual([]);
    expect(codes).toEqual([0, 0, 0, 0]);
    await woke;
    const texts = (await mailbox.list("sink")).map((m) => m.text);
    expect(texts).toHaveLength(400);
    expect(new Set(texts).size).toBe(400);
    for (let i = 0; i < 4; i++)
      expect(texts.filter((t) => t.startsWith(`p${i}-`))).toEqual(Array.from({ length: 100 }, (_, j) => `p${i}-${j}`));
    await mailbox.close();
  }, 60_000);

  it("2 processes dequeuing at once take each message exactly once", async () => {
    const path = join(dir, "drainers.db");
    const mailbox = new SqliteTeamMailbox({ path });
    for (let i = 0; i < 200; i++) await mailbox.send({ to: "worker", from: "lead", text: `m${i}` });
    await mailbox.send({ to: "worker", from: "lead", text: "STOP" });
    await mailbox.send({ to: "worker", from: "lead", text: "STOP" });
    const startAt = String(Date.now() + 3000);
    const drainers = [startChild(["drain", path, "worker", startAt]), startChild(["drain", path, "worker", startAt])];
    await Promise.all(drainers.map((d) => d.waitFor(/^READY$/)));
    const codes = await Promise.all(drainers.map((d) => d.exited));
    expect(codes).toEqual([0, 0]);
    const got = drainers.map((d) => d.lines.filter((l) => l.startsWith("GOT ")).map((l) => l.slice(4)));
    const all = [...got[0]!, ...got[1]!];
    expect(all).toHaveLength(200);
    expect(new Set(all).size).toBe(200);
    // Both really competed for the same rows.
    expect(got[0]!.length).toBeGreaterThan(0);
    expect(got[1]!.length).toBeGreaterThan(0);
    expect(await mailbox.list("worker")).toEqual([]);
    await mailbox.close();
  }, 60_000);
});

describe("a teammate killed mid-turn", () => {
  it("resumes in a new process: the unread message is delivered once and the transcript stays valid", async () => {
    const path = join(dir, "teammate.db");
    const mailbox = new SqliteTeamMailbox({ path });
    const first = await mailbox.send({ to: "worker", from: "lead", text: "do the first task" });

    const doomed = startChild(["teammate", path, "first"]);
    await doomed.waitFor(/^TOOL_RUNNING$/);
    doomed.process.kill("SIGKILL");
    await doomed.exited;
    expect(await mailbox.list("worker")).toMatchObject([{ id: first.id }]);
    const second = await mailbox.send({ to: "worker", from: "lead", text: "do the second task" });

    const resumed = startChild(["teammate", path, "resume"]);
    expect(await resumed.exited).toBe(0); // it stopped by itself, with nothing left open
    const lines = resumed.lines;
    expect(lines.filter((l) => l.startsWith("TURN_STARTED"))).toEqual([
      "TURN_STARTED do the first task resumed=true",
      "TURN_STARTED do the second task resumed=false",
    ]);
    const requests = lines.filter((l) => l.startsWith("REQUEST ")).map((l) => JSON.parse(l.slice(8)));
    expect(requests).toHaveLength(2);
    // The first request after the crash: the cut call has an error result, so nothing dangles.
    expect(requests[0].map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(requests[0][2].results).toEqual([{ id: "call_slow", isError: true }]);
    expect(requests[0][3].text).toContain("cut off by a restart");
    expect(requests[1].map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "user",
      "assistant",
      "user",
    ]);

    const store = new SqliteSessionStore({ path });
    const history = await store.getHistory("teammate-worker");
    await store.close();
    const texts = history.map(getMessageText);
    expect(texts.filter((t) => t.includes("do the first task"))).toHaveLength(1);
    expect(texts.filter((t) => t.includes("do the second task"))).toHaveLength(1);
    // Every tool call in the stored transcript has its result right after it.
    history.forEach((message, i) => {
      const calls = getToolCalls(message).map((c) => c.toolCallId);
      if (calls.length > 0) expect(getToolResults(history[i + 1]!).map((r) => r.toolCallId)).toEqual(calls);
    });
    expect(await mailbox.list("worker")).toEqual([]);
    const notices = (await mailbox.list("lead")).filter((m) => m.kind === "task_notification");
    expect(
      notices.map((m) => m.text.includes("finished after the restart") || m.text.includes("second task done")),
    ).toEqual([true, true]);
    void second;
    await mailbox.close();
  }, 60_000);
});
