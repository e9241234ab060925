import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { endProcesses, findCommandProcesses, PROCESS_TOKEN_ENV, processAlive, snapshotTree } from "./process-tree.js";

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {}
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
});

/** A shell leading its own group and session, like runShellCommand's; resolves once `ready` is printed. */
function startShell(script: string, env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn("/bin/bash", ["-c", script], { env, detached: true, stdio: ["ignore", "pipe", "ignore"] });
  started.push(child.pid!);
  return new Promise((resolve) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("ready")) resolve(child.pid!);
    });
  });
}

const pidsOf = (script: string) => `${script}\necho ready; wait`;

describe("findCommandProcesses (Linux /proc)", () => {
  it("finds the shell, its children, a child that left the session with the token, and nothing else", async () => {
    const token = `t${process.pid}${Date.now()}`;
    const env = { PATH: process.env.PATH, [PROCESS_TOKEN_ENV]: token };
    const stranger = await startShell(pidsOf("sleep 30 & echo $! > /dev/null"), { PATH: process.env.PATH });
    const root = await startShell(pidsOf("sleep 30 & setsid -f sleep 31; sleep 0.1"), env);
    const names = () => [...findCommandProcesses(root, token).keys()].map((pid) => commandOf(pid)).sort();
    // `setsid -f` forks, then becomes `sleep`.
    await settle(names, ["/bin/bash", "sleep", "sleep"]);
    const found = findCommandProcesses(root, token);
    expect(found.has(root)).toBe(true);
    expect(found.has(stranger)).toBe(false);
    expect(names()).toEqual(["/bin/bash", "sleep", "sleep"]);
    // Each with its start time, to tell it from a later process that reuses the pid.
    for (const start of found.values()) expect(start).toMatch(/^\d+$/);
    expect(found.has(process.pid)).toBe(false);
  });

  it("finds a descendant in a session of its own without the token, even with ) and spaces in its name", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "heddle-proc-"));
    try {
      // comm holds ") " and spaces: read from the last ")" or every later field shifts.
      const odd = path.join(dir, "x) a b c d");
      await copyFile("/bin/sleep", odd);
      await chmod(odd, 0o755);
      const token = `t${process.pid}${Date.now()}b`;
      const leave = `env -u ${PROCESS_TOKEN_ENV} setsid "${odd}" 30 &`;
      const root = await startShell(pidsOf(`${leave}\n${leave}`), {
        PATH: process.env.PATH,
        [PROCESS_TOKEN_ENV]: token,
      });
      const expected = ["/bin/bash", "x) a b c d", "x) a b c d"];
      const names = () => [...findCommandProcesses(root, token).keys()].map((pid) => commandOf(pid)).sort();
      // The forks run bash, then env, then setsid before the program itself.
      await settle(names, expected);
      expect(names()).toEqual(expected);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("processAlive", () => {
  it("is false for a zombie (exited, not yet reaped), and the sweep leaves zombies out", async () => {
    const token = `t${process.pid}${Date.now()}z`;
    // `sleep 0` exits; its parent, replaced by `sleep 30`, never reaps it.
    const child = spawn("/bin/bash", ["-c", "sleep 0 & echo $!; exec sleep 30"], {
      env: { PATH: process.env.PATH, [PROCESS_TOKEN_ENV]: token },
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    started.push(child.pid!);
    const zombie = await new Promise<number>((resolve) =>
      child.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString()))),
    );
    for (let i = 0; i < 100 && !readFileSync(`/proc/${zombie}/stat`, "utf8").includes(") Z "); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(processAlive(zombie)).toBe(false);
    expect(processAlive(child.pid!)).toBe(true);
    expect([...findCommandProcesses(child.pid!, token).keys()]).toEqual([child.pid]);
  });

  it("is true while a process runs and false once it has exited", async () => {
    const root = await startShell(pidsOf("sleep 30 &"), { PATH: process.env.PATH });
    expect(processAlive(root)).toBe(true);
    process.kill(root, "SIGKILL");
    for (let i = 0; i < 100 && processAlive(root); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(processAlive(root)).toBe(false);
  });
});

describe("endProcesses (an MCP server's tree after close)", () => {
  it("leaves alone a process whose pid was reused (another start time), and ends the one it saw", async () => {
    const root = await startShell(pidsOf("sleep 30 &"), { PATH: process.env.PATH });
    const [seen] = snapshotTree(root);
    expect(seen!.start).toMatch(/^\d+$/);
    // The same pid with another start time: a later process that took the number of one that exited.
    await endProcesses([{ pid: root, start: String(Number(seen!.start) + 1) }], 50);
    expect(processAlive(root)).toBe(true);
    await endProcesses([seen!], 50);
    expect(processAlive(root)).toBe(false);
  });
});

/** Waits up to 2 s for `read()` to equal `expected` (the processes starting up). */
async function settle(read: () => string[], expected: string[]): Promise<void> {
  for (let i = 0; i < 200 && JSON.stringify(read()) !== JSON.stringify(expected); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function commandOf(pid: number): string {
  let program: string;
  try {
    program = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]!;
  } catch {
    return "(gone)";
  }
  return program === "/bin/bash" ? program : path.basename(program);
}
