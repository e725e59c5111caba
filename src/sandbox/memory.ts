/**
 * How one program's memory bound is split and held. A program never starts a process of its own (the
 * seccomp filter refuses fork and non-thread clone), so its processes are fixed: the program's and, for
 * checked programs, the trusted checker's. Threads share their process's address space.
 *
 * - cgroup v2 (where the machine allows it): the program's cgroup has memory.max = the bound (no swap),
 *   which counts every page its processes and its tmpfs files use.
 * - otherwise RLIMIT_AS: program + checker + /tmp + /dev/shm ≤ the bound, each part capped on its own.
 */
import type { SandboxLimits } from './types.js';

export type MemoryMechanism = 'cgroup_v2' | 'rlimit_as';

export interface MemoryPlan {
  mechanism: MemoryMechanism;
  boundBytes: number;
  /** RLIMIT_AS of the program's process. */
  programAs: number;
  /** RLIMIT_AS the trusted checker sets on itself once it has started the program's process. */
  checkerAs: number;
  /** Size of /tmp, and of /dev/shm, each. */
  tmpfsBytes: number;
}

const MiB = 1024 ** 2;
const PAGE = 4096;

export function memoryPlan(limits: SandboxLimits, mechanism: MemoryMechanism): MemoryPlan {
  const bound = limits.memoryBytes;
  const tmpfsBytes = Math.floor(Math.min(limits.tmpBytes, bound / 32) / PAGE) * PAGE;
  const checkerAs = Math.floor(Math.min(128 * MiB, bound / 16) / PAGE) * PAGE;
  const programAs = mechanism === 'cgroup_v2' ? bound : bound - checkerAs - 2 * tmpfsBytes;
  return { mechanism, boundBytes: bound, programAs, checkerAs, tmpfsBytes };
}

const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`;

/** One sentence for the manifest: which mechanism held the bound, and how. */
export function describeMemoryPlan(plan: MemoryPlan, cgroup?: string): string {
  if (plan.mechanism === 'cgroup_v2') {
    return `cgroup v2: each program's cgroup under ${cgroup} has memory.max ${mib(plan.boundBytes)} and no swap, counting all its processes and its /tmp and /dev/shm (${mib(plan.tmpfsBytes)} each); processes cannot start others`;
  }
  return `RLIMIT_AS: no cgroup v2 memory controller could be used, so the bound is split: program ${mib(plan.programAs)} + checker ${mib(plan.checkerAs)} + /tmp ${mib(plan.tmpfsBytes)} + /dev/shm ${mib(plan.tmpfsBytes)} = ${mib(plan.programAs + plan.checkerAs + 2 * plan.tmpfsBytes)}; processes cannot start others (seccomp), so nothing multiplies the per-process limit`;
}
