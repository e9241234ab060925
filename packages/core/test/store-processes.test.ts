import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { getMessageText, userMessage } from "@heddle/shared";
import Database from "better-sqlite3";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";

// Real processes on one SQLite file. The child runs the real sources, bundled with esbuild (as in crash.test.ts), under core's node_modules so better-sqlite3 resolves.
const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, "..", "node_modules", ".cache", "heddle-store-child", "store-child.mjs");
const dir = mkdtempSync(join(tmpdir(), "heddle-conflict-"));
const children: ChildProcess[] = [];

beforeAll(async () => {
  mkdirSync(dirname(bundle), { recursive: true });
  await build({
    entryPoints: [join(here, "store-child.ts")],
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: join(here, "..", "..", "..", "tsconfig.json"),
    external: ["better-sqlite3"],
    logLevel: "error",
  });
}, 60_000);
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function startChild(args: string[], readOnly?: string) {
  // Root ignores file modes, so as root the child runs in bubblewrap with `readOnly` mounted read-only (a user
  // switch would need every folder above the checkout to be open to that user, which a CI clone may not be).
  const command =
    readOnly === undefined
      ? [process.execPath, bundle, ...args]
      : ["bwrap", "--dev-bind", "/", "/", "--ro-bind", readOnly, readOnly, "--", process.execPath, bundle, ...args];
  const child = spawn(command[0]!, command.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
  children.push(child);
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  let buffer = "";
  let stderr = "";
  child.stderr!.on("data", (chunk) => {
    stderr += chunk;
  });
  child.stdout!.on("data", (chunk) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      for (const waiter of [...waiters])
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
    }
  });
  const waitFor = (pattern: RegExp, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.find((line) => pattern.test(line));
      if (seen) return resolve(seen);
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${pattern}; stderr: ${stderr}`)),
        timeoutMs,
      );
      waiters.push({
        pattern,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, waitFor, exited, go: () => child.stdin!.write("go\n") };
}

describe("two processes appending to one session", () => {
  it("the second append on a stale head fails with session_conflict; the first stays the visible history", async () => {
    const path = join(dir, "two.db");
    const setup = new SqliteSessionStore({ path });
    await setup.createSession({ id: "ses_two" });
    const first = userMessage("shared start");
    await setup.appendMessage("ses_two", first);
    await setup.close();

    const a = startChild(["append", path, "ses_two", "from process a"]);
    const b = startChild(["append", path, "ses_two", "from process b"]);
    expect(await a.waitFor(/^HEAD /)).toBe(`HEAD ${first.id}`);
    expect(await b.waitFor(/^HEAD /)).toBe(`HEAD ${first.id}`);
    a.go();
    const okLine = await a.waitFor(/^(OK|FAILED) /);
    expect(okLine).toMatch(/^OK /);
    b.go();
    expect(await b.waitFor(/^(OK|FAILED) /)).toMatch(/^FAILED session_conflict /);
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);

    const store = new SqliteSessionStore({ path });
    const history = await store.getHistory("ses_two");
    expect(history.map(getMessageText)).toEqual(["shared start", "from process a"]);
    expect(history[1]!.id).toBe(okLine.slice(3));
    await store.close();
    // No orphan branch was written either: the file holds exactly the visible history.
    const db = new Database(path, { readonly: true });
    expect((db.prepare("SELECT COUNT(*) AS n FROM messages").get() as { n: number }).n).toBe(2);
    db.close();
  }, 30_000);
});

describe("a read-only session database", () => {
  it("is a database_read_only error naming the file, not a raw SqliteError", async () => {
    // Root ignores file modes: as root the folder is also mounted read-only for the child; others are bound by chmod.
    const asRoot = process.getuid?.() === 0;
    const folder = join(dir, "read-only");
    mkdirSync(folder);
    const path = join(folder, "sessions.db");
    const setup = new SqliteSessionStore({ path });
    await setup.createSession({ id: "ses_ro" });
    await setup.close();
    chmodSync(path, 0o444);
    chmodSync(folder, 0o555);
    const child = startChild(["write", path], asRoot ? folder : undefined);
    const line = await child.waitFor(/^(OK|FAILED)/);
    await child.exited;
    chmodSync(folder, 0o755);
    expect(line).toMatch(/^FAILED database_read_only /);
    const details = JSON.parse(line.replace(/^FAILED database_read_only /, "")) as { path: string; message: string };
    expect(details.path).toBe(path);
    expect(details.message).toContain(path);
  }, 30_000);
});
