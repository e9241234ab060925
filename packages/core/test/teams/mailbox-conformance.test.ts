import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import {
  createInMemoryTeamMailboxData,
  InMemoryTeamMailbox,
  type InMemoryTeamMailboxData,
  SqliteTeamMailbox,
} from "../../src/teams/index.js";
import { runTeamMailboxConformance } from "../../src/testing/index.js";

const memory = new Map<string, InMemoryTeamMailboxData>();
runTeamMailboxConformance("InMemoryTeamMailbox", (location, options) => {
  const data = memory.get(location) ?? createInMemoryTeamMailboxData();
  memory.set(location, data);
  return new InMemoryTeamMailbox({ data, ...options });
});

const dir = mkdtempSync(join(tmpdir(), "heddle-mailbox-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
runTeamMailboxConformance(
  "SqliteTeamMailbox",
  (location, options) => new SqliteTeamMailbox({ path: join(dir, `${location}.db`), pollIntervalMs: 25, ...options }),
);
