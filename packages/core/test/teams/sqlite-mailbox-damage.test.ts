// A SqliteTeamMailbox pointed at a file it cannot use: the error is typed, names the file, and says what to do, as
// the SQLite session store's does (the two often share `.heddle/sessions.db`).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isHeddleError } from "@heddle/shared";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteTeamMailbox, TeamDatabaseError, TeamError } from "../../src/teams/index.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-mailbox-damage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function openError(path: string): unknown {
  try {
    new SqliteTeamMailbox({ path }).close();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("SqliteTeamMailbox on a file that is not a database", () => {
  it("a file of garbage bytes is a database_corrupt TeamDatabaseError naming the file, not a raw SQLITE_NOTADB", () => {
    const path = join(dir, "garbage.db");
    writeFileSync(path, Buffer.from("this is not an SQLite file at all, just some bytes ".repeat(200)));
    const error = openError(path);
    expect(error).toBeInstanceOf(TeamDatabaseError);
    expect(error).toBeInstanceOf(TeamError);
    expect(isHeddleError(error, "database_corrupt")).toBe(true);
    expect((error as TeamDatabaseError).path).toBe(path);
    expect((error as TeamDatabaseError).sqliteCode).toBe("SQLITE_NOTADB");
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toMatch(/team mailbox/);
  });

  it("a folder in place of the file is a database_unavailable TeamDatabaseError naming the path", () => {
    const folder = join(dir, "a-folder.db");
    mkdirSync(folder);
    const error = openError(folder);
    expect(error).toBeInstanceOf(TeamDatabaseError);
    expect(isHeddleError(error, "database_unavailable")).toBe(true);
    expect((error as TeamDatabaseError).path).toBe(folder);
    expect((error as Error).message).toContain(folder);
  });

  it("a send while another connection holds the write lock past busyTimeoutMs is database_unavailable naming the file; nothing is stored, and it works once the lock is gone", async () => {
    const path = join(dir, "locked.db");
    const mailbox = new SqliteTeamMailbox({ path, busyTimeoutMs: 0 });
    const other = new Database(path);
    other.exec("BEGIN IMMEDIATE");
    try {
      const error = await mailbox.send({ to: "w", from: "lead", text: "while locked" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TeamDatabaseError);
      expect(isHeddleError(error, "database_unavailable")).toBe(true);
      expect((error as TeamDatabaseError).sqliteCode).toBe("SQLITE_BUSY");
      expect((error as Error).message).toContain(path);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect(await mailbox.list("w")).toEqual([]);
    await mailbox.send({ to: "w", from: "lead", text: "after" });
    expect((await mailbox.list("w")).map((m) => m.text)).toEqual(["after"]);
    await mailbox.close();
  });
});
