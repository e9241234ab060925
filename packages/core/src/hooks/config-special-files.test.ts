import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadMcpConfig } from "../mcp/index.js";
import { makeTempDir } from "../tools/test-utils.js";
import { createHookEngine } from "./hook-engine.js";
import { loadHookSettingsFile } from "./settings.js";

// A hostile repository ships a FIFO where a config file belongs: reading it must not block the process.
let root: string;
let cleanup: () => Promise<void>;
let watchdog: ChildProcess | undefined;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir("heddle-config-fifo-"));
  await mkdir(path.join(root, ".heddle"));
});
afterEach(async () => {
  watchdog?.kill("SIGKILL");
  watchdog = undefined;
  await cleanup();
});

/**
 * A FIFO at `file`. A blocking read would freeze this test's thread where no timer fires, so a writer process
 * releases it after a while: the code under test then reads garbage and fails its assertion instead of hanging.
 */
function fifo(file: string): void {
  execFileSync("mkfifo", [file]);
  watchdog = spawn("/bin/sh", ["-c", `sleep 8; printf 'not json' > "${file}"`], { stdio: "ignore" });
}

describe("a FIFO in place of a config file is refused at once, with a typed error", () => {
  it(".heddle/settings.json: hook_settings_invalid naming the FIFO", () => {
    const file = path.join(root, ".heddle", "settings.json");
    fifo(file);
    expect(() => loadHookSettingsFile(root)).toThrow(
      expect.objectContaining({
        code: "hook_settings_invalid",
        message: `${file} is a FIFO (named pipe): hook settings are read only from a regular file.`,
      }),
    );
    expect(() => createHookEngine({ workspaceRoot: root })).toThrow(/is a FIFO \(named pipe\)/);
  }, 15_000);

  it(".heddle/mcp.json: config_invalid (McpConfigError) naming the FIFO", async () => {
    const file = path.join(root, ".heddle", "mcp.json");
    fifo(file);
    await expect(loadMcpConfig(file)).rejects.toMatchObject({
      code: "config_invalid",
      message: expect.stringContaining("is a FIFO (named pipe)"),
    });
  }, 15_000);
});
