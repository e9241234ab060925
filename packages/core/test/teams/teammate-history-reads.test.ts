import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentMessage } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { MemorySessionStore } from "../../src/sessions/index.js";
import { AgentTeamManager, InMemoryTeamMailbox, type TeammateEvent } from "../../src/teams/index.js";

// A store that counts whole-history reads: the cost of a teammate's turn grows with them (bench/teams.bench.mjs).
class CountingStore extends MemorySessionStore {
  historyReads = 0;
  override getHistory(sessionId: string, options?: { headMessageId?: string | null }): Promise<AgentMessage[]> {
    this.historyReads++;
    return super.getHistory(sessionId, options);
  }
}

describe("teammate history reads", () => {
  it("a turn for a new message reads the stored history once (the turn's own), not again to look for a crash", async () => {
    const store = new CountingStore();
    const mailbox = new InMemoryTeamMailbox();
    const model = createScriptedModel([{ text: "noted" }], { whenExhausted: "repeat-last" });
    const manager = new AgentTeamManager({ mailbox, store, model, compaction: false });
    const seen: TeammateEvent["type"][] = [];
    let idle = 0;
    let wake = () => {};
    manager.subscribe((event) => {
      seen.push(event.type);
      if (event.type === "idle") {
        idle++;
        wake();
      }
    });
    const idleAgain = (count: number) =>
      new Promise<void>((resolve) => {
        wake = () => idle >= count && resolve();
        wake();
      });
    manager.spawn({ agentId: "mate" });
    await idleAgain(1);
    const before = store.historyReads;
    await manager.send("mate", "note this");
    await idleAgain(2);
    expect(store.historyReads - before).toBe(1);
    expect(seen).toContain("turn-finished");
    expect((await mailbox.list("lead")).map((m) => m.kind)).toEqual(["task_notification"]);
    await manager.stopAll();
  });
});
