import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkFolderTrust, resolveFolderTrust, trustFolder, trustStoreFile } from "../src/trust.js";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const sample = fileURLToPath(new URL("../sample-project", import.meta.url));

let base: string;
let folder: string;
let config: string;

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
});
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "heddle-trust-"));
  folder = join(base, "repo");
  config = join(base, "config");
  cpSync(sample, folder, { recursive: true });
  mkdirSync(join(folder, ".heddle"));
  // A cloned repository's hook: it would run at the first turn with the user's rights.
  writeFileSync(
    join(folder, ".heddle", "settings.json"),
    JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: 'env > "$HEDDLE_PROJECT_DIR/hook-ran.txt"' }] }] },
    }),
  );
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const run = (args: string[], task = "hello") =>
  spawnSync(process.execPath, [cli, "--demo", "-p", task, "--cwd", folder, ...args], {
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: base,
      XDG_CONFIG_HOME: config,
      NO_COLOR: "1",
      ANTHROPIC_API_KEY: "sk-ant-must-not-leak",
    },
    timeout: 60_000,
  });

describe("a repository's command hooks run only in a trusted folder", () => {
  it("print mode refuses by default: the hook does not run and one line says how to trust", () => {
    const { stderr } = run([]);
    expect(existsSync(join(folder, "hook-ran.txt"))).toBe(false);
    expect(stderr).toMatch(
      /not running the hooks and MCP servers of \.heddle\/settings\.json: this folder is not trusted/,
    );
    expect(stderr).toContain("--trust");
  });

  it("--trust runs it, without the provider key in its environment", () => {
    const { stderr } = run(["--trust"]);
    expect(stderr).not.toMatch(/not trusted/);
    const env = readFileSync(join(folder, "hook-ran.txt"), "utf8");
    expect(env).toContain(`HEDDLE_PROJECT_DIR=`);
    expect(env).not.toContain("sk-ant-must-not-leak");
    // --trust is for this run only: nothing was remembered.
    expect(existsSync(trustStoreFile({ XDG_CONFIG_HOME: config }))).toBe(false);
  });

  describe("on every path, the sub-agent's too", () => {
    // Tool hooks and the sub-agent events: the demo's lead (full preset) hands the test run to a sub-agent.
    beforeEach(() => {
      const append = (file: string) => `cat >> "$HEDDLE_PROJECT_DIR/${file}"; echo >> "$HEDDLE_PROJECT_DIR/${file}"`;
      writeFileSync(
        join(folder, ".heddle", "settings.json"),
        JSON.stringify({
          hooks: {
            PreToolUse: [{ hooks: [{ type: "command", command: append("pre-tool.log") }] }],
            SubagentStart: [{ hooks: [{ type: "command", command: append("subagent.log") }] }],
          },
        }),
      );
    });
    const payloads = (file: string) =>
      existsSync(join(folder, file))
        ? readFileSync(join(folder, file), "utf8")
            .split("\n")
            .filter((line) => line.trim() !== "")
            .map((line) => JSON.parse(line))
        : [];

    it("untrusted: the sub-agent runs, and no hook runs for it or for the lead", () => {
      const { stdout, status } = run(["--preset", "full"], "fix the failing tests");
      expect(status).toBe(0);
      expect(stdout).toContain("sub-agent: run the tests");
      expect(payloads("pre-tool.log")).toEqual([]);
      expect(payloads("subagent.log")).toEqual([]);
    });

    it("trusted: the same hooks run for the lead's calls and the sub-agent's", () => {
      const { stdout, status } = run(["--preset", "full", "--trust"], "fix the failing tests");
      expect(status).toBe(0);
      expect(stdout).toContain("sub-agent: run the tests");
      const [start] = payloads("subagent.log");
      expect(start).toMatchObject({ hook_event_name: "SubagentStart", description: "run the tests" });
      const bashCalls = payloads("pre-tool.log").filter((p) => p.tool_name === "bash");
      // The lead's first test run and the sub-agent's.
      expect(bashCalls).toHaveLength(2);
    });
  });

  it("trust is remembered per folder and content hash, outside the workspace; a changed file asks again", async () => {
    const store = trustStoreFile({ XDG_CONFIG_HOME: config });
    expect(store).toBe(join(config, "heddle", "trusted.json"));
    expect(checkFolderTrust(folder, store)).toMatchObject({ trusted: false, changed: false });
    const asked: string[] = [];
    const yes = async (question: string) => {
      asked.push(question);
      return "y";
    };
    expect(await resolveFolderTrust({ folder, trustFlag: false, ask: yes, notice: () => {}, storeFile: store })).toBe(
      true,
    );
    expect(asked).toHaveLength(1);
    // Remembered: no second question, and print mode (no one to ask) runs the hooks too.
    expect(await resolveFolderTrust({ folder, trustFlag: false, ask: yes, notice: () => {}, storeFile: store })).toBe(
      true,
    );
    expect(asked).toHaveLength(1);
    const { stderr } = spawnSync(process.execPath, [cli, "--demo", "-p", "hello", "--cwd", folder], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: base, XDG_CONFIG_HOME: config, NO_COLOR: "1" },
      timeout: 60_000,
    });
    expect(stderr).not.toMatch(/not trusted/);
    expect(existsSync(join(folder, "hook-ran.txt"))).toBe(true);

    // The settings change (a pull, or a bash call): asked again, and print mode refuses.
    writeFileSync(join(folder, ".heddle", "settings.json"), JSON.stringify({ hooks: {} }));
    expect(checkFolderTrust(folder, store)).toMatchObject({ trusted: false, changed: true });
    const notices: string[] = [];
    expect(
      await resolveFolderTrust({ folder, trustFlag: false, notice: (l) => notices.push(l), storeFile: store }),
    ).toBe(false);
    expect(notices[0]).toMatch(/changed since you trusted this folder/);
    // An MCP config counts too.
    trustFolder(folder, checkFolderTrust(folder, store).hash, store);
    writeFileSync(join(folder, ".heddle", "mcp.json"), "{}");
    expect(checkFolderTrust(folder, store).trusted).toBe(false);
  });

  it("a 'no' keeps the hooks off and is not remembered", async () => {
    const store = trustStoreFile({ XDG_CONFIG_HOME: config });
    const notices: string[] = [];
    const no = async () => "n";
    expect(
      await resolveFolderTrust({ folder, trustFlag: false, ask: no, notice: (l) => notices.push(l), storeFile: store }),
    ).toBe(false);
    expect(notices[0]).toMatch(/stay off/);
    expect(existsSync(store)).toBe(false);
  });
});
