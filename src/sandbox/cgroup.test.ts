/** Finding a cgroup v2 subtree for the sandbox, from /proc's own formats (proc(5), cgroups(7)). */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CgroupTree, locateCgroup } from './cgroup.js';

function procFiles(mountinfo: string, cgroup: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-cgroup-'));
  writeFileSync(path.join(dir, 'mountinfo'), mountinfo);
  writeFileSync(path.join(dir, 'cgroup'), cgroup);
  return { mountinfo: path.join(dir, 'mountinfo'), cgroup: path.join(dir, 'cgroup') };
}

const UNIFIED =
  '29 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n';
const HYBRID =
  '30 25 0:27 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw\n' +
  '31 25 0:28 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime - cgroup cgroup rw,memory\n';

describe('locateCgroup', () => {
  it('goes beside a non-root cgroup, whose own processes forbid children with controllers', () => {
    expect(locateCgroup(procFiles(UNIFIED, '0::/user.slice/user-1000.slice/session-2.scope\n'))).toEqual({
      available: true,
      mount: '/sys/fs/cgroup',
      base: '/sys/fs/cgroup/user.slice/user-1000.slice',
    });
  });

  it('uses the root cgroup itself, and a hybrid mount point', () => {
    expect(locateCgroup(procFiles(HYBRID, '4:memory:/x\n0::/\n'))).toEqual({
      available: true,
      mount: '/sys/fs/cgroup/unified',
      base: '/sys/fs/cgroup/unified',
    });
  });

  it('says why there is none', () => {
    const v1Only = '31 25 0:28 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n';
    expect(locateCgroup(procFiles(v1Only, '4:memory:/x\n'))).toEqual({
      available: false,
      reason: 'no cgroup v2 hierarchy is mounted',
    });
    expect(locateCgroup(procFiles(UNIFIED, '4:memory:/x\n'))).toEqual({
      available: false,
      reason: 'this process is in no cgroup v2 group',
    });
  });

  it('is refused, with the reason, where the hierarchy offers no memory controller', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-cgroup-tree-'));
    writeFileSync(path.join(dir, 'cgroup.subtree_control'), 'cpu io\n');
    writeFileSync(path.join(dir, 'cgroup.controllers'), 'cpu io hugetlb\n');
    const mountinfo = `29 23 0:26 / ${dir} rw - cgroup2 cgroup2 rw\n`;
    expect(
      CgroupTree.create(2, { memoryBytes: 2 ** 31, processes: 64 }, procFiles(mountinfo, '0::/\n')),
    ).toEqual({
      reason: `${dir} does not give its children the memory and pids controllers (cgroup v2 has: cpu io hugetlb)`,
    });
  });
});

describe('CgroupTree', () => {
  it('makes a sibling subtree with the controllers, one capped cgroup per slot, and removes it', () => {
    // A stand-in for cgroupfs (plain files): the files written and their contents, not the kernel.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-cgroup-tree-'));
    writeFileSync(path.join(dir, 'cgroup.subtree_control'), 'cpu memory pids\n');
    const mountinfo = `29 23 0:26 / ${dir} rw - cgroup2 cgroup2 rw\n`;
    const tree = CgroupTree.create(
      2,
      { memoryBytes: 2 ** 31, processes: 64 },
      procFiles(mountinfo, '0::/assay.scope\n'),
    );
    if (!(tree instanceof CgroupTree)) throw new Error(tree.reason);
    expect(path.dirname(tree.root)).toBe(dir);
    expect(path.basename(tree.root)).toMatch(new RegExp(`^assay-${process.pid}-[0-9a-f]{8}$`));
    expect(readFileSync(path.join(tree.root, 'cgroup.subtree_control'), 'utf8')).toBe('+memory +pids');
    expect(readdirSync(tree.root).sort()).toEqual(['cgroup.subtree_control', 'slot-0', 'slot-1']);
    expect(readFileSync(path.join(tree.root, 'slot-1', 'memory.max'), 'utf8')).toBe(String(2 ** 31));
    expect(readFileSync(path.join(tree.root, 'slot-1', 'pids.max'), 'utf8')).toBe('80');
    tree.enter(1, 4242);
    expect(readFileSync(path.join(tree.root, 'slot-1', 'cgroup.procs'), 'utf8')).toBe('4242');
    tree.close();
    // cgroupfs removes a cgroup's files with it; plain directories keep them, so only the attempt shows.
    expect(existsSync(tree.root)).toBe(true);
  });
});
