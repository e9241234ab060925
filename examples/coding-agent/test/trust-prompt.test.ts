import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";

// Drives heddle-code in a real terminal (tmux): the folder-trust question before a cloned repository's hooks run.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const sample = fileURLToPath(new URL("../sample-project", import.meta.url));
const session = `heddle-trust-${process.pid}`;
let base: string;

const tmux = (...args: string[]) => execFileSync("tmux", args, { encoding: "utf8" });
const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", session);
const type = (text: string) => tmux("send-keys", "-t", session, "-l", text);
const press = (...keys: string[]) => tmux("send-keys", "-t", session, ...keys);
const alive = () => spawnSync("tmux", ["has-session", "-t", session]).status === 0;

async function waitFor(check: (text: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const text = screen();
    if (check(text)) return text;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
  base = mkdtempSync(join(tmpdir(), "heddle-trust-tmux-"));
});
afterAll(() => {
  spawnSync("tmux", ["kill-session", "-t", session]);
  rmSync(base, { recursive: true, force: true });
});

async function start(folder: string): Promise<void> {
  const config = join(base, "config");
  tmux(
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    "200",
    "-y",
    "50",
    `XDG_CONFIG_HOME=${config} XDG_DATA_HOME=${join(base, "data")} NO_COLOR=1 node ${cli} --demo -i --preset edit --cwd ${folder}`,
  );
}

async function sayHelloAndExit(): Promise<void> {
  await waitFor((s) => s.includes("› "), "the prompt");
  type("hello");
  press("Enter");
  await waitFor((s) => s.includes("I am Heddle's scripted demo model") && s.includes("↳ "), "the answer");
  type("/exit");
  press("Enter");
  const begin = Date.now();
  while (alive() && Date.now() - begin < 10_000) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(alive()).toBe(false);
}

it("asks once per folder before running its hooks: no keeps them off, yes runs them and is remembered", async () => {
  const folder = join(base, "repo");
  cpSync(sample, folder, { recursive: true });
  mkdirSync(join(folder, ".heddle"));
  writeFileSync(
    join(folder, ".heddle", "settings.json"),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "touch hook-ran.txt" }] }] } }),
  );
  const marker = join(folder, "hook-ran.txt");

  await start(folder);
  await waitFor((s) => s.includes("Trust this folder and run them? [y/N]"), "the trust question");
  type("n");
  press("Enter");
  await waitFor((s) => s.includes("stay off"), "the refusal notice");
  await sayHelloAndExit();
  expect(existsSync(marker)).toBe(false);

  // Not remembered after a no: asked again; yes runs the hook.
  await start(folder);
  await waitFor((s) => s.includes("Trust this folder and run them? [y/N]"), "the trust question again");
  type("y");
  press("Enter");
  await sayHelloAndExit();
  expect(existsSync(marker)).toBe(true);

  // Remembered: no question the next time.
  await start(folder);
  const text = await waitFor((s) => s.includes("› "), "the prompt without a question");
  expect(text).not.toContain("Trust this folder");
  type("/exit");
  press("Enter");
}, 120_000);
