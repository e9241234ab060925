import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HELP } from "../src/args.js";

// `--help` and `--version` answer from dist/cli.js and the small chunk it shares, before the agent is loaded
// (src/cli.ts): no Heddle code (bundled into the main chunk, tsup.config.ts), vendor SDK, SQLite, MCP SDK or
// schema library. bench/cli-start.bench.mjs times
// them; this pins what they load and print, without timing.
const here = fileURLToPath(new URL("..", import.meta.url));
const cli = join(here, "dist/cli.js");
const recorder = fileURLToPath(new URL("./support/record-loads.mjs", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "heddle-code-start-test-"));
const version = (JSON.parse(readFileSync(join(here, "package.json"), "utf8")) as { version: string }).version;

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let runs = 0;
/** Runs the built CLI with the load recorder; returns its output and every module it loaded. */
function runRecorded(args: string[]) {
  const record = join(scratch, `loads-${runs++}.txt`);
  const result = spawnSync(process.execPath, ["--import", pathToFileURL(recorder).href, cli, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: scratch, NO_COLOR: "1", HEDDLE_RECORD_LOADS: record },
    timeout: 30_000,
  });
  const loaded = existsSync(record) ? readFileSync(record, "utf8").split("\n").filter(Boolean) : [];
  return { ...result, loaded };
}

/** The loaded modules that are neither Node's own nor the recorder's. */
function outsideNode(loaded: string[]): string[] {
  return loaded.filter((entry) => !entry.startsWith("node:") && !/record-loads/.test(entry));
}

describe("heddle-code's start", () => {
  for (const args of [["--help"], ["-h"], ["--version"], ["-v"]]) {
    it(`${args[0]} loads only the CLI's own entry files: nothing from node_modules, no Heddle package`, () => {
      const run = runRecorded(args);
      expect(run.status).toBe(0);
      // The recorder worked: it saw the entry itself.
      expect(run.loaded).toContain(pathToFileURL(cli).href);
      const others = outsideNode(run.loaded);
      const distUrl = pathToFileURL(join(here, "dist")).href;
      expect(others.filter((url) => !url.startsWith(`${distUrl}/`))).toEqual([]);
      expect(others.join("\n")).not.toMatch(
        /node_modules|@heddle|better-sqlite3|openai|anthropic|genai|modelcontextprotocol|zod|ajv|opentelemetry/,
      );
      // The agent (main.ts) is a chunk of its own, loaded only for a session.
      expect(others.some((url) => /\/main-[^/]*\.js$/.test(url))).toBe(false);
    });
  }

  it("--help prints the usage text and --version the package's version, as before the lazy entry", () => {
    const help = runRecorded(["--help"]);
    expect(help.stdout).toBe(HELP);
    expect(help.stderr).toBe("");
    const shown = runRecorded(["--version"]);
    expect(shown.stdout).toBe(`heddle-code ${version}\n`);
    expect(shown.stderr).toBe("");
  });

  it("a bad command line is refused before the agent loads, with the same message", () => {
    const run = runRecorded(["--preset", "x"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      'heddle-code: --preset must be one of read-only, edit, full (got "x")\nRun heddle-code --help.\n',
    );
    expect(outsideNode(run.loaded).join("\n")).not.toMatch(/node_modules|\/main-[^/]*\.js/);
  });

  it("a session loads the agent (the recorder sees the modules a lazy entry leaves out)", () => {
    // --show-system-prompt needs no model and no key, and goes through main.ts.
    const run = runRecorded(["--show-system-prompt", "--cwd", scratch]);
    expect(run.status).toBe(0);
    const others = outsideNode(run.loaded);
    expect(others.some((url) => /\/main-[^/]*\.js$/.test(url))).toBe(true);
  });
});
