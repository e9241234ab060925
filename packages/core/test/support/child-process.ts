// A test's child script as a real process: bundled with esbuild once per test file (no prior `pnpm build`), started
// with arguments, its stdout read line by line. The teams, scale-out and store-process tests share it.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const coreRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface ChildScript {
  /** Bundles the script once per test file. */
  buildChild(): Promise<unknown>;
  startChild(args: string[]): Child;
  /** Deletes this test file's bundle (for afterAll). */
  removeBundle(): void;
}

/**
 * `entry` (a .ts file) bundled under core's node_modules, so native and optional packages (`external`) resolve from
 * the bundle while the repo's tsconfig paths resolve @heddle/*. One file per test file: test files run in parallel
 * workers, and two builds writing one file would race a starting child.
 */
export function childScript(entry: string, options: { external?: string[]; waitTimeoutMs?: number } = {}): ChildScript {
  const bundlePath = join(coreRoot, "node_modules", ".cache", "heddle-test-children", `child-${randomUUID()}.mjs`);
  let built: Promise<unknown> | undefined;
  return {
    buildChild() {
      mkdirSync(dirname(bundlePath), { recursive: true });
      built ??= build({
        entryPoints: [entry],
        outfile: bundlePath,
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        tsconfig: join(coreRoot, "..", "..", "tsconfig.json"),
        external: ["better-sqlite3", "esbuild", ...(options.external ?? [])],
        logLevel: "error",
      });
      return built;
    },
    startChild: (args) => startBundle(bundlePath, args, options.waitTimeoutMs ?? 20_000),
    removeBundle: () => rmSync(bundlePath, { force: true }),
  };
}

export interface Child {
  process: ChildProcess;
  lines: string[];
  stderr(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Kills every child still running (for afterEach/afterAll). */
export function killAll(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

function startBundle(bundlePath: string, args: string[], defaultWaitMs: number): Child {
  const child = spawn(process.execPath, [bundlePath, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  let buffer = "";
  let stderr = "";
  child.stderr!.on("data", (chunk) => {
    stderr += chunk;
  });
  child.stdout!.on("data", (chunk) => {
    buffer += chunk;
    let newline = buffer.indexOf("\n");
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      for (const waiter of [...waiters])
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      newline = buffer.indexOf("\n");
    }
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return {
    process: child,
    lines,
    stderr: () => stderr,
    exited,
    waitFor: (pattern, timeoutMs = defaultWaitMs) =>
      new Promise((resolve, reject) => {
        const found = lines.find((line) => pattern.test(line));
        if (found) return resolve(found);
        const fail = (why: string) =>
          reject(new Error(`child ${why} ${pattern}; stdout: ${lines.join(" | ")}; stderr: ${stderr}`));
        const timer = setTimeout(() => fail("never printed"), timeoutMs);
        const waiter = {
          pattern,
          resolve: (line: string) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        waiters.push(waiter);
        exited.then(() =>
          setTimeout(() => {
            if (!waiters.includes(waiter)) return;
            clearTimeout(timer);
            fail("exited before printing");
          }, 50),
        );
      }),
  };
}
