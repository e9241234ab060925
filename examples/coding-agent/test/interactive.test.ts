import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";

// Drives heddle-code in a real terminal (tmux), as a person would: type, answer prompts, press Ctrl-C.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const session = `heddle-test-${process.pid}`;

function tmux(...args: string[]): string {
  return execFileSync("tmux", args, { encoding: "utf8" });
}
const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", session);
const type = (text: string) => tmux("send-keys", "-t", session, "-l", text);
const press = (...keys: string[]) => tmux("send-keys", "-t", session, ...keys);

async function waitFor(check: (text: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const text = screen();
    if (check(text)) return text;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const count = (text: string, needle: string) => text.split(needle).length - 1;

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
});

afterAll(() => {
  spawnSync("tmux", ["kill-session", "-t", session]);
});

it("a person runs a turn, answers approvals, uses /cost and /sessions, and stops a turn with Ctrl-C", async () => {
  tmux("new-session", "-d", "-s", session, "-x", "150", "-y", "50", `NO_COLOR=1 node ${cli} --demo -i --preset edit`);
  let text = await waitFor((s) => s.includes("› "), "the prompt");
  const workspace = /sample project in (\S+)/.exec(text)?.[1];
  expect(workspace).toBeTruthy();

  // A first turn, so the fix below is a turn that /rewind can undo.
  type("hello");
  press("Enter");
  await waitFor((s) => s.includes("I am Heddle's scripted demo model") && s.includes("↳ "), "the first answer");

  type("fix the failing tests");
  press("Enter");
  // preset "edit": bash asks first.
  await waitFor((s) => s.includes("Allow bash node --test test/?"), "the first approval prompt");
  type("y");
  press("Enter");
  await waitFor((s) => count(s, "Allow bash node --test test/?") === 2, "the second approval prompt");
  type("a");
  press("Enter");
  text = await waitFor((s) => count(s, "↳ ") === 2, "the end of the turn");
  expect(text).toContain("Let me run the tests to see what fails.");
  expect(text).toMatch(/✓ bash node --test test\/ — exit 1/);
  expect(text).toMatch(/✓ edit_file src\/cart.js/);
  expect(text).toContain("+  return Math.round(amountCents * (1 - percent / 100));");
  expect(text).toMatch(/✓ bash node --test test\/ — exit 0/);
  expect(text).toMatch(/↳ [\d,]+ in · [\d,]+ out · \$0\.\d{4} · session \$0\.\d{4}/);

  type("/cost");
  press("Enter");
  text = await waitFor((s) => s.includes("session: "), "/cost");
  expect(text).toMatch(/demo\/scripted-demo-model: [\d,]+ in/);

  type("/sessions");
  press("Enter");
  text = await waitFor((s) => /\* ses_[a-z0-9]+/.test(s), "/sessions");

  type("/compact");
  press("Enter");
  text = await waitFor((s) => /working context compacted|not compacted/.test(s), "/compact");
  expect(text).toMatch(/working context compacted: ~\d+ → ~\d+ tokens/);

  // /rewind undoes the fix turn: the transcript and the edited file.
  const cart = `${workspace}/src/cart.js`;
  expect(readFileSync(cart, "utf8")).toContain("percent / 100)");
  type("/rewind");
  press("Enter");
  text = await waitFor((s) => s.includes("rewound 1 turn(s)"), "/rewind");
  expect(text).toContain("restored src/cart.js");
  expect(readFileSync(cart, "utf8")).toContain("percent / 10)");

  // A slow turn: bash was answered "always", so it runs at once; Ctrl-C stops it.
  type("please wait for something slow");
  press("Enter");
  await waitFor((s) => s.includes("Running a slow command"), "the slow turn to start");
  await new Promise((resolve) => setTimeout(resolve, 500));
  const stoppedAt = Date.now();
  press("C-c");
  text = await waitFor((s) => s.includes("(turn stopped)"), "the turn to stop", 10_000);
  expect(Date.now() - stoppedAt).toBeLessThan(5_000);
  expect(text).toMatch(/✗ bash sleep 30 && echo finished/);
  // The shell's process group was killed with the turn.
  expect(spawnSync("pgrep", ["-f", "sleep 30 && echo finished"]).status).not.toBe(0);

  // Esc stops a running turn too.
  type("wait again please");
  press("Enter");
  await waitFor((s) => count(s, "Running a slow command") === 2, "the second slow turn to start");
  await new Promise((resolve) => setTimeout(resolve, 500));
  press("Escape");
  await waitFor((s) => count(s, "(turn stopped)") === 2, "Esc to stop the turn", 10_000);

  // /fork branches into a new session; /resume goes back to the first one by id.
  const firstId = /session (ses_[a-z0-9]+) · \/help/.exec(screen())?.[1];
  expect(firstId).toBeTruthy();
  type("/fork");
  press("Enter");
  text = await waitFor((s) => /forked into ses_[a-z0-9]+/.test(s), "/fork");
  expect(/forked into (ses_[a-z0-9]+)/.exec(text)?.[1]).not.toBe(firstId);
  type(`/resume ${firstId}`);
  press("Enter");
  await waitFor((s) => s.includes(`resumed ${firstId} (`), "/resume");

  press("C-c");
  press("C-c");
  const start = Date.now();
  while (spawnSync("tmux", ["has-session", "-t", session]).status === 0 && Date.now() - start < 10_000)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect(spawnSync("tmux", ["has-session", "-t", session]).status).not.toBe(0);
}, 120_000);
