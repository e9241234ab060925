import { userMessage } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { type SessionStore, SessionStoreClosedError } from "../sessions/index.js";
import { runCheckpointStoreConformance } from "./checkpoint-conformance.js";
import { chain, type MakeStore, storeHarness } from "./harness.js";
import { runTranscriptStoreConformance } from "./transcript-conformance.js";
import { runUsageStoreConformance } from "./usage-conformance.js";
import { runWorkingContextStoreConformance } from "./working-context-conformance.js";

/**
 * Opens a store at `location`. Calling it again with the same location must open the same data (a reopen after
 * a restart); a new location must be empty. Each test gets its own location.
 */
export type MakeSessionStore = MakeStore<SessionStore>;

/**
 * The behaviour every `SessionStore` must have, as a vitest suite: each part's suite (transcript, usage, working
 * context, checkpoints) and what spans them. Call it at the top level of a test file:
 * `runSessionStoreConformance("my store", (location) => new MyStore(location))`.
 */
export function runSessionStoreConformance(name: string, makeStore: MakeSessionStore): void {
  describe(`SessionStore conformance: ${name}`, () => {
    runTranscriptStoreConformance(name, makeStore);
    runUsageStoreConformance(name, makeStore);
    runWorkingContextStoreConformance(name, makeStore);
    runCheckpointStoreConformance(name, makeStore);

    describe("every part together", () => {
      const { fresh, open } = storeHarness(makeStore);

      it("keeps everything across a reopen", async () => {
        const store = await fresh();
        const { id } = await store.createSession({ title: "kept", cwd: "/w" });
        const messages = await chain(store, id, ["a", "b", "c"]);
        await store.addUsage(id, { provider: "p", id: "m" }, { inputTokens: 10, outputTokens: 4, costUsd: 0.25 });
        await store.saveWorkingContext(id, {
          messages: [userMessage("summary")],
          basedOnMessageId: messages[1]!.id,
          strategy: "summarizing",
          createdAt: 1,
        });
        await store.saveFileCheckpoint({
          sessionId: id,
          messageId: messages[2]!.id,
          path: "a.txt",
          content: null,
          createdAt: 2,
        });
        await store.close();
        const reopened = await open();
        expect(await reopened.getHistory(id)).toEqual(messages);
        expect(await reopened.getSession(id)).toMatchObject({
          title: "kept",
          cwd: "/w",
          headMessageId: messages[2]!.id,
        });
        expect((await reopened.getSession(id))?.usage).toMatchObject({
          inputTokens: 10,
          outputTokens: 4,
          costUsd: 0.25,
        });
        expect((await reopened.getWorkingContext(id))?.basedOnMessageId).toBe(messages[1]!.id);
        expect(await reopened.listFileCheckpoints(id)).toHaveLength(1);
      });

      it("rejects every call once closed", async () => {
        const store = await fresh();
        const { id } = await store.createSession();
        await store.close();
        const calls: Array<() => Promise<unknown>> = [
          () => store.createSession(),
          () => store.getSession(id),
          () => store.listSessions(),
          () => store.appendMessage(id, userMessage("late")),
          () => store.getHistory(id),
          () => store.setHead(id, null),
          () => store.addUsage(id, undefined, { inputTokens: 1 }),
          () => store.saveFileCheckpoint({ sessionId: id, messageId: "m", path: "p", content: null, createdAt: 0 }),
          () => store.listFileCheckpoints(id),
          () => store.deleteSession(id),
        ];
        for (const call of calls) await expect(call()).rejects.toBeInstanceOf(SessionStoreClosedError);
        await expect(store.close()).resolves.toBeUndefined();
      });
    });
  });
}
