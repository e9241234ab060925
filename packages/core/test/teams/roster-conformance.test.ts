import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import {
  createInMemoryTeamRosterData,
  InMemoryTeamRoster,
  type InMemoryTeamRosterData,
  SqliteTeamRoster,
} from "../../src/teams/index.js";
import { runTeamRosterConformance } from "../../src/testing/index.js";

const memory = new Map<string, InMemoryTeamRosterData>();
runTeamRosterConformance("InMemoryTeamRoster", (location) => {
  const data = memory.get(location) ?? createInMemoryTeamRosterData();
  memory.set(location, data);
  return new InMemoryTeamRoster({ data, teamId: "crew" });
});

const dir = mkdtempSync(join(tmpdir(), "heddle-roster-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
runTeamRosterConformance("SqliteTeamRoster", (location) => new SqliteTeamRoster({ path: join(dir, `${location}.db`) }));
