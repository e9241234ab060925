// Where the tests find the shared-store servers, and a one-line answer to "is it there?". Every machine of this
// project runs PostgreSQL and Redis on loopback; a laptop may not: the tests that need one then skip with one clear
// line, and `scripts/test.mjs` fails a run that skipped anything under CI=true.
import { createConnection } from "node:net";

export const POSTGRES_URL = process.env.HEDDLE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const REDIS_URL = process.env.HEDDLE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** True when a TCP connection to the URL's host and port opens within 5 s (a refused port answers at once; a loaded machine may take more than a second to accept). */
export function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port), timeout: 5000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });
}

/** A name for this run's schema or key prefix, so parallel runs never meet. */
export function runScopedName(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}
