import { SandboxUnavailableError } from "./sandbox-error.js";

/**
 * The seccomp filter that keeps a `network: "none"` sandbox away from the host's unix sockets.
 *
 * `--unshare-net` covers TCP, UDP and abstract unix sockets (they belong to a network namespace), but a unix socket
 * that is a file (PostgreSQL's `/run/postgresql/.s.PGSQL.5432`, `/run/docker.sock`, the session bus under
 * `/run/user`, a dev server's socket inside the workspace) is reached through the filesystem, and a read-only
 * mount does not stop `connect()`. Hiding folders would miss every socket outside the folders on the list, so
 * instead the sandbox cannot make a unix socket that could connect anywhere:
 *
 * - `socket(AF_UNIX, ...)` fails with EPERM;
 * - `socketpair(AF_UNIX, SOCK_DGRAM, ...)` fails too: a datagram socket from a pair can still `sendto()` any
 *   socket path (stream and seqpacket pairs are connected for good, so they stay allowed: Node and Python build
 *   their child pipes from them);
 * - `io_uring_setup`/`_enter`/`_register` fail: io_uring can create and connect sockets without the `socket`
 *   syscall the filter checks;
 * - the other ABIs the kernel runs on the same CPU are covered: i386's `socketcall` multiplexer (its arguments sit
 *   behind a pointer seccomp cannot read, so it fails whole), x32's syscalls (all fail), arm32's numbers.
 *
 * A classic BPF program (`struct sock_filter[]`, 8 bytes each) that bubblewrap loads with `--seccomp FD`.
 */

const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS: A = seccomp_data[k]
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const AND_K = 0x54; // BPF_ALU | BPF_AND | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K

const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1; // SECCOMP_RET_ERRNO | EPERM

// struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6]. Little-endian: an argument's low
// 32 bits (all the kernel reads of an int argument) sit at its offset.
const NR = 0;
const ARCH = 4;
const ARG0 = 16;
const ARG1 = 24;

const AF_UNIX = 1;
const SOCK_DGRAM = 2;
const SOCK_TYPE_MASK = 0xf;
const IO_URING = [425, 426, 427];

/** One syscall ABI: its audit architecture and the numbers the filter checks. */
interface Abi {
  audit: number;
  socket: number;
  socketpair: number;
  /** Syscalls that fail whatever their arguments. */
  denied: number[];
  /** Numbers at or above this fail (x32's syscalls on x86_64 carry bit 30). */
  deniedFrom?: number;
}

const ABIS: { [arch: string]: Abi[] } = {
  x64: [
    { audit: 0xc000003e, socket: 41, socketpair: 53, denied: IO_URING, deniedFrom: 0x40000000 },
    { audit: 0x40000003, socket: 359, socketpair: 360, denied: [102, ...IO_URING] },
  ],
  arm64: [
    { audit: 0xc00000b7, socket: 198, socketpair: 199, denied: IO_URING },
    { audit: 0x40000028, socket: 281, socketpair: 288, denied: [102, ...IO_URING] },
  ],
  riscv64: [{ audit: 0xc00000f3, socket: 198, socketpair: 199, denied: IO_URING }],
};

type Target = string | number;
interface Insn {
  code: number;
  k: number;
  jt?: Target;
  jf?: Target;
  label?: string;
}

/**
 * The filter for `arch` (default: this process's). Throws `SandboxUnavailableError` on an architecture it does not
 * know: a sandbox that promises no network must not start without it.
 */
export function sandboxSeccompFilter(arch: string = process.arch): Buffer {
  const abis = ABIS[arch];
  if (!abis) {
    throw new SandboxUnavailableError(
      `The sandbox is unavailable: network "none" needs a seccomp filter that keeps unix sockets closed, and there ` +
        `is none for ${arch} (supported: ${Object.keys(ABIS).join(", ")}). Use network "allow" to run without it.`,
    );
  }
  const program: Insn[] = [{ code: LD_W_ABS, k: ARCH }];
  for (const [i, abi] of abis.entries()) program.push({ code: JEQ_K, k: abi.audit, jt: `abi${i}`, jf: 0 });
  // An architecture the kernel should never report for this CPU: refuse rather than guess its numbers.
  program.push({ code: RET_K, k: RET_EPERM });
  for (const [i, abi] of abis.entries()) {
    program.push({ code: LD_W_ABS, k: NR, label: `abi${i}` });
    if (abi.deniedFrom !== undefined) program.push({ code: JGE_K, k: abi.deniedFrom, jt: "deny", jf: 0 });
    for (const nr of abi.denied) program.push({ code: JEQ_K, k: nr, jt: "deny", jf: 0 });
    program.push({ code: JEQ_K, k: abi.socket, jt: `socket${i}`, jf: 0 });
    program.push({ code: JEQ_K, k: abi.socketpair, jt: `pair${i}`, jf: "allow" });
    program.push({ code: LD_W_ABS, k: ARG0, label: `socket${i}` });
    program.push({ code: JEQ_K, k: AF_UNIX, jt: "deny", jf: "allow" });
    program.push({ code: LD_W_ABS, k: ARG0, label: `pair${i}` });
    program.push({ code: JEQ_K, k: AF_UNIX, jt: 0, jf: "allow" });
    program.push({ code: LD_W_ABS, k: ARG1 });
    program.push({ code: AND_K, k: SOCK_TYPE_MASK });
    program.push({ code: JEQ_K, k: SOCK_DGRAM, jt: "deny", jf: "allow" });
  }
  program.push({ code: RET_K, k: RET_EPERM, label: "deny" });
  program.push({ code: RET_K, k: RET_ALLOW, label: "allow" });
  return assemble(program);
}

/** Resolves labels to the relative jumps classic BPF takes (forward only, at most 255) and packs the program. */
function assemble(program: Insn[]): Buffer {
  const at = new Map<string, number>();
  for (const [index, insn] of program.entries()) if (insn.label) at.set(insn.label, index);
  const jump = (from: number, target: Target | undefined): number => {
    if (target === undefined || typeof target === "number") return target ?? 0;
    const to = at.get(target);
    if (to === undefined || to <= from || to - from - 1 > 255)
      throw new SandboxUnavailableError(`seccomp: bad jump to ${target}`);
    return to - from - 1;
  };
  const out = Buffer.alloc(program.length * 8);
  program.forEach((insn, index) => {
    out.writeUInt16LE(insn.code, index * 8);
    out.writeUInt8(jump(index, insn.jt), index * 8 + 2);
    out.writeUInt8(jump(index, insn.jf), index * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, index * 8 + 4);
  });
  return out;
}
