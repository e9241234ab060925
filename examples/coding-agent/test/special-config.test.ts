import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

// A hostile repository puts a FIFO where a config file belongs: heddle-code must start anyway, say why the folder's
// hooks and MCP servers stay off, and finish. Each run is bounded: a hang is killed and fails the test.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const sample = fileURLToPath(new URL("../sample-project", import.meta.url));
let base: string;
let folder: string;

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
});
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "heddle-special-config-"));
  folder = join(base, "repo");
  cpSync(sample, folder, { recursive: true });
  mkdirSync(join(folder, ".heddle"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, [cli, "--demo", "-p", "hello", "--cwd", folder, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: base, XDG_CONFIG_HOME: join(base, "config"), NO_COLOR: "1" },
    timeout: 20_000,
  });

describe("a FIFO in place of a config file", () => {
  it(".heddle/settings.json: heddle-code starts, says the hooks stay off, and answers (with --trust too)", () => {
    execFileSync("mkfifo", [join(folder, ".heddle", "settings.json")]);
    for (const args of [[], ["--trust"]]) {
      const { signal, stdout, stderr } = run(...args);
      expect(signal, `heddle-code ${args.join(" ")} hung and was killed`).toBeNull();
      expect(stderr).toContain(
        "heddle-code: not running this folder's hooks and MCP servers: .heddle/settings.json is a FIFO (named pipe), " +
          "not a regular file. Config files must be regular files.",
      );
      expect(stdout).toContain("I am Heddle's scripted demo model");
    }
  }, 60_000);

  it(".heddle/mcp.json: not read, even with --trust, and the session runs", () => {
    execFileSync("mkfifo", [join(folder, ".heddle", "mcp.json")]);
    const { signal, stdout } = run("--trust");
    expect(signal, "heddle-code hung and was killed").toBeNull();
    expect(stdout).toContain(
      `${join(folder, ".heddle", "mcp.json")} is a FIFO (named pipe), not a regular file: not read`,
    );
    expect(stdout).toContain("I am Heddle's scripted demo model");
  }, 60_000);
});
