// A team on one SQLite file: a teammate with its own session takes tasks from a durable mailbox, reports back,
// and shuts down through the protocol. Sessions and mailbox share the file; a restart resumes where it stopped.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AgentTeamManager,
  SqliteSessionStore,
  SqliteTeamMailbox,
  type TeamMailbox,
  type TeamMailboxMessage,
  type TeamMessageKind,
} from "@heddle/core";
import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentModel } from "@heddle/shared";

/** The lead's next message of one kind (it waits without polling in this process). */
async function nextMail(mailbox: TeamMailbox, kind: TeamMessageKind): Promise<TeamMailboxMessage> {
  while (true) {
    const message = await mailbox.dequeue("lead");
    if (message?.kind === kind) return message;
    if (!message) await mailbox.wait("lead", AbortSignal.timeout(60_000));
  }
}

export async function main(
  model: AgentModel = createScriptedModel([
    { text: "PR 42: the retry loop never gives up; add a limit." },
    { text: "The tests cover the happy path only; add a test for the limit." },
  ]),
) {
  const dir = mkdtempSync(join(tmpdir(), "heddle-team-"));
  const path = join(dir, "team.db");
  const store = new SqliteSessionStore({ path });
  const mailbox = new SqliteTeamMailbox({ path });
  const manager = new AgentTeamManager({ mailbox, store, model, compaction: false });
  manager.subscribe((event) => {
    if (event.type === "turn-finished") console.log(`${event.agentId}: ${event.result.outputText}`);
  });

  manager.spawn(
    { agentId: "reviewer", role: "code reviewer", systemPrompt: "You review code.", autoApproveShutdown: true },
    "Review PR 42.",
  );
  const review = await nextMail(mailbox, "task_notification");
  await manager.send("reviewer", "Now check its tests.");
  const tests = await nextMail(mailbox, "task_notification");

  await manager.requestShutdown("reviewer", "lead", "review done");
  const approval = await nextMail(mailbox, "shutdown_approved");
  console.log(approval.text, manager.status()[0]?.state);

  await manager.stopAll();
  await mailbox.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return { review, tests, approval, status: manager.status() };
}
