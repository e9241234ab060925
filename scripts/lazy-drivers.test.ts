// Importing @heddle/core loads none of the three database clients (better-sqlite3, a native module; pg; ioredis):
// each loads when a store, mailbox or roster of its backend opens. Checked on the built package, in fresh processes,
// so a static import anywhere behind an entry (a bundler would hoist it into the entry's chunk) fails here.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const core = join(root, "packages/core");
const DRIVERS = ["better-sqlite3", "pg", "ioredis"];

const dir = mkdtempSync(join(tmpdir(), "heddle-lazy-"));
// ES module loads go through this resolve hook (on its own thread, so it writes them to a file); CommonJS loads
// (createRequire, and the clients' own require calls) land in the require cache, read at the end.
const hook = join(dir, "hook.mjs");
writeFileSync(
  hook,
  `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.HEDDLE_RESOLVE_LOG, result.url + "\\n");
  return result;
}
`,
);
const register = join(dir, "register.mjs");
writeFileSync(
  register,
  `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
);

/** The drivers loaded once `body` (an ES module, top-level await allowed) has run in a fresh node process. */
function driversLoadedBy(body: string): string[] {
  const log = join(dir, `resolved-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(log, "");
  const script = join(core, `.lazy-drivers-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    script,
    `import { createRequire } from "node:module";\n${body}\nprocess.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));\n`,
  );
  try {
    const run = spawnSync(process.execPath, ["--import", pathToFileURL(register).href, script], {
      cwd: core,
      env: { ...process.env, HEDDLE_RESOLVE_LOG: log },
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    const loaded = [...JSON.parse(run.stdout), ...readFileSync(log, "utf8").split("\n")].map((p) =>
      p.startsWith("file:") ? fileURLToPath(p) : p,
    );
    return DRIVERS.filter((name) =>
      loaded.some((path) => path.split(/[\\/]/).join("/").includes(`/node_modules/${name}/`)),
    );
  } finally {
    rmSync(script, { force: true });
  }
}

const pkg = JSON.parse(readFileSync(join(core, "package.json"), "utf8")) as {
  exports: Record<string, string | { import: string }>;
};
const entries = Object.entries(pkg.exports).flatMap(([name, entry]) =>
  typeof entry === "object" ? [[name, join(core, entry.import)] as const] : [],
);

// Each case starts a node process that loads the whole package: generous time on a loaded machine.
describe("the database clients load only when their backend opens", { timeout: 60_000 }, () => {
  it.each(entries)("importing @heddle/core entry %s loads none of better-sqlite3, pg, ioredis", (_name, file) => {
    expect(driversLoadedBy(`await import(${JSON.stringify(pathToFileURL(file).href)});`)).toEqual([]);
  });

  it("opening a SQLite session store loads better-sqlite3, and only it", () => {
    const index = pathToFileURL(join(core, "dist/index.js")).href;
    const body = `const { SqliteSessionStore } = await import(${JSON.stringify(index)});
new SqliteSessionStore({ path: ":memory:" }).close();`;
    expect(driversLoadedBy(body)).toEqual(["better-sqlite3"]);
  });

  it("sees pg and ioredis when they are imported (the check is not blind to ES module loads)", () => {
    expect(driversLoadedBy(`await import("pg");\nawait import("ioredis");`)).toEqual(["pg", "ioredis"]);
  });
});
