import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SandboxUnavailableError, sandboxSeccompFilter } from "../process/index.js";
import { createDefaultTools } from "./default-tools.js";
import { findTool, makeTempDir, runTool } from "./test-utils.js";

// An attacker's command in a network-less sandbox reaching a host service through a unix socket file. Runs the
// real bubblewrap, the real PostgreSQL of this machine, real sockets.
const POSTGRES_SOCKET = "/var/run/postgresql/.s.PGSQL.5432";
const postgresUp = existsSync(POSTGRES_SOCKET);
if (!postgresUp) console.warn(`[heddle] no PostgreSQL socket at ${POSTGRES_SOCKET}: its sandbox test skips`);
// node-gyp (better-sqlite3's build) needs Python, so every machine that installed the workspace has it.
const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

let root: string;
let cleanup: () => Promise<void>;
let server: Server | undefined;
beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir("heddle-sandbox-sockets-"));
});
afterEach(async () => {
  server?.close();
  server = undefined;
  await cleanup();
});

const bash = (network: "none" | "allow") =>
  findTool(createDefaultTools({ workspaceRoot: root, preset: "full", sandbox: { network } }), "bash");

/** A command that connects to a unix socket path with Node and prints `connected` or the error's code. */
const connectProbe = (socketPath: string) =>
  `${JSON.stringify(process.execPath)} -e ${JSON.stringify(
    `const s = require("net").connect(${JSON.stringify(socketPath)});` +
      `s.on("connect", () => { console.log("connected"); s.destroy(); });` +
      `s.on("error", (e) => console.log("refused " + e.code));`,
  )}`;

describe('network "none" keeps every unix socket of the host out of reach', () => {
  it("a host service's socket inside the workspace: refused without network, reached with it", async () => {
    // Not a path on any list (/run, /var/run): a socket a dev server made among the project's files.
    const socketPath = path.join(root, "dev-server.sock");
    let accepted = 0;
    server = createServer((socket) => {
      accepted++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server!.listen(socketPath, resolve));

    const none = await runTool(bash("none"), { command: connectProbe(socketPath) });
    expect(none).toContain("refused EPERM");
    expect(accepted).toBe(0);
    // The same probe with network "allow" connects: the refusal above is the sandbox's doing.
    expect(await runTool(bash("allow"), { command: connectProbe(socketPath) })).toContain("connected");
  }, 30_000);

  it.skipIf(!postgresUp)(
    "the host's PostgreSQL: its socket is refused without network, reachable with it",
    async () => {
      const none = await runTool(bash("none"), { command: connectProbe(POSTGRES_SOCKET) });
      expect(none).toContain("refused EPERM");
      expect(await runTool(bash("allow"), { command: connectProbe(POSTGRES_SOCKET) })).toContain("connected");
    },
    30_000,
  );

  it("no unix socket can be made, nor a datagram pair or io_uring; pipes, child processes and the workspace work", async () => {
    const probe = [
      "import ctypes, errno, socket, subprocess",
      "def attempt(name, make):",
      "    try:",
      "        make(); print(name, 'ok')",
      "    except OSError as e:",
      "        print(name, errno.errorcode.get(e.errno, e.errno))",
      "attempt('unix-stream', lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))",
      "attempt('unix-dgram', lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM))",
      "attempt('dgram-pair', lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM))",
      "attempt('stream-pair', lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM))",
      "libc = ctypes.CDLL(None, use_errno=True)",
      "params = ctypes.create_string_buffer(120)",
      "rc = libc.syscall(425, 4, params)",
      "print('io_uring', 'ok' if rc >= 0 else errno.errorcode.get(ctypes.get_errno()))",
      "print('child', subprocess.run(['echo', 'hi'], capture_output=True, text=True).stdout.strip())",
    ].join("\n");
    await writeFile(path.join(root, "probe.py"), probe);
    const out = await runTool(bash("none"), {
      command: `${python} probe.py && ${JSON.stringify(process.execPath)} -e "console.log(require('child_process').execFileSync('echo', ['node-child']).toString().trim())" && echo written > out.txt && cat out.txt`,
    });
    expect(out).toContain("unix-stream EPERM");
    expect(out).toContain("unix-dgram EPERM");
    expect(out).toContain("dgram-pair EPERM");
    expect(out).toContain("stream-pair ok");
    expect(out).toContain("io_uring EPERM");
    expect(out).toContain("child hi");
    expect(out).toContain("node-child");
    expect(out).toContain("written");
    expect(out).toMatch(/^Exit code 0/);
  }, 30_000);

  it("has a filter for x64, arm64 and riscv64; another CPU gets a typed error, not a sandbox without it", () => {
    for (const arch of ["x64", "arm64", "riscv64"]) expect(sandboxSeccompFilter(arch).length % 8).toBe(0);
    expect(() => sandboxSeccompFilter("mips")).toThrow(SandboxUnavailableError);
    expect(() => sandboxSeccompFilter("mips")).toThrow(/network "none" needs a seccomp filter/);
  });
});
