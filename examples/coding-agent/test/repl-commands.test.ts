import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type MockResponse, startMockProviderServer } from "@heddle/llms/testing";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { textReply } from "./support/chat-replies.js";
import { count, TmuxSession } from "./support/tmux.js";

// The interactive session's commands in a real terminal (tmux): bash output, /expand, /rewind of the first turn,
// /compact while the person keeps typing, and a team of teammates started and watched with /team.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
let base: string;
let tmux: TmuxSession | undefined;

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
  base = mkdtempSync(join(tmpdir(), "heddle-repl-"));
});
afterEach(() => tmux?.kill());
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** heddle-code on the demo model in a copy of the sample project kept at `dir` (so the test can read its files). */
function startDemo(name: string, preset: string): { session: TmuxSession; workspace: string } {
  const workspace = join(base, name);
  tmux = new TmuxSession(`heddle-repl-${name}-${process.pid}`);
  tmux.start(
    `NO_COLOR=1 HOME=${base} XDG_CONFIG_HOME=${base}/config XDG_DATA_HOME=${base}/data node ${cli} --demo -i --preset ${preset} --cwd ${workspace}`,
  );
  return { session: tmux, workspace };
}

it("bash output shows under its line, collapsed to its first and last lines; /expand shows it whole", async () => {
  const { session } = startDemo("output", "full");
  await session.waitFor((s) => s.includes("› "), "the prompt");
  session.enter("fix the failing tests");
  const text = await session.waitFor((s) => s.includes("↳ "), "the end of the turn");
  // The first test run fails: its TAP output's start and its summary show, the middle is counted.
  expect(text).toMatch(
    // (A run that took over a second shows its duration after the exit code.)
    /✗ bash node --test test\/ — exit 1( \d+\.\ds)?\n {4}TAP version 13\n.*\n {4}… \d+ more lines \(\/expand shows all\)\n/,
  );
  expect(text).toMatch(/ {4}# fail 2\n/);
  expect(text).not.toContain("not ok 2 - a 10% discount takes a tenth off");
  session.enter("/expand");
  const expanded = await session.waitFor((s) => /bash node --test test\/ — \d+ lines:/.test(s), "/expand");
  // The lead's last command was the failing run (the sub-agent's own run shows under it): its middle shows now.
  expect(expanded.slice(expanded.lastIndexOf("/expand"))).toContain("not ok 2 - a 10% discount takes a tenth off");
}, 60_000);

it("/rewind undoes the first turn too: the transcript is empty again and the edited file is back", async () => {
  const { session, workspace } = startDemo("rewind", "full");
  await session.waitFor((s) => s.includes("› "), "the prompt");
  session.enter("fix the failing tests");
  await session.waitFor((s) => s.includes("↳ "), "the end of the turn");
  const cart = join(workspace, "src", "cart.js");
  expect(readFileSync(cart, "utf8")).toContain("percent / 100)");
  session.enter("/rewind");
  await session.waitFor((s) => s.includes("restored src/cart.js"), "/rewind to restore src/cart.js");
  expect(session.screen()).toContain('rewound 1 turn(s): "fix the failing tests" and after are undone');
  expect(readFileSync(cart, "utf8")).toContain("percent / 10)");
  session.enter("/rewind");
  await session.waitFor((s) => s.includes("nothing to rewind yet"), "a second /rewind with nothing left");
}, 60_000);

it("/compact shows its progress; a line typed meanwhile waits and runs after it instead of breaking in", async () => {
  const server = await startMockProviderServer();
  try {
    // The summary streams slowly (a real model takes seconds): time for the person to type.
    const slowSummary: MockResponse = {
      events: [
        ...["Summary: ", "the user ", "said hello ", "and the model ", "answered."].map((content) => ({
          choices: [{ index: 0, delta: { content } }],
        })),
        {
          choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
          usage: { prompt_tokens: 9, completion_tokens: 9 },
        },
      ],
      chunkDelayMs: 700,
    };
    server.enqueue("openai-chat", textReply("Hello there."), slowSummary, textReply("The queued prompt ran."));
    const workspace = join(base, "compact");
    mkdirSync(workspace);
    tmux = new TmuxSession(`heddle-repl-compact-${process.pid}`);
    tmux.start(
      `NO_COLOR=1 HOME=${base} XDG_DATA_HOME=${base}/data node ${cli} --base-url ${server.baseUrl("openai-chat")} --model slow-model --cwd ${workspace} 2>/dev/null`,
    );
    const session = tmux;
    await session.waitFor((s) => s.includes("› "), "the prompt");
    session.enter("hello");
    await session.waitFor((s) => s.includes("Hello there.") && s.includes("↳ "), "the first answer");
    session.enter("/compact");
    await session.waitFor((s) => /compacting the working context \(\d+ messages\)…/.test(s), "the progress line");
    session.enter("what now");
    await session.waitFor((s) => s.includes("(queued: what now — runs when this is done)"), "the queued note");
    const text = await session.waitFor((s) => s.includes("The queued prompt ran."), "the queued prompt's answer");
    expect(text).toMatch(/working context compacted: ~\d+ → ~\d+ tokens/);
    expect(text.indexOf("working context compacted")).toBeLessThan(text.indexOf("The queued prompt ran."));
    expect(text).not.toMatch(/already running|not compacted/);
    expect(server.requests).toHaveLength(3);
    expect(JSON.stringify(server.requests[2]!.body.messages)).toContain("what now");
  } finally {
    await server.close();
  }
}, 60_000);

it("/team spawns a teammate that runs under the session's policy and shows its role, state and unread messages", async () => {
  const { session, workspace } = startDemo("team", "edit");
  await session.waitFor((s) => s.includes("› "), "the prompt");
  session.enter("/team");
  await session.waitFor((s) => s.includes("no teammates (start one: /team spawn"), "/team before any teammate");
  session.enter("/team spawn fixer:tester fix the failing tests");
  await session.waitFor((s) => s.includes("started teammate fixer (role tester)"), "the teammate to start");
  // Preset edit: bash asks the lead's approver, and the question says whose call it is.
  await session.waitFor((s) => s.includes("Allow bash node --test test/ (for fixer)?"), "the teammate's approval");
  session.type("n");
  await session.waitFor((s) => count(s, "(for fixer)?") === 2, "its second approval");
  session.type("n");
  await session.waitFor((s) => s.includes("⇠ fixer finished a turn (completed)"), "the teammate's turn to end");
  // Edits run without asking under the lead's preset: the teammate fixed the file.
  expect(readFileSync(join(workspace, "src", "cart.js"), "utf8")).toContain("percent / 100)");
  session.enter("/team");
  const text = await session.waitFor((s) => /fixer +role tester +idle +turns 1 +unread 0/.test(s), "/team's row");
  // The teammate's report waits in the lead's mailbox.
  expect(text).toMatch(/lead +\(you and the model\) +unread 1/);
  session.enter("/team stop");
  await session.waitFor((s) => s.includes("stopped every teammate"), "/team stop");
  session.enter("/team");
  await session.waitFor((s) => /fixer +role tester +stopped \(stopped\)/.test(s), "the stopped row");
}, 90_000);
