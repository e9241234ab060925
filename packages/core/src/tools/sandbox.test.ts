import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bwrapArgs, SandboxUnavailableError } from "../process/index.js";
import { createDefaultTools } from "./default-tools.js";
import { findTool, makeTempDir, processGone, runTool } from "./test-utils.js";

// Runs the real bubblewrap (scripts/bootstrap.sh installs it).
let root: string;
let outside: string;
const cleanups: Array<() => Promise<void>> = [];
let server: Server | undefined;

beforeEach(async () => {
  const a = await makeTempDir("heddle-sandbox-");
  const b = await makeTempDir("heddle-outside-");
  root = a.dir;
  outside = b.dir;
  cleanups.push(a.cleanup, b.cleanup);
});
afterEach(async () => {
  server?.close();
  server = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const sandboxedBash = (sandbox: { network?: "none" | "allow"; allowWrite?: string[] } = {}, timeoutMs = 20_000) =>
  findTool(createDefaultTools({ workspaceRoot: root, preset: "full", sandbox, bash: { timeoutMs } }), "bash");

describe("bash in the bubblewrap sandbox", () => {
  it("writes inside the workspace and allowWrite, and nowhere else", async () => {
    const allowed = await makeTempDir("heddle-allowed-");
    cleanups.push(allowed.cleanup);
    const out = await runTool(sandboxedBash({ allowWrite: [allowed.dir] }), {
      command: `echo in > inside.txt && echo ok > ${allowed.dir}/a.txt && echo bad > ${outside}/escape.txt; echo rc=$?`,
    });
    expect(out).toMatch(/rc=[1-9]/);
    expect(await readFile(path.join(root, "inside.txt"), "utf8")).toBe("in\n");
    expect(await readFile(path.join(allowed.dir, "a.txt"), "utf8")).toBe("ok\n");
    expect(existsSync(path.join(outside, "escape.txt"))).toBe(false);
  }, 20_000);

  it("the agent's own folder and protected paths stay read-only inside the sandbox", async () => {
    await mkdir(path.join(root, ".heddle"), { recursive: true });
    await writeFile(path.join(root, ".heddle", "settings.json"), "{}");
    await writeFile(path.join(root, "secret.env"), "A=1\n");
    const bash = findTool(
      createDefaultTools({ workspaceRoot: root, preset: "full", sandbox: {}, protectedPaths: ["secret.env"] }),
      "bash",
    );
    const out = await runTool(bash, {
      command:
        "echo '{\"hooks\":1}' > .heddle/settings.json; echo a=$?; echo B=2 > secret.env; echo b=$?; echo ok > fine.txt",
    });
    expect(out).toMatch(/a=[1-9]/);
    expect(out).toMatch(/b=[1-9]/);
    expect(await readFile(path.join(root, ".heddle", "settings.json"), "utf8")).toBe("{}");
    expect(await readFile(path.join(root, "secret.env"), "utf8")).toBe("A=1\n");
    expect(await readFile(path.join(root, "fine.txt"), "utf8")).toBe("ok\n");
  }, 20_000);

  it("a setsid -f child with a cleared environment dies with the sandbox on timeout", async () => {
    // `env -i` drops the token the host-side sweep finds processes by: only the PID namespace can end this one.
    const bash = sandboxedBash({}, 1500);
    const call = runTool(bash, {
      command: "setsid -f env -i /bin/sh -c '/bin/sleep 300 & echo $! > child.pid; wait'; sleep 300",
    });
    await expect(call).rejects.toMatchObject({ code: "timeout" });
    // The sandbox's PID namespace is gone: nothing that ran inside can still run.
    const inner = Number((await readFile(path.join(root, "child.pid"), "utf8")).trim());
    expect(inner).toBeGreaterThan(0);
    const hostPids = await sandboxedHostPids(root);
    expect(hostPids).toEqual([]);
  }, 20_000);

  it('network "none" cannot reach a loopback port the test opened; "allow" can', async () => {
    server = createServer((socket) => {
      socket.on("error", () => {});
      socket.end("hi\n");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected || echo refused`;
    expect(await runTool(sandboxedBash({ network: "none" }), { command: probe })).toContain("refused");
    expect(await runTool(sandboxedBash({ network: "allow" }), { command: probe })).toContain("connected");
  }, 20_000);

  it("gives the command a private /tmp: the host's files are not there, and what it writes stays inside", async () => {
    const name = `heddle-sandbox-tmp-${process.pid}-${Date.now()}`;
    await writeFile(path.join("/tmp", `${name}-host`), "host");
    cleanups.push(() => rm(path.join("/tmp", `${name}-host`), { force: true }));
    const out = await runTool(sandboxedBash(), {
      command: `test -e /tmp/${name}-host && echo host-visible; echo x > /tmp/${name} && echo wrote`,
    });
    expect(out).toBe("Exit code 0\nwrote\n");
    expect(existsSync(path.join("/tmp", name))).toBe(false);
  });

  it("a missing bwrap is a typed error at construction", () => {
    expect(() =>
      createDefaultTools({ workspaceRoot: root, preset: "full", sandbox: { bwrapPath: "/nonexistent/bwrap" } }),
    ).toThrow(SandboxUnavailableError);
  });

  it("builds a read-only root with the workspace writable", () => {
    const args = bwrapArgs({ workspaceRoot: root, network: "none" });
    expect(args).toEqual(
      expect.arrayContaining(["--unshare-pid", "--die-with-parent", "--unshare-net", "--new-session"]),
    );
    expect(args.join(" ")).toContain("--dev /dev");
    expect(args.join(" ")).toContain(`--ro-bind / /`);
    expect(args.join(" ")).toContain(`--bind ${root} ${root}`);
  });
});

/** Host pids of processes whose cwd is the workspace (what ran in the sandbox), read from /proc. */
async function sandboxedHostPids(workspace: string): Promise<number[]> {
  const { readdir, readlink } = await import("node:fs/promises");
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => "");
    if (cwd === workspace && Number(entry) !== process.pid && !processGone(Number(entry))) found.push(Number(entry));
  }
  return found;
}
