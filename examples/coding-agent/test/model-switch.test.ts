import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockProviderServer } from "@heddle/llms/testing";
import { expect, it } from "vitest";

// In a real terminal (tmux): `--base-url` serves the interactive session, and `/model` within the same provider
// keeps talking to that server.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const session = `heddle-model-switch-${process.pid}`;
const tmux = (...args: string[]) => execFileSync("tmux", args, { encoding: "utf8" });
const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", session);

async function waitFor(check: (text: string) => boolean, what: string): Promise<string> {
  const start = Date.now();
  for (;;) {
    const text = screen();
    if (check(text)) return text;
    if (Date.now() - start > 15_000) throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it("/model <same provider>/<model> keeps the --base-url server", async () => {
  const server = await startMockProviderServer();
  const cwd = mkdtempSync(join(tmpdir(), "heddle-model-switch-"));
  try {
    server.enqueue("openai-chat", {
      events: [
        { choices: [{ index: 0, delta: { role: "assistant", content: "Hi from the second model." } }] },
        {
          choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
          usage: { prompt_tokens: 5, completion_tokens: 5 },
        },
      ],
    });
    const url = server.baseUrl("openai-chat");
    tmux(
      "new-session",
      "-d",
      "-s",
      session,
      "-x",
      "150",
      "-y",
      "40",
      `NO_COLOR=1 XDG_DATA_HOME=${cwd}/.data node ${cli} --base-url ${url} --model first-model --cwd ${cwd} 2>/dev/null`,
    );
    await waitFor((s) => s.includes("openai-compatible/first-model") && s.includes("› "), "the prompt");
    tmux("send-keys", "-t", session, "-l", "/model openai-compatible/second-model");
    tmux("send-keys", "-t", session, "Enter");
    await waitFor((s) => s.includes("model: openai-compatible/second-model"), "the switch");
    tmux("send-keys", "-t", session, "-l", "hello");
    tmux("send-keys", "-t", session, "Enter");
    await waitFor((s) => s.includes("Hi from the second model."), "the answer from the same server");
    expect(server.requests.map((r) => r.body?.model)).toEqual(["second-model"]);
  } finally {
    spawnSync("tmux", ["kill-session", "-t", session]);
    await server.close();
    rmSync(cwd, { recursive: true, force: true });
  }
}, 40_000);
