// The team roster's tables in a SQLite file, and the migrations that bring an older file up to them.
import type Database from "better-sqlite3";
import { TeamError } from "../../teams/contract.js";

const ROSTER_MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE team_roster (
        team_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        record TEXT NOT NULL,
        state TEXT NOT NULL,
        stop_reason TEXT,
        stop_detail TEXT,
        lease_holder TEXT,
        lease_expires_at INTEGER,
        last_worker_id TEXT,
        usage TEXT NOT NULL,
        PRIMARY KEY (team_id, agent_id)
      );
      CREATE TABLE team_tasks (
        team_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        id TEXT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (team_id, seq)
      );
      CREATE UNIQUE INDEX team_tasks_id ON team_tasks(team_id, id);
    `,
  },
];
const ROSTER_SCHEMA_VERSION = ROSTER_MIGRATIONS[ROSTER_MIGRATIONS.length - 1]!.version;

export function migrate(db: Database.Database, path: string): void {
  db.transaction(() => {
    db.exec(
      "CREATE TABLE IF NOT EXISTS team_roster_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)",
    );
    const row = db.prepare("SELECT MAX(version) AS version FROM team_roster_migrations").get() as {
      version: number | null;
    };
    const current = row.version ?? 0;
    if (current > ROSTER_SCHEMA_VERSION)
      throw new TeamError(
        "team_invalid_input",
        `Team roster in ${path} has schema version ${current}, newer than this Heddle supports (${ROSTER_SCHEMA_VERSION}); upgrade @heddle/core.`,
      );
    const record = db.prepare("INSERT INTO team_roster_migrations (version, applied_at) VALUES (?, ?)");
    for (const migration of ROSTER_MIGRATIONS) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      record.run(migration.version, Date.now());
    }
  }).immediate();
}
