import { isHeddleError, MissingDependencyError } from "@heddle/shared";
import { describe, expect, it, vi } from "vitest";
import { PostgresSessionStore, RedisTeamMailbox } from "../src/index.js";

// The optional peers are not installed: importing them fails the way Node fails a missing package.
const { missing } = vi.hoisted(() => ({
  missing: (name: string) => () => {
    throw Object.assign(new Error(`Cannot find package '${name}' imported from heddle`), {
      code: "ERR_MODULE_NOT_FOUND",
    });
  },
}));
vi.mock("ioredis", missing("ioredis"));
vi.mock("pg", missing("pg"));

describe("a missing optional dependency", () => {
  it("a Redis mailbox without ioredis fails with dependency_missing and the install command", async () => {
    const mailbox = new RedisTeamMailbox({ url: "redis://127.0.0.1:1", teamId: "team" });
    const error = await mailbox.send({ from: "lead", to: "a", text: "hi" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MissingDependencyError);
    expect(isHeddleError(error, "dependency_missing")).toBe(true);
    expect(error).toMatchObject({ packageName: "ioredis", installCommand: "npm install ioredis" });
    expect((error as Error).message).toContain("npm install ioredis");
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it("a PostgreSQL session store without pg fails with dependency_missing and the install command", async () => {
    const store = new PostgresSessionStore({ connectionString: "postgres://127.0.0.1:1/none" });
    const error = await store.createSession().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MissingDependencyError);
    expect(isHeddleError(error, "dependency_missing")).toBe(true);
    expect(error).toMatchObject({ packageName: "pg", installCommand: "npm install pg" });
  });
});
