import { userMessage } from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { MessageNotFoundError, type TranscriptStore, type WorkingContextStore } from "../sessions/index.js";
import { chain, type MakeStore, storeHarness } from "./harness.js";

/** The behaviour of a store's working-context part (the compacted view beside the transcript), as a vitest suite. */
export function runWorkingContextStoreConformance(
  name: string,
  makeStore: MakeStore<TranscriptStore & WorkingContextStore>,
): void {
  describe(`WorkingContextStore conformance: ${name}`, () => {
    const { fresh } = storeHarness(makeStore);

    it("stores, replaces and clears the working context beside the transcript", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      const messages = await chain(store, id, ["a", "b"]);
      expect(await store.getWorkingContext(id)).toBeUndefined();
      const context = {
        messages: [userMessage("sum")],
        basedOnMessageId: messages[0]!.id,
        strategy: "s",
        createdAt: 5,
      };
      await store.saveWorkingContext(id, context);
      await store.saveWorkingContext(id, { ...context, basedOnMessageId: messages[1]!.id });
      expect(await store.getWorkingContext(id)).toEqual({ ...context, basedOnMessageId: messages[1]!.id });
      expect(await store.getHistory(id)).toEqual(messages);
      await expect(store.saveWorkingContext(id, { ...context, basedOnMessageId: "msg_nope" })).rejects.toBeInstanceOf(
        MessageNotFoundError,
      );
      await store.saveWorkingContext(id, null);
      expect(await store.getWorkingContext(id)).toBeUndefined();
    });
  });
}
