import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { SandboxUnavailableError } from "./sandbox-error.js";
import { ensureAgentFolder, gitMetadataPaths, holdGitPlaceholder } from "./sandbox-protect.js";
import { sandboxSeccompFilter } from "./seccomp.js";

export { SandboxUnavailableError };

/** Where `bash` (and command hooks, when asked) may write and connect. Linux only: runs under bubblewrap. */
export interface SandboxOptions {
  /**
   * `"none"` (default): no network at all, loopback included, and no unix socket of the host either (a seccomp
   * filter refuses unix sockets: see `sandboxSeccompFilter`). `"allow"`: the host's network, and every unix socket
   * the filesystem shows (PostgreSQL's, Docker's, the session bus), as for any process of the user.
   */
  network?: "none" | "allow";
  /** Folders writable besides the workspace (absolute, or relative to the workspace). Everything else is read-only. */
  allowWrite?: string[];
  /** The bubblewrap binary (default `bwrap` on PATH). */
  bwrapPath?: string;
}

/** A sandbox fixed to one workspace: what `runShellCommand` wraps the shell with. */
export interface ResolvedSandbox {
  bwrapPath: string;
  /** bubblewrap's arguments, computed per command (protected paths that appeared since are covered). */
  args(): string[];
  /**
   * Called once the command that `args()` was computed for has ended: removes what was set up for it alone (the
   * read-only `.git` placeholder of a workspace without one).
   */
  release?(): void;
  /**
   * A seccomp filter (see `sandboxSeccompFilter`) that the args tell bubblewrap to read from file descriptor
   * `SANDBOX_SECCOMP_FD`: `runShellCommand` feeds it there.
   */
  seccomp?: Uint8Array;
}

/** The file descriptor bubblewrap reads the seccomp filter from (`--seccomp 3`): the first one after stdio. */
export const SANDBOX_SECCOMP_FD = 3;

/**
 * bubblewrap's arguments: the whole filesystem read-only, a private /tmp and /dev, the workspace and `allowWrite`
 * writable except what runs outside the sandbox later (the agent's folder `.heddle/`, created when missing, and the
 * workspace's `.git`: see sandbox-protect.ts) and `readOnly`, its own PID namespace (every process inside dies with it, `setsid` ones included) that dies with
 * its parent, a new terminal session (no TIOCSTI into the host's terminal), and no network unless allowed.
 * Without network the args load a seccomp filter from `seccompFd` (default `SANDBOX_SECCOMP_FD`): the caller
 * must pass `sandboxSeccompFilter()` on it, or bubblewrap refuses to start (never a sandbox without it).
 */
export function bwrapArgs(options: {
  workspaceRoot: string;
  network?: "none" | "allow";
  allowWrite?: string[];
  /** Existing paths inside the writable ones that also stay read-only (protected paths). */
  readOnly?: string[];
  /** Where bubblewrap reads the seccomp filter of a network-less sandbox (default `SANDBOX_SECCOMP_FD`). */
  seccompFd?: number;
}): string[] {
  const args = [
    "--die-with-parent",
    "--unshare-pid",
    "--new-session",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
  ];
  const root = realOrSelf(options.workspaceRoot);
  const writable = [root, ...(options.allowWrite ?? []).map((dir) => realOrSelf(path.resolve(root, dir)))];
  for (const dir of writable) args.push("--bind", dir, dir);
  // Mounted after the writable folders, so they win inside them. What runs outside the sandbox later comes first.
  const readOnly = [ensureAgentFolder(root), ...gitMetadataPaths(root, writable)];
  for (const given of options.readOnly ?? []) {
    const target = path.resolve(root, given);
    if (existsSync(target)) readOnly.push(realOrSelf(target));
  }
  for (const target of new Set(readOnly)) args.push("--ro-bind", target, target);
  if ((options.network ?? "none") === "none") {
    // The network namespace closes TCP, UDP and abstract sockets; the filter closes unix sockets that are files.
    args.push("--unshare-net", "--seccomp", String(options.seccompFd ?? SANDBOX_SECCOMP_FD));
  }
  args.push("--chdir", options.workspaceRoot);
  return args;
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

const probed = new Map<string, string | undefined>();

/**
 * Checks once per binary that bubblewrap runs here with the namespaces the sandbox needs; throws
 * `SandboxUnavailableError` otherwise.
 */
export function checkSandboxAvailable(bwrapPath = "bwrap"): void {
  if (!probed.has(bwrapPath)) {
    if (process.platform !== "linux") {
      probed.set(bwrapPath, `the sandbox needs Linux (bubblewrap); this is ${process.platform}`);
    } else {
      // The probe loads the seccomp filter too (from stdin, here only), so a kernel without seccomp fails now.
      const filter = filterForThisCpu();
      const probe = spawnSync(
        bwrapPath,
        [
          "--die-with-parent",
          "--unshare-pid",
          "--unshare-net",
          ...(filter ? ["--seccomp", "0"] : []),
          "--ro-bind",
          "/",
          "/",
          "--proc",
          "/proc",
          "true",
        ],
        { encoding: "utf8", timeout: 10_000, stdio: ["pipe", "ignore", "pipe"], ...(filter && { input: filter }) },
      );
      const problem = probe.error
        ? `${bwrapPath} could not be started (${(probe.error as NodeJS.ErrnoException).code ?? probe.error.message}); ` +
          "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)"
        : probe.status !== 0
          ? `${bwrapPath} cannot create its namespaces here: ${probe.stderr.trim() || `exit ${probe.status}`} ` +
            "(unprivileged user namespaces may be disabled: sysctl kernel.unprivileged_userns_clone=1)"
          : undefined;
      probed.set(bwrapPath, problem);
    }
  }
  const problem = probed.get(bwrapPath);
  if (problem) throw new SandboxUnavailableError(`The sandbox is unavailable: ${problem}.`);
}

/** This CPU's filter, or `undefined` where there is none (then only network "allow" can run). */
function filterForThisCpu(): Buffer | undefined {
  try {
    return sandboxSeccompFilter();
  } catch {
    return undefined;
  }
}

/**
 * Checks bubblewrap and fixes the sandbox for a workspace. The agent's own folder (`.heddle/`, created empty when
 * missing so a command cannot create it), the workspace's `.git` (an empty read-only one while a command runs when
 * there is none) and `protectedPaths` that exist are mounted read-only inside it.
 */
export function resolveSandbox(
  workspaceRoot: string,
  options: SandboxOptions,
  protectedPaths: readonly string[] = [],
): ResolvedSandbox {
  const bwrapPath = options.bwrapPath ?? "bwrap";
  checkSandboxAvailable(bwrapPath);
  const seccomp = (options.network ?? "none") === "none" ? sandboxSeccompFilter() : undefined;
  const writable = [workspaceRoot, ...(options.allowWrite ?? [])].map((dir) =>
    realOrSelf(path.resolve(workspaceRoot, dir)),
  );
  const releases: Array<() => void> = [];
  return {
    bwrapPath,
    ...(seccomp && { seccomp }),
    args: () => {
      const release = holdGitPlaceholder(realOrSelf(workspaceRoot), writable);
      try {
        const args = bwrapArgs({
          workspaceRoot,
          ...(options.network && { network: options.network }),
          ...(options.allowWrite && { allowWrite: options.allowWrite }),
          readOnly: [...protectedPaths],
        });
        releases.push(release);
        return args;
      } catch (error) {
        release();
        throw error;
      }
    },
    // Commands end in any order; each release drops one hold, and the placeholder goes with the last.
    release: () => releases.pop()?.(),
  };
}
