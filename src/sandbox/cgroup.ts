/**
 * A cgroup v2 subtree for the sandbox, where the machine allows one: assay's own cgroup's parent must
 * hand the memory and pids controllers to its children and be writable by us (root, or a delegated
 * subtree). We create a sibling of our cgroup (never move ourselves), enable both controllers in it, and
 * give each worker slot a child cgroup with memory.max, memory.swap.max = 0 and pids.max. A program is
 * placed in its slot's cgroup before it may run (run-program.ts holds it at a gate until then), so every
 * process of its sandbox is counted. When no such subtree can be made, the reason is returned and the
 * sandbox bounds memory with RLIMIT_AS instead (memory.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type CgroupProbe =
  | { available: true; mount: string; base: string }
  | { available: false; reason: string };

export interface ProcFiles {
  mountinfo: string;
  cgroup: string;
}

/** Where cgroup2 is mounted and which directory holds this process's cgroup, from /proc. */
export function locateCgroup(files: ProcFiles): CgroupProbe {
  let mountinfo: string;
  let membership: string;
  try {
    mountinfo = readFileSync(files.mountinfo, 'utf8');
    membership = readFileSync(files.cgroup, 'utf8');
  } catch (error) {
    return { available: false, reason: `cannot read ${files.mountinfo}: ${(error as Error).message}` };
  }
  const mount = mountinfo
    .split('\n')
    .map((line) => line.split(' '))
    .find((fields) => fields[fields.indexOf('-') + 1] === 'cgroup2');
  if (!mount) return { available: false, reason: 'no cgroup v2 hierarchy is mounted' };
  const [root, mountPoint] = [mount[3], mount[4]];
  const own = membership
    .split('\n')
    .find((line) => line.startsWith('0::'))
    ?.slice(3);
  if (own === undefined) return { available: false, reason: 'this process is in no cgroup v2 group' };
  const relative = root === '/' ? own : own.startsWith(root) ? own.slice(root.length) || '/' : undefined;
  if (relative === undefined)
    return { available: false, reason: `cgroup ${own} is outside the mount of ${root}` };
  const dir = relative === '/' ? mountPoint : path.posix.join(mountPoint, relative);
  // The root cgroup may hold processes and children at once; any other must not, so we go beside it.
  const base = relative === '/' ? dir : path.posix.dirname(dir);
  return { available: true, mount: mountPoint, base };
}

function controllers(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').trim().split(/\s+/);
  } catch {
    return [];
  }
}

export class CgroupTree {
  private readonly cleanup = () => this.close();

  private constructor(
    readonly root: string,
    private readonly slots: string[],
  ) {
    // A sandbox nobody closed still leaves no cgroup behind when the process ends.
    process.once('exit', this.cleanup);
  }

  /** Creates the subtree and one cgroup per worker slot, or says why it cannot. */
  static create(
    slots: number,
    limits: { memoryBytes: number; processes: number },
    files: ProcFiles = { mountinfo: '/proc/self/mountinfo', cgroup: '/proc/self/cgroup' },
  ): CgroupTree | { reason: string } {
    const located = locateCgroup(files);
    if (!located.available) return { reason: located.reason };
    const offered = controllers(path.join(located.base, 'cgroup.subtree_control'));
    const missing = ['memory', 'pids'].filter((name) => !offered.includes(name));
    if (missing.length > 0) {
      return {
        reason: `${located.base} does not give its children the ${missing.join(' and ')} controller${missing.length > 1 ? 's' : ''} (cgroup v2 has: ${controllers(path.join(located.base, 'cgroup.controllers')).join(' ') || 'none'})`,
      };
    }
    const root = path.join(located.base, `assay-${process.pid}-${randomBytes(4).toString('hex')}`);
    const made: string[] = [];
    try {
      mkdirSync(root);
      made.push(root);
      writeFileSync(path.join(root, 'cgroup.subtree_control'), '+memory +pids');
      const slotDirs: string[] = [];
      for (let slot = 0; slot < slots; slot++) {
        const dir = path.join(root, `slot-${slot}`);
        mkdirSync(dir);
        made.push(dir);
        writeFileSync(path.join(dir, 'memory.max'), String(limits.memoryBytes));
        if (existsSync(path.join(dir, 'memory.swap.max')))
          writeFileSync(path.join(dir, 'memory.swap.max'), '0');
        if (existsSync(path.join(dir, 'memory.oom.group')))
          writeFileSync(path.join(dir, 'memory.oom.group'), '1');
        writeFileSync(path.join(dir, 'pids.max'), String(limits.processes + 16));
        slotDirs.push(dir);
      }
      return new CgroupTree(root, slotDirs);
    } catch (error) {
      for (const dir of made.reverse()) {
        try {
          rmdirSync(dir);
        } catch {
          // best effort
        }
      }
      return { reason: `cannot set up a cgroup under ${located.base}: ${(error as Error).message}` };
    }
  }

  /** Moves a process (held at the gate, so it has no children yet) into a slot's cgroup. */
  enter(slot: number, pid: number): void {
    writeFileSync(path.join(this.slots[slot], 'cgroup.procs'), String(pid));
  }

  /** Kills whatever is left in a slot's cgroup after its program ended. */
  clear(slot: number): void {
    const kill = path.join(this.slots[slot], 'cgroup.kill');
    try {
      if (existsSync(kill)) writeFileSync(kill, '1');
    } catch {
      // Already empty.
    }
  }

  close(): void {
    process.removeListener('exit', this.cleanup);
    for (const dir of [...this.slots, this.root]) {
      try {
        rmdirSync(dir);
      } catch {
        // Still populated for a moment, or already gone.
      }
    }
  }
}
