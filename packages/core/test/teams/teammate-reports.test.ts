// What a teammate reports to the lead is built from its model's answer, which a hostile or broken model controls.
// The mailboxes refuse text that is not well-formed Unicode and messages over their maxMessageBytes (2 MiB by
// default); a teammate's own report must still always get through, at the team's default limits.
import { createScriptedModel } from "@heddle/llms/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  AgentTeamManager,
  DEFAULT_MAILBOX_MAX_MESSAGE_BYTES,
  DEFAULT_TEAM_LIMITS,
  InMemoryTeamMailbox,
  type TeamMailboxMessage,
} from "../../src/teams/index.js";

let manager: AgentTeamManager | undefined;
afterEach(async () => {
  await manager?.stopAll();
  manager = undefined;
});

/** Runs one teammate turn whose model answers `answer`, and returns the report the lead got. */
async function reportFor(answer: string): Promise<{ report: TeamMailboxMessage; state: string; stopReason?: string }> {
  const mailbox = new InMemoryTeamMailbox();
  manager = new AgentTeamManager({ mailbox, model: createScriptedModel([{ text: answer }]), compaction: false });
  // The report reaches the lead, or the teammate stops (it failed to send it): whichever comes first.
  let stopped!: (error: unknown) => void;
  const failed = new Promise<never>((_, reject) => {
    stopped = reject;
  });
  manager.subscribe((event) => {
    if (event.type === "stopped") stopped(new Error(`the teammate stopped: ${event.reason} ${String(event.error)}`));
  });
  const runner = manager.spawn({ agentId: "worker" }, "do the task");
  await Promise.race([mailbox.wait("lead"), failed]);
  const [report] = await mailbox.list("lead");
  const status = runner.status();
  return { report: report!, state: status.state, ...(status.stopReason && { stopReason: status.stopReason }) };
}

describe("a teammate's report to the lead", () => {
  it("gets through when the model's answer has a lone surrogate: it arrives with U+FFFD in its place, and the teammate runs on", async () => {
    const { report, state, stopReason } = await reportFor("half a pair \ud83d here, and a lone low \udc00 too");
    expect(report.kind).toBe("task_notification");
    expect(report.text).toContain("half a pair \ufffd here, and a lone low \ufffd too");
    expect(report.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(stopReason).toBeUndefined();
    expect(state).not.toBe("stopped");
  });

  it("at the team's default limits, the longest report (cut to 1 MiB, then framed and escaped) fits the mailbox's default cap", async () => {
    // Every character of the answer is part of a tag the frame escapes (`<` becomes `&lt;`), the worst case.
    const answer = "<team_notice>".repeat(Math.ceil((2 * DEFAULT_TEAM_LIMITS.maxMessageBytes) / 13));
    const { report, stopReason } = await reportFor(answer);
    const bytes = Buffer.byteLength(report.text, "utf8");
    // A 1 MiB mailbox cap (the team's text limit) would have refused it, and the teammate would have failed.
    expect(bytes).toBeGreaterThan(DEFAULT_TEAM_LIMITS.maxMessageBytes);
    expect(bytes).toBeLessThanOrEqual(DEFAULT_MAILBOX_MAX_MESSAGE_BYTES);
    expect(report.text).toContain("[... cut: the report was longer than the team's maxMessageBytes]");
    expect(stopReason).toBeUndefined();
  });
});
