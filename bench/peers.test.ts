// The peer benchmark's harness (bench/peers.bench.mjs): its quick mode runs every client in every scenario end
// to end, and the checks that keep a broken run from passing for a fast one really fail.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BenchServer, startServer } from "./lib/peers/harness.mjs";
import { checkRun, FINAL_TEXT, MODELS, runNote, toolArguments, toolResult } from "./lib/peers/scenario.mjs";

const bench = fileURLToPath(new URL("./peers.bench.mjs", import.meta.url));

describe("the quick peer table", () => {
  it("runs the floor, Heddle and every peer in every scenario it supports, and prints the whole table", () => {
    const run = spawnSync(process.execPath, ["--expose-gc", bench, "--quick"], {
      encoding: "utf8",
      timeout: 570_000,
      killSignal: "SIGKILL",
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    const ratio = String.raw`\d+\.\d\d \(\d+\.\d\d-\d+\.\d\d\)`;
    const all = new RegExp(
      String.raw`^\| (chat|many|first chat) +\| ${ratio} +\| ${ratio} +\| ${ratio} +\| ${ratio} +\|`,
      "m",
    );
    const noAgents = new RegExp(
      String.raw`^\| (first )?(anthropic|gemini) +\| ${ratio} +\| ${ratio} +\| ${ratio} +\| - +\|`,
      "m",
    );
    // With the host's warm-up (gateway.warmUp), Heddle only.
    const warmedUp = new RegExp(
      String.raw`^\| first\+warmUp (chat|anthropic|gemini) +\| ${ratio} +\| - +\| - +\| - +\|`,
      "m",
    );
    const rows = run.stdout.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| scenario"));
    expect(rows).toHaveLength(10);
    for (const row of rows) expect(all.test(row) || noAgents.test(row) || warmedUp.test(row), row).toBe(true);
    expect(rows.filter((row) => warmedUp.test(row))).toHaveLength(3);
    expect(run.stdout).toMatch(/peak RSS, 10 agents at once: floor \d+ MB, Heddle \d+ MB/);
    // The diagnostic heddle-gateway column is measured only when named.
    expect(run.stdout).toMatch(/^\| scenario +\| Heddle +\| pi +\| ai +\| OpenAI Agents +\| floor +\|$/m);
  });
});

describe("the diagnostic heddle-gateway column", () => {
  it("runs in each loop family when named, every run of it checked", () => {
    const run = spawnSync(
      process.execPath,
      ["--expose-gc", bench, "--quick", "--only=chat,anthropic,gemini", "--peers=heddle-gateway"],
      { encoding: "utf8", timeout: 120_000, killSignal: "SIGKILL" },
    );
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    const ratio = String.raw`\d+\.\d\d \(\d+\.\d\d-\d+\.\d\d\)`;
    for (const family of ["chat", "anthropic", "gemini"])
      expect(run.stdout).toMatch(new RegExp(String.raw`^\| ${family} +\| - +\| - +\| - +\| - +\| ${ratio} +\|`, "m"));
  });
});

describe("the bench server", () => {
  let server: BenchServer;
  beforeAll(async () => {
    server = await startServer({ turns: 2, argumentBytes: 64, fragments: 4 });
  });
  afterAll(() => server.close());

  const lastTurn = (toolContent: string) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: MODELS.chat,
        stream: true,
        messages: [
          { role: "user", content: "go" },
          {
            role: "assistant",
            tool_calls: [{ id: "c", type: "function", function: { name: "note", arguments: "{}" } }],
          },
          { role: "tool", tool_call_id: "c", content: toolContent },
        ],
      }),
    });

  it("refuses a run whose tool result lacks the tool's answer, and does not count it", async () => {
    const response = await lastTurn("something else");
    expect(response.status).toBe(400);
    const stats = await server.stats();
    expect(stats.rejected).toBe(1);
    expect(stats.completed["openai-chat"]).toBeUndefined();
  });

  it("streams the final text to a run that brought every tool result back, and counts it", async () => {
    const response = await lastTurn(toolResult(64 - 11));
    expect(response.status).toBe(200);
    const body = await response.text();
    for (const word of FINAL_TEXT.trim().split(" ")) expect(body).toContain(word);
    const stats = await server.stats();
    expect(stats.completed["openai-chat"]).toBe(1);
    expect(stats.toolResults["openai-chat"]).toBe(1);
  });
});

describe("the client-side checks", () => {
  it("fail a tool call whose arguments arrived cut", () => {
    const state = { calls: 0 };
    const whole = JSON.parse(toolArguments(2048));
    expect(runNote(whole, { argumentBytes: 2048, state, who: "t" })).toBe(toolResult(2048 - 11));
    expect(() => runNote({ text: whole.text.slice(1) }, { argumentBytes: 2048, state, who: "t" })).toThrow(/cut/);
    expect(state.calls).toBe(1);
  });

  it("fail a run that skipped a tool call or lost the final text", () => {
    expect(() => checkRun({ who: "t", turns: 3, calls: 2, text: FINAL_TEXT })).not.toThrow();
    expect(() => checkRun({ who: "t", turns: 3, calls: 1, text: FINAL_TEXT })).toThrow(/ran 1 times/);
    expect(() => checkRun({ who: "t", turns: 3, calls: 2, text: "" })).toThrow(/final text/);
  });
});
