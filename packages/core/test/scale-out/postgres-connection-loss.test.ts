// The database drops a PostgresSessionStore's connections (an admin's pg_terminate_backend, a restart, a failover):
// the process lives on, the call that was using the connection fails with a typed error, and the next call works on
// a fresh connection. The drops happen in real child processes (postgres-drop-child.ts), where an error the store
// left unhandled would end the child with code 1.
import { createServer, type Server, Socket } from "node:net";
import { isHeddleError } from "@heddle/shared";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../../src/index.js";
import { childScript, killAll } from "../support/child-process.js";
import { POSTGRES_URL, reachable, runScopedName } from "../support/services.js";

const up = await reachable(POSTGRES_URL);
if (!up) console.warn(`[heddle] PostgreSQL is not reachable at ${POSTGRES_URL}: the connection-loss tests skip`);

const { buildChild, startChild, removeBundle } = childScript(
  new URL("./postgres-drop-child.ts", import.meta.url).pathname,
  { external: ["pg"] },
);
const schemas: string[] = [];
const newSchema = () => {
  const schema = runScopedName("heddle_drop");
  schemas.push(schema);
  return schema;
};

beforeAll(() => (up ? buildChild() : undefined), 60_000);
afterAll(async () => {
  killAll();
  removeBundle();
  if (!up) return;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

function run(mode: "idle" | "active", ownPool = false) {
  const config = { postgresUrl: POSTGRES_URL, schema: newSchema(), appName: runScopedName("heddle_drop"), ownPool };
  return startChild([mode, JSON.stringify(config)]);
}

describe.skipIf(!up)("PostgresSessionStore when the database drops its connections", () => {
  it("idle pooled connections terminated by the server: the process lives on, each loss is logged, the next append uses a fresh connection", async () => {
    const child = run("idle");
    const code = await child.exited;
    const output = `stdout: ${child.lines.join(" | ")}; stderr: ${child.stderr()}`;
    expect(code, output).toBe(0);
    const dropped = Number(/^IDLE (\d+)$/.exec(child.lines.find((l) => l.startsWith("IDLE ")) ?? "")?.[1]);
    expect(dropped, output).toBeGreaterThan(0);
    expect(child.lines, output).toContain(`LOST ${dropped}`);
    expect(child.lines.filter((l) => l.startsWith("WARN ")).every((l) => /PostgresSessionStore/.test(l))).toBe(true);
    expect(child.lines).toContain('HISTORY ["before","after"]');
    expect(child.lines).toContain("FRESH true");
    expect(child.lines.at(-1)).toBe("DONE");
  }, 30_000);

  it("a connection dropped during an append: that append fails with database_unavailable, nothing of it is stored, the next one works", async () => {
    const child = run("active");
    const code = await child.exited;
    const output = `stdout: ${child.lines.join(" | ")}; stderr: ${child.stderr()}`;
    expect(code, output).toBe(0);
    expect(child.lines, output).toContain("BLOCKED_APPEND database_unavailable");
    expect(child.lines).toContain('HISTORY ["first","after"]');
    expect(child.lines.at(-1)).toBe("DONE");
  }, 30_000);

  it("with a pool the host owns: the same typed error, and the store adds no listener to that pool", async () => {
    const child = run("active", true);
    const code = await child.exited;
    const output = `stdout: ${child.lines.join(" | ")}; stderr: ${child.stderr()}`;
    expect(code, output).toBe(0);
    expect(child.lines, output).toContain("BLOCKED_APPEND database_unavailable");
    expect(child.lines).toContain('HISTORY ["first","after"]');
    expect(child.lines).toContain("USER_POOL_LISTENERS 0");
    expect(child.lines.at(-1)).toBe("DONE");
  }, 30_000);

  it("a database that is unreachable at first use: a typed error, and the store connects once it is back", async () => {
    // A gate in front of PostgreSQL: closed, it drops each connection at once (a restart, a failover); open, it
    // forwards to the real server.
    let open = false;
    const sockets = new Set<Socket>();
    const target = new URL(POSTGRES_URL);
    const gate: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      if (!open) return socket.destroy();
      const upstream = new Socket();
      sockets.add(upstream);
      upstream.on("close", () => sockets.delete(upstream));
      upstream.connect(Number(target.port), target.hostname, () => socket.pipe(upstream).pipe(socket));
      upstream.on("error", () => socket.destroy());
      socket.on("error", () => upstream.destroy());
    });
    await new Promise<void>((resolve) => gate.listen(0, "127.0.0.1", resolve));
    const port = (gate.address() as { port: number }).port;
    const url = new URL(POSTGRES_URL);
    url.host = `127.0.0.1:${port}`;
    const store = new PostgresSessionStore({ connectionString: url.toString(), schema: newSchema() });
    try {
      const first = await store.createSession({ id: "s" }).catch((error: unknown) => error);
      expect(isHeddleError(first, "database_unavailable"), String(first)).toBe(true);
      open = true;
      await store.createSession({ id: "s" });
      expect((await store.getSession("s"))?.id).toBe("s");
    } finally {
      await store.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => gate.close(resolve));
    }
  }, 30_000);
});
