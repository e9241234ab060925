// A child process for postgres-connection-loss.test.ts: a PostgresSessionStore whose connections the database drops
// (`pg_terminate_backend` from a separate admin connection, opened here). In a process of its own, so an error the
// store leaves unhandled kills this child, not the test runner. Every connection of the store carries a unique
// `application_name`, so the admin terminates this store's connections and no one else's.
// - `idle <config>`: drops the store's idle pooled connections, waits until the store reported each loss, then
//   appends and reads again.
// - `active <config>`: drops the store's connection while an append waits on a row lock the admin holds; the append
//   must fail with a typed error, and the next append succeed. `config.ownPool` gives the store a pool this process
//   owns (with its own `error` listener, as pg asks of every pool owner) instead of a connection string.
import { writeSync } from "node:fs";
import { getMessageText, isHeddleError, type Logger, userMessage } from "@heddle/shared";
import pg from "pg";
import { PostgresSessionStore } from "../../src/index.js";

interface Config {
  postgresUrl: string;
  schema: string;
  appName: string;
  ownPool?: boolean;
}

const [mode, rawConfig] = process.argv.slice(2) as [string, string];
const config = JSON.parse(rawConfig) as Config;
const say = (line: string) => writeSync(1, `${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The store's warnings: each lost idle connection is one; `lostConnections` resolves once `n` arrived.
const warnings: string[] = [];
const warned: Array<() => void> = [];
const logger: Logger = {
  debug() {},
  info() {},
  warn: (message) => {
    warnings.push(message);
    say(`WARN ${message.replace(/\s+/g, " ")}`);
    for (const wake of warned.splice(0)) wake();
  },
  error: (message) => say(`LOGGED_ERROR ${message}`),
};
async function lostConnections(n: number): Promise<void> {
  while (warnings.length < n) await new Promise<void>((resolve) => warned.push(resolve));
}

const url = new URL(config.postgresUrl);
url.searchParams.set("application_name", config.appName);
const userPool = config.ownPool ? new pg.Pool({ connectionString: url.toString(), max: 3 }) : undefined;
userPool?.on("error", (error) => say(`USER_POOL_ERROR ${error.message}`));
const userPoolListeners = () => userPool?.listenerCount("error") ?? 0;
const store = new PostgresSessionStore({
  ...(userPool ? { pool: userPool } : { connectionString: url.toString() }),
  schema: config.schema,
  maxConnections: 3,
  logger,
});
const admin = new pg.Client({ connectionString: config.postgresUrl });
const storePids = async (where = "true"): Promise<number[]> =>
  (
    await admin.query(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND ${where} ORDER BY pid`, [
      config.appName,
    ])
  ).rows.map((row) => Number(row.pid));
const texts = async () => (await store.getHistory("s")).map((message) => getMessageText(message));
const codeOf = (error: unknown) => (isHeddleError(error) ? error.code : `raw ${String(error)}`);

async function idle(): Promise<void> {
  await store.createSession({ id: "s" });
  await store.appendMessage("s", userMessage("before"));
  // Three reads at once open up to three pooled connections; all of them are idle afterwards.
  await Promise.all([texts(), texts(), texts()]);
  const dropped = await storePids("state = 'idle'");
  say(`IDLE ${dropped.length}`);
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY($1::int[])", [dropped]);
  // Event-driven, not timed: the store reports each dropped connection once the pool noticed it.
  await lostConnections(dropped.length);
  say(`LOST ${warnings.length}`);
  await store.appendMessage("s", userMessage("after"));
  say(`HISTORY ${JSON.stringify(await texts())}`);
  const now = await storePids();
  say(`FRESH ${now.length > 0 && now.every((pid) => !dropped.includes(pid))}`);
}

async function active(): Promise<void> {
  const listenersBefore = userPoolListeners();
  await store.createSession({ id: "s" });
  await store.appendMessage("s", userMessage("first"));
  // The admin holds the session's row: the store's next append waits for it, on the server.
  await admin.query("BEGIN");
  await admin.query(`SELECT 1 FROM "${config.schema}".sessions WHERE id = 's' FOR UPDATE`);
  const blocked = store.appendMessage("s", userMessage("blocked")).then(
    () => "stored",
    (error: unknown) => codeOf(error),
  );
  // Wait (on a server fact, polled) until the append is the one waiting for the lock, then drop its connection.
  let waiting: number[] = [];
  for (let tries = 0; waiting.length === 0; tries++) {
    if (tries > 500) throw new Error("the append never waited for the row lock");
    await sleep(20);
    waiting = await storePids("wait_event_type = 'Lock'");
  }
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY($1::int[])", [waiting]);
  say(`BLOCKED_APPEND ${await blocked}`);
  await admin.query("ROLLBACK");
  await store.appendMessage("s", userMessage("after"));
  say(`HISTORY ${JSON.stringify(await texts())}`);
  if (userPool) say(`USER_POOL_LISTENERS ${userPoolListeners() - listenersBefore}`);
}

async function main(): Promise<void> {
  await admin.connect();
  if (mode === "idle") await idle();
  else if (mode === "active") await active();
  else throw new Error(`unknown mode ${mode}`);
  await store.close();
  await userPool?.end();
  await admin.end();
  say("DONE");
}

// On success the process ends by itself; an error the store left unhandled would end it with code 1 before DONE.
main().catch((error) => {
  say(`ERROR ${(error as Error)?.stack ?? String(error)}`);
  process.exit(2);
});
