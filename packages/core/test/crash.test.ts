import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createScriptedModel } from "@heddle/llms/testing";
import { getMessageText, getToolResults } from "@heddle/shared";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, SqliteSessionStore } from "../src/index.js";
import { type Child, childScript } from "./support/child-process.js";

// The child runs the real sources, bundled once with esbuild (the repo's tsconfig paths resolve @heddle/*), so
// this test needs no prior `pnpm build`.
const { buildChild, startChild, removeBundle } = childScript(
  fileURLToPath(new URL("./crash-child.ts", import.meta.url)),
  { waitTimeoutMs: 15_000 },
);
const dir = mkdtempSync(join(tmpdir(), "heddle-crash-"));

beforeAll(() => buildChild(), 60_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  removeBundle();
});

async function kill(child: Child): Promise<void> {
  child.process.kill("SIGKILL");
  await child.exited;
}

function integrity(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma("integrity_check", { simple: true }) as string;
  } finally {
    db.close();
  }
}

/** Reopens the session in this process and checks that the next send works. */
async function resumeAndSend(path: string, id: string) {
  const store = new SqliteSessionStore({ path });
  const model = createScriptedModel([{ text: "resumed fine" }]);
  const session = await openSession({ store, model, id, compaction: false });
  const result = await session.send("are you there?");
  const history = await session.history();
  await session.close();
  await store.close();
  return { result, history, request: model.requests[0]! };
}

describe("crash safety (SIGKILL mid-turn)", () => {
  it("killed while the model streams: the user message is stored and the session resumes", async () => {
    const path = join(dir, "streaming.db");
    const child = startChild(["streaming", path, "ses_stream"]);
    await child.waitFor(/^STREAMING/);
    await kill(child);
    expect(integrity(path)).toBe("ok");
    const { result, history } = await resumeAndSend(path, "ses_stream");
    expect(result.outputText).toBe("resumed fine");
    expect(history.map(getMessageText)).toEqual(["start the work", "are you there?", "resumed fine"]);
  }, 30_000);

  it("killed while a tool runs: the assistant call is stored, gets an error result, and the next send works", async () => {
    const path = join(dir, "tool.db");
    const child = startChild(["tool", path, "ses_tool"]);
    await child.waitFor(/^TOOL_RUNNING/);
    await kill(child);
    expect(integrity(path)).toBe("ok");
    const { result, history, request } = await resumeAndSend(path, "ses_tool");
    expect(result.outputText).toBe("resumed fine");
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user", "assistant"]);
    expect(getToolResults(history[2]!)[0]).toMatchObject({ toolCallId: "call_1", isError: true });
    expect(request.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
  }, 30_000);

  it("killed between two message writes: what was written is there, nothing half-written", async () => {
    const path = join(dir, "between.db");
    const child = startChild(["between-writes", path, "ses_between"]);
    const saved = await child.waitFor(/^SAVED 1 /);
    await child.waitFor(/^BETWEEN_WRITES/);
    await kill(child);
    expect(integrity(path)).toBe("ok");
    const firstId = saved.split(" ")[2];
    const { result, history } = await resumeAndSend(path, "ses_between");
    expect(history[0]!.id).toBe(firstId);
    expect(history.map(getMessageText)).toEqual(["start the work", "are you there?", "resumed fine"]);
    expect(result.status).toBe("completed");
  }, 30_000);

  it("killed at an arbitrary moment of a write loop: every acknowledged append survives", async () => {
    const path = join(dir, "loop.db");
    const child = startChild(["append-loop", path, "ses_loop"]);
    await child.waitFor(/^ACK 40$/);
    await kill(child);
    const acked = child.lines.filter((line) => line.startsWith("ACK ")).length;
    expect(integrity(path)).toBe("ok");
    const store = new SqliteSessionStore({ path });
    const history = await store.getHistory("ses_loop");
    await store.close();
    // At most the one append in flight may have committed without its acknowledgement reaching us.
    expect(history.length).toBeGreaterThanOrEqual(acked);
    expect(history.length).toBeLessThanOrEqual(acked + 1);
    for (const [i, message] of history.entries())
      expect(getMessageText(message)).toMatch(new RegExp(`^ses_loop message ${i} `));
  }, 30_000);

  it("two processes append to two sessions in one file at once without SQLITE_BUSY", async () => {
    const path = join(dir, "shared.db");
    await new SqliteSessionStore({ path }).close();
    const a = startChild(["append-loop", path, "ses_a", "150"]);
    const b = startChild(["append-loop", path, "ses_b", "150"]);
    const [codeA, codeB] = await Promise.all([a.exited, b.exited]);
    expect(a.lines.find((l) => l.startsWith("ERROR")) ?? "").toBe("");
    expect(b.lines.find((l) => l.startsWith("ERROR")) ?? "").toBe("");
    expect([codeA, codeB]).toEqual([0, 0]);
    const store = new SqliteSessionStore({ path });
    expect(await store.getHistory("ses_a")).toHaveLength(150);
    expect(await store.getHistory("ses_b")).toHaveLength(150);
    await store.close();
    expect(integrity(path)).toBe("ok");
  }, 60_000);
});
