/**
 * Seccomp filters for sandboxed programs, as classic BPF bytes (the format bubblewrap's `--seccomp FD`
 * and prctl(PR_SET_SECCOMP) take). Hand-written because the filter is a dozen instructions and the npm
 * bindings for libseccomp are native add-ons that need the library's headers at install time.
 *
 * Two filters:
 * - `base` denies what no benchmark program needs and what would let one process reach into another:
 *   ptrace, process_vm_readv/writev, pidfd_getfd, kcmp, and a few kernel surfaces (bpf, perf events,
 *   userfaultfd, io_uring, keyrings, namespaces and mounts).
 * - `single` is `base` plus: no new processes (fork, vfork, clone without CLONE_THREAD). Threads stay
 *   allowed; they share one address space, so RLIMIT_AS bounds them together. clone3 answers ENOSYS,
 *   which makes glibc fall back to clone, whose flags (unlike clone3's) a filter can read.
 *
 * A foreign system-call ABI (x32, or 32-bit calls on x86_64) kills the process: those numbers differ.
 */
import { mkdtempSync, openSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JSET_K = 0x45;
const JGE_K = 0x35;
const RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

const CLONE_THREAD = 0x00010000;
const X32_SYSCALL_BIT = 0x40000000;

/** Offsets in struct seccomp_data. */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

interface Architecture {
  audit: number;
  denied: number[];
  /** fork and vfork, where the ABI still has them. */
  forks: number[];
  clone: number;
  clone3: number;
  x32: boolean;
}

/** System-call numbers from the kernel's unistd tables (arch/x86/entry/syscalls/syscall_64.tbl, asm-generic). */
const ARCHITECTURES: Record<string, Architecture> = {
  x64: {
    audit: 0xc000003e,
    // ptrace, process_vm_readv, process_vm_writev, pidfd_getfd, kcmp, perf_event_open, bpf,
    // userfaultfd, io_uring_setup/enter/register, add_key, request_key, keyctl, unshare, setns,
    // mount, umount2, pivot_root, open_tree, move_mount, fsopen, fsconfig, fsmount, fspick.
    denied: [
      101, 310, 311, 438, 312, 298, 321, 323, 425, 426, 427, 248, 249, 250, 272, 308, 165, 166, 155, 428, 429,
      430, 431, 432, 433,
    ],
    forks: [57, 58],
    clone: 56,
    clone3: 435,
    x32: true,
  },
  arm64: {
    audit: 0xc00000b7,
    denied: [
      117, 270, 271, 438, 272, 241, 280, 282, 425, 426, 427, 217, 218, 219, 97, 268, 40, 39, 41, 428, 429,
      430, 431, 432, 433,
    ],
    forks: [],
    clone: 220,
    clone3: 435,
    x32: false,
  },
};

export type SeccompFilter = 'base' | 'single';

export function seccompSupported(arch: string = process.arch): boolean {
  return arch in ARCHITECTURES;
}

type Instruction = [code: number, jt: number, jf: number, k: number];

/** The filter's BPF program, 8 bytes per instruction (struct sock_filter, little-endian). */
export function seccompProgram(filter: SeccompFilter, arch: string = process.arch): Buffer {
  const table = ARCHITECTURES[arch];
  if (!table) throw new Error(`no seccomp filter for architecture ${arch}`);
  const body: Instruction[] = [];
  const deny = (nr: number, errno: number) => {
    body.push([JEQ_K, 0, 1, nr], [RET_K, 0, 0, RET_ERRNO | errno]);
  };
  for (const nr of table.denied) deny(nr, EPERM);
  if (filter === 'single') {
    for (const nr of table.forks) deny(nr, EPERM);
    deny(table.clone3, ENOSYS);
    // clone: allowed only for a thread (CLONE_THREAD implies a shared address space).
    body.push(
      [JEQ_K, 0, 4, table.clone],
      [LD_W_ABS, 0, 0, ARG0_LOW],
      [JSET_K, 1, 0, CLONE_THREAD],
      [RET_K, 0, 0, RET_ERRNO | EPERM],
      [RET_K, 0, 0, RET_ALLOW],
    );
  }
  const head: Instruction[] = [
    [LD_W_ABS, 0, 0, ARCH],
    [JEQ_K, 1, 0, table.audit],
    [RET_K, 0, 0, RET_KILL_PROCESS],
    [LD_W_ABS, 0, 0, NR],
  ];
  if (table.x32) head.push([JGE_K, 0, 1, X32_SYSCALL_BIT], [RET_K, 0, 0, RET_KILL_PROCESS]);
  const program = [...head, ...body, [RET_K, 0, 0, RET_ALLOW] as Instruction];
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], index) => {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jt, index * 8 + 2);
    bytes.writeUInt8(jf, index * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return bytes;
}

const held = new Map<SeccompFilter, number>();

/**
 * A fresh read-only descriptor of the filter's bytes, for bubblewrap's `--seccomp 3` (which reads to
 * the end, so each run needs its own offset). The bytes live in an unlinked file that this process
 * keeps open: nothing is left on disk, and each descriptor is reopened through /proc/self/fd.
 */
export function seccompDescriptor(filter: SeccompFilter): number {
  let fd = held.get(filter);
  if (fd === undefined) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-seccomp-'));
    const file = path.join(dir, `${filter}.bpf`);
    try {
      writeFileSync(file, seccompProgram(filter), { mode: 0o600 });
      fd = openSync(file, 'r');
    } finally {
      try {
        unlinkSync(file);
      } catch {
        // never written
      }
      rmdirSync(dir);
    }
    held.set(filter, fd);
  }
  return openSync(`/proc/self/fd/${fd}`, 'r');
}
