import { describe, expect, it } from "vitest";
import { SessionNotFoundError, type TranscriptStore, type UsageStore } from "../sessions/index.js";
import { type MakeStore, storeHarness } from "./harness.js";

/** The behaviour of a store's usage part (`addUsage`, read back with `getSession`), as a vitest suite. */
export function runUsageStoreConformance(name: string, makeStore: MakeStore<TranscriptStore & UsageStore>): void {
  describe(`UsageStore conformance: ${name}`, () => {
    const { fresh } = storeHarness(makeStore);

    it("adds usage per session and per model", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      await store.addUsage(id, { provider: "a", id: "one" }, { inputTokens: 100, outputTokens: 10, costUsd: 0.1 });
      await store.addUsage(id, { provider: "b", id: "two" }, { inputTokens: 50, cacheReadTokens: 5, costUsd: 0.2 });
      const record = await store.addUsage(id, { provider: "a", id: "one" }, { outputTokens: 1, costUsd: 0.1 });
      expect(record.usage).toMatchObject({ inputTokens: 150, outputTokens: 11, cacheReadTokens: 5 });
      expect(record.usage.costUsd).toBeCloseTo(0.4);
      expect(record.usageByModel["a/one"]).toMatchObject({ inputTokens: 100, outputTokens: 11 });
      expect(record.usageByModel["b/two"]?.costUsd).toBeCloseTo(0.2);
      expect((await store.getSession(id))?.usage.costUsd).toBeCloseTo(0.4);
    });

    it("loses no usage under concurrent adds", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      await Promise.all(Array.from({ length: 20 }, () => store.addUsage(id, undefined, { inputTokens: 1 })));
      expect((await store.getSession(id))?.usage.inputTokens).toBe(20);
    });

    it("rejects usage for a session that does not exist", async () => {
      const store = await fresh();
      await expect(store.addUsage("missing", undefined, { inputTokens: 1 })).rejects.toBeInstanceOf(
        SessionNotFoundError,
      );
    });
  });
}
