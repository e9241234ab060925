import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { runSessionStoreConformance } from "../../testing/conformance.js";
import { createMemorySessionData, type MemorySessionData, MemorySessionStore } from "../memory/memory-store.js";
import { SESSION_SCHEMA_VERSION } from "./sqlite-schema.js";
import { defaultSessionDbPath, SqliteSessionStore } from "./sqlite-store.js";

const memory = new Map<string, MemorySessionData>();
runSessionStoreConformance("MemorySessionStore", (location) => {
  if (!memory.has(location)) memory.set(location, createMemorySessionData());
  return new MemorySessionStore({ data: memory.get(location)! });
});

const dir = mkdtempSync(join(tmpdir(), "heddle-stores-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
runSessionStoreConformance(
  "SqliteSessionStore",
  (location) => new SqliteSessionStore({ path: join(dir, `${location}.db`) }),
);

describe("SqliteSessionStore specifics", () => {
  it("defaults to .heddle/sessions.db under the workspace and creates the folder", async () => {
    const root = join(dir, "workspace");
    const path = defaultSessionDbPath(root);
    expect(path).toBe(join(root, ".heddle", "sessions.db"));
    const store = new SqliteSessionStore({ path });
    await store.createSession({ id: "ses_1" });
    await store.close();
  });

  it("opens in WAL with a recorded schema version, and a reopen does not migrate twice", async () => {
    const path = join(dir, "pragmas.db");
    await new SqliteSessionStore({ path }).close();
    const store = new SqliteSessionStore({ path, synchronous: "NORMAL" });
    await store.close();
    const Database = (await import("better-sqlite3")).default;
    const db = new Database(path, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("user_version", { simple: true })).toBe(SESSION_SCHEMA_VERSION);
    expect(db.prepare("SELECT COUNT(*) AS n FROM schema_migrations").get()).toEqual({ n: SESSION_SCHEMA_VERSION });
    db.close();
  });

  it("its connection runs with synchronous FULL, a 5 s busy timeout and foreign keys on, unless told otherwise", async () => {
    const Database = (await import("better-sqlite3")).default;
    const settings = async (options: { synchronous?: "FULL" | "NORMAL"; busyTimeoutMs?: number }) => {
      const spy = vi.spyOn(Database.prototype, "pragma");
      const store = new SqliteSessionStore({ path: join(dir, "connection.db"), ...options });
      // The store's own connection, as the first pragma call saw it.
      const db = spy.mock.contexts[0] as InstanceType<typeof Database>;
      spy.mockRestore();
      const read = (name: string) => db.pragma(name, { simple: true });
      const result = [read("synchronous"), read("busy_timeout"), read("foreign_keys")];
      await store.close();
      return result;
    };
    // synchronous: 2 = FULL, 1 = NORMAL.
    expect(await settings({})).toEqual([2, 5000, 1]);
    expect(await settings({ synchronous: "NORMAL", busyTimeoutMs: 250 })).toEqual([1, 250, 1]);
  });

  it("refuses a database written by a newer schema, naming the versions", async () => {
    const path = join(dir, "newer.db");
    await new SqliteSessionStore({ path }).close();
    const Database = (await import("better-sqlite3")).default;
    const db = new Database(path);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 0)").run(
      SESSION_SCHEMA_VERSION + 1,
    );
    db.close();
    expect(() => new SqliteSessionStore({ path })).toThrow(/schema version 2, newer/);
  });

  it("rejects a missing path with a clear error", () => {
    expect(() => new SqliteSessionStore({ path: "" })).toThrow(/options.path/);
  });
});
