import { describe, expect, it } from "vitest";
import {
  type CheckpointStore,
  MessageNotFoundError,
  SessionNotFoundError,
  type TranscriptStore,
} from "../sessions/index.js";
import { chain, type MakeStore, storeHarness } from "./harness.js";

/** The behaviour of a store's file-checkpoint part (what `rewind(id, {files: true})` restores), as a vitest suite. */
export function runCheckpointStoreConformance(
  name: string,
  makeStore: MakeStore<TranscriptStore & CheckpointStore>,
): void {
  describe(`CheckpointStore conformance: ${name}`, () => {
    const { fresh } = storeHarness(makeStore);

    it("keeps file checkpoints in write order, with absent files and binary content, filtered by message", async () => {
      const store = await fresh();
      const { id } = await store.createSession();
      const [m1, m2] = await chain(store, id, ["edit a", "edit b"]);
      const bytes = new Uint8Array([0, 255, 1, 128, 10]);
      await store.saveFileCheckpoint({ sessionId: id, messageId: m1!.id, path: "a.txt", content: bytes, createdAt: 1 });
      await store.saveFileCheckpoint({
        sessionId: id,
        messageId: m2!.id,
        path: "new.txt",
        content: null,
        createdAt: 2,
      });
      await store.saveFileCheckpoint({
        sessionId: id,
        messageId: m2!.id,
        path: "empty.txt",
        content: new Uint8Array(0),
        createdAt: 3,
      });
      const all = await store.listFileCheckpoints(id);
      expect(all.map((c) => c.path)).toEqual(["a.txt", "new.txt", "empty.txt"]);
      expect(Array.from(all[0]!.content!)).toEqual([0, 255, 1, 128, 10]);
      expect(all[1]!.content).toBeNull();
      expect(all[2]!.content).toBeInstanceOf(Uint8Array);
      expect(all[2]!.content).toHaveLength(0);
      const after = await store.listFileCheckpoints(id, { afterMessageId: m1!.id });
      expect(after.map((c) => c.path)).toEqual(["new.txt", "empty.txt"]);
      expect(after[0]).toMatchObject({ sessionId: id, messageId: m2!.id, createdAt: 2 });
      await expect(store.listFileCheckpoints(id, { afterMessageId: "msg_nope" })).rejects.toBeInstanceOf(
        MessageNotFoundError,
      );
    });

    it("rejects a checkpoint of a session that does not exist", async () => {
      const store = await fresh();
      await expect(
        store.saveFileCheckpoint({ sessionId: "missing", messageId: "m", path: "x", content: null, createdAt: 1 }),
      ).rejects.toBeInstanceOf(SessionNotFoundError);
    });
  });
}
