import { userMessage } from "@heddle/shared";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { POSTGRES_URL, reachable, runScopedName } from "../../../test/support/services.js";
import { runSessionStoreConformance } from "../../testing/conformance.js";
import { PostgresSessionStore } from "./postgres-store.js";

const up = await reachable(POSTGRES_URL);
if (!up) console.warn(`[heddle] PostgreSQL is not reachable at ${POSTGRES_URL}: the PostgresSessionStore tests skip`);

// Each conformance location is its own schema; every schema this run made is dropped at the end.
const schemas = new Set<string>();
const schemaFor = (location: string) => {
  const schema = `t_${location.replace(/[^A-Za-z0-9_]/g, "_")}`.slice(0, 60);
  schemas.add(schema);
  return schema;
};
afterAll(async () => {
  if (!up || schemas.size === 0) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

// Registered either way: without PostgreSQL the suite reports itself skipped (which CI fails) instead of vanishing.
describe.skipIf(!up)("PostgresSessionStore conformance", () => {
  runSessionStoreConformance(
    "PostgresSessionStore",
    (location) => new PostgresSessionStore({ connectionString: POSTGRES_URL, schema: schemaFor(location) }),
  );
});

describe.skipIf(!up)("PostgresSessionStore specifics", () => {
  it("migrates once under an advisory lock when several stores open one schema at the same time", async () => {
    const schema = schemaFor(runScopedName("mig"));
    const stores = Array.from(
      { length: 4 },
      () => new PostgresSessionStore({ connectionString: POSTGRES_URL, schema }),
    );
    await Promise.all(stores.map((store, i) => store.createSession({ id: `ses_${i}` })));
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    const applied = await client.query(`SELECT version FROM "${schema}".schema_migrations`);
    await client.end();
    expect(applied.rows.map((r) => r.version)).toEqual([1]);
    expect((await stores[0]!.listSessions()).map((s) => s.id).sort()).toEqual(["ses_0", "ses_1", "ses_2", "ses_3"]);
    for (const store of stores) await store.close();
  });

  it("leaves a pool the host passed in open on close(), and refuses a schema name that is not an identifier", async () => {
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
    const store = new PostgresSessionStore({ pool, schema: schemaFor(runScopedName("pool")) });
    await store.createSession({ id: "ses_pool" });
    await store.appendMessage("ses_pool", userMessage("hi"));
    await store.close();
    const still = await pool.query("SELECT 1 AS one");
    expect(still.rows[0].one).toBe(1);
    await pool.end();
    expect(() => new PostgresSessionStore({ pool, schema: 'x"; DROP TABLE y; --' })).toThrow(/schema must match/);
  });
});
