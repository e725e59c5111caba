/**
 * The seccomp programs, run through a classic-BPF evaluator written from the kernel's documentation
 * (Documentation/networking/filter.rst, userspace-api/seccomp_filter.rst): each system call gets the
 * decision the filter's header promises. The filters' effect inside the sandbox is tested by the red team.
 */
import { describe, expect, it } from 'vitest';
import { seccompProgram } from './seccomp.js';

const ALLOW = 0x7fff0000;
const KILL = 0x80000000;
const errno = (code: number) => 0x00050000 | code;

/** Runs the program on struct seccomp_data {nr, arch, ip, args[6]} and returns the action. */
function evaluate(program: Buffer, data: { nr: number; arch: number; arg0?: number }): number {
  const words = new Map([
    [0, data.nr >>> 0],
    [4, data.arch >>> 0],
    [16, (data.arg0 ?? 0) >>> 0],
  ]);
  let accumulator = 0;
  for (let pc = 0; pc < program.length / 8; ) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) {
      const word = words.get(k);
      if (word === undefined) throw new Error(`load of an offset the test does not model: ${k}`);
      accumulator = word;
      pc++;
    } else if (code === 0x06) {
      return k;
    } else if (code === 0x15 || code === 0x35 || code === 0x45) {
      const taken =
        code === 0x15 ? accumulator === k : code === 0x35 ? accumulator >= k : (accumulator & k) !== 0;
      pc += 1 + (taken ? jt : jf);
    } else {
      throw new Error(`unexpected BPF opcode 0x${code.toString(16)}`);
    }
  }
  throw new Error('ran off the end of the program');
}

const X64 = 0xc000003e;
const ARM64 = 0xc00000b7;
const CLONE_THREAD_FLAGS = 0x3d0f00; // what glibc's pthread_create passes
const FORK_FLAGS = 0x01200011; // CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD

describe('seccomp filters (x86_64)', () => {
  const base = seccompProgram('base', 'x64');
  const single = seccompProgram('single', 'x64');
  const decide = (program: Buffer, nr: number, arg0?: number) => evaluate(program, { nr, arch: X64, arg0 });

  it('let ordinary calls through', () => {
    for (const nr of [0, 1, 2, 9, 59, 60, 231]) {
      expect(decide(base, nr)).toBe(ALLOW);
      expect(decide(single, nr)).toBe(ALLOW);
    }
  });

  it('refuse the ptrace family, keyrings, bpf, io_uring, namespaces and mounts', () => {
    for (const nr of [101, 310, 311, 438, 312, 321, 323, 425, 250, 272, 308, 165]) {
      expect(decide(base, nr)).toBe(errno(1));
      expect(decide(single, nr)).toBe(errno(1));
    }
  });

  it('refuse new processes in the single-process filter, but not threads', () => {
    expect(decide(base, 57)).toBe(ALLOW);
    expect(decide(base, 56, FORK_FLAGS)).toBe(ALLOW);
    expect(decide(single, 57)).toBe(errno(1)); // fork
    expect(decide(single, 58)).toBe(errno(1)); // vfork
    expect(decide(single, 56, FORK_FLAGS)).toBe(errno(1)); // clone of a process
    expect(decide(single, 56, CLONE_THREAD_FLAGS)).toBe(ALLOW); // clone of a thread
    expect(decide(single, 435)).toBe(errno(38)); // clone3: ENOSYS, so glibc falls back to clone
  });

  it('kill a process that calls through another ABI', () => {
    expect(evaluate(base, { nr: 0, arch: 0x40000003 })).toBe(KILL); // i386
    expect(decide(base, 0x40000000 + 57)).toBe(KILL); // x32
  });
});

describe('seccomp filters (arm64)', () => {
  const single = seccompProgram('single', 'arm64');
  const decide = (nr: number, arg0?: number) => evaluate(single, { nr, arch: ARM64, arg0 });

  it('use the generic system-call numbers', () => {
    expect(decide(63)).toBe(ALLOW); // read
    expect(decide(117)).toBe(errno(1)); // ptrace
    expect(decide(220, FORK_FLAGS)).toBe(errno(1)); // clone
    expect(decide(220, CLONE_THREAD_FLAGS)).toBe(ALLOW);
    expect(decide(435)).toBe(errno(38));
    expect(evaluate(single, { nr: 63, arch: X64 })).toBe(KILL);
  });
});
