import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockProviderServer } from "@heddle/llms/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCliArgs, UsageError } from "../src/args.js";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "heddle-code-cli-test-"));
// Sessions are kept in the user's data folder: here, the test's own.
const dataHome = join(scratch, "data");
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [cli, ...args], {
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      XDG_DATA_HOME: dataHome,
      NO_COLOR: "1",
      ...env,
    },
    timeout: 60_000,
  });

/** Like `run`, without blocking this process (a server in it must answer the CLI). */
function runAsync(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        XDG_DATA_HOME: dataHome,
        NO_COLOR: "1",
        ...env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
});

describe("heddle-code command line", () => {
  it("the offline demo fixes the sample project for real and checks it", () => {
    const { status, stdout } = run(["--demo"]);
    expect(stdout).toContain("DEMO — a scripted demo model, not a real one");
    // The first test run fails: a non-zero exit is a failure mark, not a check.
    expect(stdout).toMatch(/✗ bash node --test test\/ — exit 1/);
    expect(stdout).toMatch(/✓ edit_file src\/cart.js/);
    // The lead delegates the check to a sub-agent (the demo runs the full preset): its tool line is indented.
    expect(stdout).toMatch(/⤷ sub-agent: run the tests\n\s+✓ bash node --test test\/ — exit 0/);
    expect(stdout).toMatch(/✓ spawn_agent run the tests — All tests pass/);
    expect(stdout).toContain("Checked independently: `node --test test/` passes in the demo workspace.");
    expect(status).toBe(0);
    // Its temp copy is gone on exit, so it offers no --resume that could not work; it says how to keep one.
    const workspace = /sample project in (\S+)/.exec(stdout)?.[1];
    expect(workspace).toMatch(/heddle-demo-/);
    expect(existsSync(workspace!)).toBe(false);
    expect(stdout).not.toContain("--resume");
    expect(stdout).toContain("this demo copy is removed on exit; to keep one you can resume: --demo --cwd <dir>");
  });

  it("--demo --cwd <dir> copies the sample project there, keeps it, and its session resumes", async () => {
    const dir = join(scratch, "demo-kept");
    const first = run(["--demo", "--cwd", dir]);
    expect(first.status).toBe(0);
    expect(existsSync(join(dir, "src/cart.js"))).toBe(true);
    const hint = /resume with: heddle-code --demo -i --cwd (\S+) --resume (ses_[a-z0-9]+)/.exec(first.stdout);
    expect(hint?.[1]).toBe(dir);
    const id = hint![2]!;
    const resumed = run(["--demo", "--cwd", dir, "--resume", id, "-p", "hello", "--json"]);
    expect(resumed.status).toBe(0);
    const events = resumed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(new Set(events.map((e) => e.sessionId))).toEqual(new Set([id]));
  });

  it("--json piped into a reader that stops early (head) exits quietly, without an EPIPE crash", async () => {
    const child = spawn(process.execPath, [cli, "--demo", "--json"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", XDG_DATA_HOME: dataHome, NO_COLOR: "1" },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.once("data", () => child.stdout.destroy());
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(status).toBe(0);
  });

  it("--base-url points a provider at a self-hosted OpenAI-compatible server (print mode)", async () => {
    const server = await startMockProviderServer();
    try {
      server.enqueue("openai-chat", {
        events: [
          { choices: [{ index: 0, delta: { role: "assistant", content: "Hello from the self-hosted model." } }] },
          {
            choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
            usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 },
          },
        ],
      });
      const cwd = join(scratch, "base-url");
      const { status, stdout, stderr } = await runAsync([
        "-p",
        "say hello",
        "--base-url",
        server.baseUrl("openai-chat"),
        "--model",
        "my-local-model",
        "--cwd",
        cwd,
      ]);
      // A model the catalog does not know is fine (a warning says its cost counts as 0).
      expect(stderr).not.toMatch(/Error/);
      expect(stdout).toContain("Hello from the self-hosted model.");
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]).toMatchObject({ path: "/v1/chat/completions", body: { model: "my-local-model" } });
      expect(status).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("--otel exports the run's spans over OTLP/HTTP to the endpoint the environment names", async () => {
    const server = await startMockProviderServer();
    const received: Array<{ path: string; body: string }> = [];
    const collector = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        received.push({ path: request.url ?? "", body });
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    const { port } = collector.address() as AddressInfo;
    try {
      server.enqueue("openai-chat", {
        events: [
          { choices: [{ index: 0, delta: { role: "assistant", content: "Traced." } }] },
          {
            choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
            usage: { prompt_tokens: 5, completion_tokens: 2 },
          },
        ],
      });
      const { status, stdout } = await runAsync(
        [
          "-p",
          "hi",
          "--otel",
          "--base-url",
          server.baseUrl("openai-chat"),
          "--model",
          "m",
          "--cwd",
          join(scratch, "otel"),
        ],
        { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` },
      );
      expect(stdout).toContain("Traced.");
      expect(status).toBe(0);
      // The spans were flushed before exit: one export with the run and its model call.
      const traces = received.filter((r) => r.path === "/v1/traces");
      expect(traces.length).toBeGreaterThan(0);
      const all = traces.map((t) => t.body).join("\n");
      expect(all).toContain("invoke_agent");
      expect(all).toContain("chat m");
    } finally {
      collector.close();
      await server.close();
    }
  });

  it("--json prints one event per line, ending with the run's result", () => {
    const { status, stdout } = run(["--demo", "--json"]);
    const events = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.every((e) => typeof e.type === "string" && typeof e.sessionId === "string")).toBe(true);
    const finished = events.filter((e) => e.type === "run-finished");
    expect(finished).toHaveLength(1);
    expect(finished[0].result).toMatchObject({ status: "completed", reason: "completion_tool" });
    expect(events.filter((e) => e.type === "tool-finished").map((e) => e.toolCall.toolName)).toEqual([
      "bash",
      "read_file",
      "edit_file",
      "spawn_agent",
      "submit_result",
    ]);
    // The sub-agent's own events come as updates of the lead's spawn_agent call.
    const subagent = events.filter((e) => e.type === "tool-updated" && e.update?.type === "subagent-event");
    expect(subagent.map((e) => e.update.event.type)).toContain("tool-finished");
    expect(new Set(subagent.map((e) => e.update.parentToolCallId)).size).toBe(1);
    expect(status).toBe(0);
  });

  it("without a key it says which keys and providers exist, and exits 2", () => {
    const { status, stderr } = run(["-p", "hello"]);
    expect(stderr).toContain("No model key found. Set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY");
    expect(stderr).toMatch(/ollama\s+Ollama/);
    expect(stderr).toContain("heddle-code --demo");
    expect(status).toBe(2);
  });

  it("an unknown provider is named, with the ones that exist", () => {
    const { status, stderr } = run(["-p", "hello", "--provider", "nope"]);
    expect(stderr).toMatch(/nope/);
    expect(stderr).toMatch(/anthropic/);
    expect(status).not.toBe(0);
  });
});

describe("argument parsing", () => {
  it("reads the flags", () => {
    expect(
      parseCliArgs(["-p", "task", "--preset", "full", "--max-budget-usd", "0.5", "--provider", "openai"], "/w"),
    ).toMatchObject({
      print: "task",
      preset: "full",
      maxBudgetUsd: 0.5,
      provider: "openai",
      cwd: "/w",
    });
    expect(parseCliArgs(["--demo"], "/w").preset).toBe("full");
    expect(parseCliArgs([], "/w").preset).toBe("edit");
  });

  it("names the bad flag and what it accepts", () => {
    expect(() => parseCliArgs(["--preset", "yolo"])).toThrow(
      /--preset must be one of read-only, edit, full \(got "yolo"\)/,
    );
    expect(() => parseCliArgs(["--max-budget-usd", "-1"])).toThrow(UsageError);
    expect(() => parseCliArgs(["--bogus"])).toThrow(/bogus/);
    expect(() => parseCliArgs(["--json"])).toThrow(/--json works with -p/);
    expect(() => parseCliArgs(["--base-url", "localhost:8000"])).toThrow(/--base-url must be an http\(s\) URL/);
    expect(parseCliArgs(["--base-url", "http://127.0.0.1:8000/v1"]).baseUrl).toBe("http://127.0.0.1:8000/v1");
  });
});
