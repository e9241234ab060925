import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
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

// The processes on this machine, read from /proc, independent of the code under test.
interface Proc {
  pid: number;
  ppid: number;
  /** Clock ticks since boot: tells a process from a later one that reused its pid. */
  start: string;
  argv: string[];
  cwd: string | undefined;
}
function readProc(pid: number): (Proc & { dead: boolean }) | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
    let cwd: string | undefined;
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {}
    return { pid, ppid: Number(fields[1]), start: fields[19] ?? "", argv, cwd, dead: /^[ZX]$/.test(fields[0] ?? "") };
  } catch {
    return undefined;
  }
}
const allProcs = () =>
  readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readProc(Number(entry)))
    .filter((proc): proc is Proc & { dead: boolean } => proc !== undefined && !proc.dead);
/** Every live process below `root` (its children, their children, ...). */
function descendants(root: number): Proc[] {
  const procs = allProcs();
  const found: Proc[] = [];
  const add = (pid: number) => {
    for (const proc of procs.filter((p) => p.ppid === pid)) {
      found.push(proc);
      add(proc.pid);
    }
  };
  add(root);
  return found;
}
/** The pid of the heddle-code process running in a tmux session (the pane's shell or one of its children). */
function cliPid(target: string): number {
  const pane = Number(tmux("display-message", "-p", "-t", target, "#{pane_pid}").trim());
  const cliProc = [readProc(pane), ...descendants(pane)].find((proc) => proc?.argv.includes(cli));
  if (!cliProc) throw new Error(`no heddle-code process under pane ${pane}`);
  return cliProc.pid;
}
/**
 * While the slow bash call runs: its processes, the shell the CLI started for it and everything below that shell,
 * once an exact `sleep 30` in the demo workspace is among them (so a later "all gone" cannot pass because nothing
 * was found).
 */
async function slowCommandProcesses(cliProcess: number, workspace: string): Promise<Proc[]> {
  const start = Date.now();
  for (;;) {
    const procs = descendants(cliProcess);
    let shell = procs.find((p) => p.argv.join(" ") === "sleep 30" && p.cwd === workspace);
    while (shell && shell.ppid !== cliProcess) shell = procs.find((p) => p.pid === shell!.ppid);
    if (shell) return [shell, ...descendants(shell.pid)];
    if (Date.now() - start > 10_000)
      throw new Error(`no \`sleep 30\` in ${workspace} below the CLI: ${JSON.stringify(procs)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
/** Those of `procs` still alive (same pid and start time, not a zombie). */
const survivors = (procs: Proc[]) =>
  procs.filter((p) => {
    const now = readProc(p.pid);
    return now !== undefined && !now.dead && now.start === p.start;
  });

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
  const cliProcess = cliPid(session);

  // A first turn, so the fix below is a turn that /rewind can undo.
  type("hello");
  press("Enter");
  await waitFor((s) => s.includes("I am Heddle's scripted demo model") && s.includes("↳ "), "the first answer");

  type("fix the failing tests");
  press("Enter");
  // preset "edit": bash asks first. The prompt names its keys; one key answers, no Enter.
  text = await waitFor((s) => s.includes("Allow bash node --test test/?"), "the first approval prompt");
  expect(text).toContain("[y]es / [n]o / [a]lways (one key; Esc cancels the turn)");
  // Any other key does not mean "no": the prompt says which keys work and asks again.
  type("x");
  await waitFor((s) => s.includes("press y, n or a"), "the re-ask after an unknown key");
  expect(count(screen(), "Allow bash node --test test/?")).toBe(2);
  type("y");
  await waitFor((s) => /\? \[y\]es .*: yes$/m.test(s), "the answer, on the prompt's line");
  await waitFor((s) => count(s, "Allow bash node --test test/?") === 3, "the second approval prompt");
  type("a");
  text = await waitFor((s) => count(s, "↳ ") === 2, "the end of the turn");
  expect(text).toContain("Let me run the tests to see what fails.");
  // The first test run fails (exit 1): a failure mark, not a green check.
  expect(text).toMatch(/✗ bash node --test test\/ — exit 1/);
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
  // Each session says what it was about (its first prompt) and how old it is.
  expect(text).toMatch(/\* ses_[a-z0-9]+ +just now +\$0\.\d{4} +hello/);

  type("/compact");
  press("Enter");
  text = await waitFor((s) => /working context compacted|not compacted/.test(s), "/compact");
  expect(text).toMatch(/working context compacted: ~\d+ → ~\d+ tokens/);
  // The demo's context is tiny, so the summary is longer than what it replaces: the output says why it grew.
  const [, before, after] = /compacted: ~(\d+) → ~(\d+)/.exec(text)!;
  if (Number(after) >= Number(before)) expect(text).toContain("it grew: the summary is longer than this short context");

  // /rewind undoes the fix turn: the transcript and the edited file.
  const cart = `${workspace}/src/cart.js`;
  expect(readFileSync(cart, "utf8")).toContain("percent / 100)");
  type("/rewind");
  press("Enter");
  // "rewound" is printed first and each restored file on a line of its own after it: wait for the file's line too.
  await waitFor((s) => s.includes("rewound 1 turn(s)"), "/rewind");
  await waitFor((s) => s.includes("restored src/cart.js"), "/rewind to list the restored src/cart.js");
  expect(readFileSync(cart, "utf8")).toContain("percent / 10)");

  // A slow turn: bash was answered "always", so it runs at once; Ctrl-C stops it.
  type("please wait for something slow");
  press("Enter");
  await waitFor((s) => s.includes("Running a slow command"), "the slow turn to start");
  let running = await slowCommandProcesses(cliProcess, realpathSync(workspace!));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const stoppedAt = Date.now();
  press("C-c");
  text = await waitFor((s) => s.includes("(turn stopped)"), "the turn to stop", 10_000);
  expect(Date.now() - stoppedAt).toBeLessThan(5_000);
  expect(text).toMatch(/✗ bash sleep 30 && echo finished/);
  // Every process of that bash call (its shell and the `sleep 30` the shell started) was killed with the turn.
  expect(survivors(running)).toEqual([]);

  // Esc stops a running turn too.
  type("wait again please");
  press("Enter");
  await waitFor((s) => count(s, "Running a slow command") === 2, "the second slow turn to start");
  running = await slowCommandProcesses(cliProcess, realpathSync(workspace!));
  await new Promise((resolve) => setTimeout(resolve, 500));
  press("Escape");
  await waitFor((s) => count(s, "(turn stopped)") === 2, "Esc to stop the turn", 10_000);
  expect(survivors(running)).toEqual([]);

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

it("Esc and Ctrl-C cancel an approval prompt at once: the call is denied, the turn stops; exit ends the line", async () => {
  const name = `${session}-cancel`;
  tmux(
    "new-session",
    "-d",
    "-s",
    name,
    "-x",
    "150",
    "-y",
    "50",
    `NO_COLOR=1 node ${cli} --demo -i --preset edit; echo AFTER-EXIT; sleep 30`,
  );
  const shot = () => tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", name);
  const wait = async (check: (text: string) => boolean, what: string) => {
    const start = Date.now();
    for (;;) {
      const text = shot();
      if (check(text)) return text;
      if (Date.now() - start > 15_000) throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  try {
    await wait((s) => s.includes("› "), "the prompt");
    tmux("send-keys", "-t", name, "-l", "fix the failing tests");
    tmux("send-keys", "-t", name, "Enter");
    await wait((s) => s.includes("Allow bash node --test test/?"), "the approval prompt");
    tmux("send-keys", "-t", name, "C-c");
    // No Enter: the cancel shows at once, and the turn ends as stopped.
    let text = await wait((s) => s.includes("(turn stopped)"), "Ctrl-C to cancel the prompt");
    expect(text).toMatch(/: cancelled\nthe call is denied and the turn stops/);
    expect(text).toMatch(/✗ bash node --test test\/ — Not run/);
    expect(text).toMatch(/· aborted\n/);
    expect(text).not.toContain("aborted (aborted)");
    expect(text).not.toContain("✓ bash");

    tmux("send-keys", "-t", name, "-l", "fix the failing tests");
    tmux("send-keys", "-t", name, "Enter");
    await wait((s) => count(s, "Allow bash node --test test/?") === 2, "the second approval prompt");
    tmux("send-keys", "-t", name, "Escape");
    text = await wait((s) => count(s, "(turn stopped)") === 2, "Esc to cancel the prompt");
    expect(count(text, "the call is denied and the turn stops")).toBe(2);

    // Leaving (Ctrl-C twice at the prompt) ends its line: the next output starts on its own line.
    tmux("send-keys", "-t", name, "C-c");
    await wait((s) => s.includes("(Ctrl-C again to exit)"), "the first Ctrl-C at the prompt");
    expect(shot()).toMatch(/^\(Ctrl-C again to exit\)$/m);
    tmux("send-keys", "-t", name, "C-c");
    text = await wait((s) => s.includes("AFTER-EXIT"), "the exit");
    expect(text).toMatch(/^AFTER-EXIT$/m);
  } finally {
    spawnSync("tmux", ["kill-session", "-t", name]);
  }
}, 60_000);
