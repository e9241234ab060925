import { describe, expect, it, vi } from "vitest";

// A machine where better-sqlite3 is missing (or its native build failed): requiring it throws.
vi.mock("node:module", async (original) => ({
  ...(await original<typeof import("node:module")>()),
  createRequire: () => {
    const missing = () => {
      throw Object.assign(new Error("Cannot find module 'better-sqlite3'"), { code: "MODULE_NOT_FOUND" });
    };
    return Object.assign(missing, { resolve: missing });
  },
}));

const { SqliteSessionStore } = await import("./sqlite-store.js");
const { SqliteTeamMailbox } = await import("./sqlite-mailbox.js");

describe("a SQLite backend whose driver cannot load", () => {
  it("says, when it opens, which package is missing and how to install it", () => {
    for (const open of [
      () => new SqliteSessionStore({ path: ":memory:" }),
      () => new SqliteTeamMailbox({ path: ":memory:" }),
    ]) {
      expect(open).toThrow(/needs the "better-sqlite3" package.*npm install better-sqlite3/);
      expect(open).toThrow(/Cannot find module 'better-sqlite3'/);
      expect(open).toThrow(expect.objectContaining({ code: "dependency_missing" }));
    }
  });
});
