import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type MockProviderServer, startMockProviderServer } from "@heddle/llms/testing";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { textReply } from "./support/chat-replies.js";

// `heddle-code -p ... | reader`: a real pipe (bash's `|`) into a reader slower than the CLI. All output must reach
// the reader before heddle-code exits, and the exit code must be the run's.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
let scratch: string;
let server: MockProviderServer;

// Reads its stdin in small bites with a pause after each, so the CLI finishes long before the pipe is drained.
const SLOW_READER = `
const fs = require("fs");
const out = fs.openSync(process.argv[2], "w");
const bite = Buffer.alloc(8192);
const pause = new Int32Array(new SharedArrayBuffer(4));
for (;;) {
  let n;
  try {
    n = fs.readSync(0, bite, 0, bite.length, null);
  } catch (error) {
    if (error.code !== "EAGAIN") throw error;
    Atomics.wait(pause, 0, 0, 2);
    continue;
  }
  if (n === 0) break;
  fs.writeSync(out, bite, 0, n);
  Atomics.wait(pause, 0, 0, 2);
}
fs.closeSync(out);
`;

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
});
beforeEach(async () => {
  scratch = mkdtempSync(join(tmpdir(), "heddle-piped-"));
  writeFileSync(join(scratch, "reader.js"), SLOW_READER);
  server = await startMockProviderServer();
});
afterEach(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs `heddle-code <args> | slow reader` in bash; resolves with what the reader got and the CLI's exit code. */
function pipeThroughSlowReader(args: string[]): Promise<{ output: string; cliStatus: number; stderr: string }> {
  const quoted = [process.execPath, cli, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const received = join(scratch, "received.txt");
  const reader = `'${process.execPath}' '${join(scratch, "reader.js")}' '${received}'`;
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `${quoted} | ${reader}; echo "cli-status=\${PIPESTATUS[0]}" >&2`], {
      env: { PATH: process.env.PATH ?? "", HOME: scratch, NO_COLOR: "1" },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 100_000);
    child.on("close", () => {
      clearTimeout(timer);
      const status = /cli-status=(\d+)/.exec(stderr)?.[1];
      if (status === undefined) return reject(new Error(`no exit status; stderr:\n${stderr}`));
      resolve({ output: readFileSync(received, "utf8"), cliStatus: Number(status), stderr });
    });
  });
}

const model = () => ["--base-url", server.baseUrl("openai-chat"), "--model", "big-model", "--cwd", scratch];
// About 2 MB of answer: far more than a pipe buffer (64 KiB) or the ~300 KB that used to get through.
const BIG = Array.from({ length: 40_000 }, (_, i) => `line ${String(i).padStart(5, "0")} of the answer\n`).join("");

describe("piped output is written in full before heddle-code exits", () => {
  it("-p: every line of a 2 MB answer reaches a slow reader, and the exit code is 0", async () => {
    server.enqueue("openai-chat", textReply(BIG));
    const { output, cliStatus } = await pipeThroughSlowReader(["-p", "write a lot", ...model()]);
    expect(output).toContain(BIG);
    expect(output).toMatch(/↳ .* in · .* out/);
    expect(cliStatus).toBe(0);
  }, 120_000);

  it("-p --json: every event line is whole JSON and the last is run-finished", async () => {
    server.enqueue("openai-chat", textReply(BIG));
    const { output, cliStatus } = await pipeThroughSlowReader(["-p", "write a lot", "--json", ...model()]);
    expect(output.endsWith("\n")).toBe(true);
    const events = output
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; result?: { outputText: string; status: string } });
    const last = events.at(-1);
    expect(last?.type).toBe("run-finished");
    expect(last?.result).toMatchObject({ status: "completed", outputText: BIG });
    expect(cliStatus).toBe(0);
  }, 120_000);

  it("-p --json of a run cut by the model's token limit: all of it arrives, and the exit code is 1", async () => {
    // finish_reason "length": the answer was cut, so the run is incomplete, not completed.
    server.enqueue("openai-chat", {
      events: [
        { choices: [{ index: 0, delta: { role: "assistant", content: BIG } }] },
        {
          choices: [{ index: 0, delta: {}, finish_reason: "length" }],
          usage: { prompt_tokens: 5, completion_tokens: 5 },
        },
      ],
    });
    const { output, cliStatus } = await pipeThroughSlowReader(["-p", "write a lot", "--json", ...model()]);
    const events = output
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; result?: { status: string; outputText: string } });
    expect(events.at(-1)).toMatchObject({ type: "run-finished", result: { status: "incomplete", outputText: BIG } });
    expect(cliStatus).toBe(1);
  }, 120_000);
});
