import { describe, expect, it } from "vitest";
import { clampTimerMs, HeadTailBuffer, MAX_TIMER_MS, runShellCommand } from "./shell-process.js";

const run = (command: string, extra: Partial<Parameters<typeof runShellCommand>[0]> = {}) =>
  runShellCommand({
    command,
    cwd: process.cwd(),
    env: { PATH: process.env.PATH },
    timeoutMs: 20_000,
    maxOutputBytes: 10_000,
    ...extra,
  });

describe("runShellCommand", () => {
  it("keeps stdout and stderr apart, interleaves them in output, and streams them to onOutput", async () => {
    const seen: string[] = [];
    const result = await run("echo out; sleep 0.05; echo err >&2; exit 3", {
      onOutput: (stream, text) => seen.push(`${stream}:${text}`),
    });
    expect(result).toMatchObject({ exitCode: 3, signal: null, stdout: "out\n", stderr: "err\n", output: "out\nerr\n" });
    expect(result).toMatchObject({ timedOut: false, aborted: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.durationMs).toBeLessThan(20_000);
    expect(seen).toEqual(["stdout:out\n", "stderr:err\n"]);
  });

  it("writes stdin to the command and closes it; without stdin a reading command ends at once", async () => {
    expect((await run("cat", { stdin: "piped in" })).stdout).toBe("piped in");
    expect(await run("cat; echo done")).toMatchObject({ exitCode: 0, stdout: "done\n" });
  });

  it("does not start a command whose signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run("echo should-not-run", { signal: controller.signal });
    expect(result).toEqual({
      exitCode: null,
      signal: null,
      output: "",
      stdout: "",
      stderr: "",
      timedOut: false,
      aborted: true,
      durationMs: 0,
    });
  });

  it("rejects when the shell cannot be started", async () => {
    await expect(run("true", { shell: "/nonexistent/shell" })).rejects.toThrow(/ENOENT/);
  });
});

describe("HeadTailBuffer", () => {
  it("keeps everything up to the cap, then the first and last half and a count of what fell between", () => {
    const small = new HeadTailBuffer(10);
    small.push(Buffer.from("abc"));
    small.push(Buffer.from("defgh"));
    expect(small.text()).toBe("abcdefgh");
    const full = new HeadTailBuffer(10);
    full.push(Buffer.from("0123456789"));
    expect(full.text()).toBe("0123456789");
    const over = new HeadTailBuffer(10);
    for (const chunk of ["012", "3456", "789ab", "cdefghij"]) over.push(Buffer.from(chunk));
    expect(over.totalBytes).toBe(20);
    expect(over.text()).toBe("01234\n[… 10 bytes of output omitted …]\nfghij");
  });
});

describe("clampTimerMs", () => {
  it("turns NaN, Infinity and anything past 2^31-1 into 2^31-1, and a negative into 0", () => {
    expect([clampTimerMs(Number.NaN), clampTimerMs(Infinity), clampTimerMs(2 ** 40)]).toEqual([
      MAX_TIMER_MS,
      MAX_TIMER_MS,
      MAX_TIMER_MS,
    ]);
    expect([clampTimerMs(-5), clampTimerMs(1500)]).toEqual([0, 1500]);
  });
});
