// Starts the bundled scale-out child script as a real process and reads its stdout line by line (the teams
// process helper, pointed at this folder's child; pg and ioredis resolve from core's node_modules).
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
// Under core's node_modules so pg and ioredis resolve from the bundle; the repo's tsconfig paths resolve @heddle/*.
// One file per test file (they run in parallel workers): two builds writing one file would race a starting child.
export const bundlePath = join(
  here,
  "..",
  "..",
  "node_modules",
  ".cache",
  "heddle-scale-out",
  `scale-out-child-${randomUUID()}.mjs`,
);

/** Deletes this test file's bundle (for afterAll). */
export function removeBundle(): void {
  rmSync(bundlePath, { force: true });
}

let built: Promise<unknown> | undefined;
/** Bundles the child script once per test process (no prior `pnpm build` needed). */
export function buildChild(): Promise<unknown> {
  mkdirSync(dirname(bundlePath), { recursive: true });
  built ??= build({
    entryPoints: [join(here, "scale-out-child.ts")],
    outfile: bundlePath,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: join(here, "..", "..", "..", "..", "tsconfig.json"),
    external: ["better-sqlite3", "esbuild", "pg", "ioredis"],
    logLevel: "error",
  });
  return built;
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

export function startChild(args: string[]): Child {
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
    waitFor: (pattern, timeoutMs = 20_000) =>
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
