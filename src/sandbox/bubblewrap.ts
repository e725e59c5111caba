/**
 * Command lines for running one program: inside bubblewrap, or (only on request) under rlimits alone.
 * What the program needs (its source, a checker's job, a runner's inputs) is fed on stdin, so no host
 * file is ever written for it and there is no argument-length limit.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { JAVASCRIPT_IO_RUNNER } from './io-runners.js';
import { type MemoryPlan, memoryPlan } from './memory.js';
import { sandboxPython, sandboxPythonPath } from './python-sources.js';
import { type SeccompFilter, seccompDescriptor, seccompProgram, seccompSupported } from './seccomp.js';
import type { Language, SandboxLimits, SandboxOptions } from './types.js';

/** Unprivileged identity for programs when assay runs as root, so that RLIMIT_NPROC applies (root is exempt). */
export const NOBODY = 65534;

export interface SpawnPlan {
  command: string;
  args: string[];
  /** Set when the host process is root: the program runs as nobody. */
  uid?: number;
  gid?: number;
}

/** The first executable of that name in the usual system directories (not the user's PATH: it may hold shims). */
export function findExecutable(
  name: string,
  directories = ['/usr/bin', '/bin', '/usr/local/bin'],
): string | undefined {
  for (const directory of directories) {
    const candidate = path.join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // try the next directory
    }
  }
  return undefined;
}

export function prlimitArgs(limits: SandboxLimits, memory: MemoryPlan): string[] {
  return [
    `--cpu=${limits.cpuSeconds}`,
    `--as=${memory.programAs}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileSizeBytes}`,
    `--nofile=${limits.openFiles}`,
    '--core=0',
    '--',
  ];
}

/**
 * What runs inside: a program as it is (`raw`), the trusted checker for a checked program (`check`),
 * or the runner that calls f on each input (`io`). Each reads its input on stdin.
 */
export type RunKind = 'raw' | 'check' | 'io';

export interface RunSpec {
  kind: RunKind;
  language: Language;
  /** For `check`: the length of the checker's bytecode, which leads its stdin. */
  checkerBytes?: number;
}

/** The seccomp filter bubblewrap installs: the checker forks the program's process once, then both confine themselves. */
export function filterFor(kind: RunKind): SeccompFilter {
  return kind === 'check' ? 'base' : 'single';
}

export function interpreterArgs(spec: RunSpec, options: SandboxOptions, memory: MemoryPlan): string[] {
  const { kind, language } = spec;
  // -I: isolated mode (ignores PYTHON* variables, the user site directory and the current directory);
  // -S: no site module, so only the standard library is importable, which halves start-up (~40 → ~20
  // ms) and is all that HumanEval/MBPP need; -B: no .pyc writes.
  if (language === 'python') {
    const python = [options.python, '-I', '-S', '-B'];
    if (kind === 'check') {
      const filter = seccompProgram('single').toString('hex');
      return [
        ...python,
        '-c',
        sandboxPython('checker_bootstrap'),
        String(spec.checkerBytes ?? 0),
        filter,
        String(memory.checkerAs),
      ];
    }
    if (kind === 'io') return [...python, '-c', sandboxPython('io_runner')];
    return [...python, '-'];
  }
  if (kind === 'check') throw new Error('checked programs are Python');
  const node = [
    options.node,
    `--max-old-space-size=${Math.max(64, Math.floor(memory.programAs / 4 / 1024 ** 2))}`,
  ];
  return kind === 'io' ? [...node, '-e', JAVASCRIPT_IO_RUNNER] : [...node, '-'];
}

/** Shells are masked so that `subprocess`/`child_process` cannot start one; no benchmark program needs a shell. */
const SHELLS = [
  '/usr/bin/sh',
  '/usr/bin/dash',
  '/usr/bin/bash',
  '/usr/bin/rbash',
  '/usr/bin/zsh',
  '/usr/bin/busybox',
  '/bin/sh',
  '/bin/bash',
  '/bin/dash',
];

/** Mounts for the system: /usr read-only, and the merged-/usr symlinks (or directories) beside it. */
function systemMounts(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const top of ['/bin', '/sbin', '/lib', '/lib32', '/lib64']) {
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(top);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) {
      args.push('--symlink', path.posix.relative('/', realpathSync(top)), top);
    } else if (stat.isDirectory()) {
      args.push('--ro-bind', top, top);
    }
  }
  return args;
}

/** An interpreter installed outside /usr (say /opt/node) gets its own install prefix mounted read-only. */
function interpreterMounts(options: SandboxOptions): string[] {
  const args: string[] = [];
  for (const interpreter of [options.python, options.node]) {
    let real: string;
    try {
      real = realpathSync(interpreter);
    } catch {
      continue;
    }
    if (real.startsWith('/usr/')) continue;
    const prefix = path.dirname(path.dirname(real));
    if (prefix !== '/') args.push('--ro-bind', prefix, prefix);
  }
  return args;
}

/**
 * Directories of third-party code that the mounted trees hold: Python's site and dist-packages and
 * Node's global node_modules. They are covered by empty read-only mounts, so the standard-library-only
 * rule holds even for a program that appends them to sys.path or require()s them by absolute path.
 */
export function thirdPartyDirs(options: SandboxOptions): string[] {
  const dirs = new Set<string>();
  const python = spawnSync(options.python, ['-I', '-S', sandboxPythonPath('site_dirs')], {
    encoding: 'utf8',
    timeout: 10_000,
    env: {},
  });
  for (const dir of (python.stdout ?? '').split('\n')) if (dir.startsWith('/')) dirs.add(dir);
  try {
    dirs.add(path.join(path.dirname(path.dirname(realpathSync(options.node))), 'lib', 'node_modules'));
  } catch {
    // no node
  }
  for (const dir of ['/usr/lib/node_modules', '/usr/local/lib/node_modules']) dirs.add(dir);
  const mounted = [
    '/usr/',
    ...interpreterMounts(options)
      .filter((_, i) => i % 3 === 1)
      .map((dir) => `${dir}/`),
  ];
  return [...dirs].filter((dir) => {
    try {
      return statSync(dir).isDirectory() && mounted.some((root) => `${dir}/`.startsWith(root));
    } catch {
      return false;
    }
  });
}

export function bubblewrapPlan(
  bwrap: string,
  prlimit: string,
  spec: RunSpec,
  options: SandboxOptions,
  memory: MemoryPlan,
  masked: string[],
): SpawnPlan {
  return {
    command: bwrap,
    args: [...bubblewrapArgs(prlimit, options, memory, masked), ...interpreterArgs(spec, options, memory)],
    ...dropRoot(),
  };
}

/**
 * bwrap's arguments up to the sandboxed command: namespaces (a nested user namespace that may not
 * create more), the program as pid 1 (no bubblewrap init inside to be reached), mounts with capped
 * tmpfs for /tmp and /dev/shm and a read-only /dev, the seccomp filter on fd 3, then prlimit.
 */
function bubblewrapArgs(
  prlimit: string,
  options: SandboxOptions,
  memory: MemoryPlan,
  masked: string[],
): string[] {
  return [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--as-pid-1',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--clearenv',
    '--setenv',
    'PATH',
    '/usr/bin:/bin',
    '--setenv',
    'HOME',
    '/tmp',
    '--setenv',
    'LANG',
    'C.UTF-8',
    '--hostname',
    'sandbox',
    ...systemMounts(),
    ...interpreterMounts(options),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(memory.tmpfsBytes),
    '--tmpfs',
    '/dev/shm',
    '--size',
    String(memory.tmpfsBytes),
    '--tmpfs',
    '/tmp',
    ...masked.flatMap((dir) => ['--size', '4096', '--tmpfs', dir, '--remount-ro', dir]),
    ...SHELLS.filter((shell) => existsSync(shell) && shell.startsWith('/usr/')).flatMap((shell) => [
      '--ro-bind',
      '/dev/null',
      shell,
    ]),
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
    '--seccomp',
    '3',
    '--chdir',
    '/tmp',
    prlimit,
    ...prlimitArgs(options.limits, memory),
  ];
}

/** rlimits only: the program sees the host's filesystem and network. Used only with --unsafe_code_without_sandbox. */
export function rlimitsOnlyPlan(
  prlimit: string,
  spec: RunSpec,
  options: SandboxOptions,
  memory: MemoryPlan,
): SpawnPlan {
  const [command, ...rest] = [
    prlimit,
    ...prlimitArgs(options.limits, memory),
    ...interpreterArgs(spec, options, memory),
  ];
  return { command, args: rest, ...dropRoot() };
}

function dropRoot(): { uid?: number; gid?: number } {
  return process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
}

export type SandboxProbe =
  | { available: true; bwrap: string; prlimit: string; masked: string[] }
  | { available: false; reason: string };

const probes = new Map<string, SandboxProbe>();

/**
 * Whether bubblewrap can start here: installed, user namespaces allowed, a seccomp filter for this
 * architecture. Runs `true` in the same sandbox a program gets, once per process (per bubblewrap path).
 */
export function probeSandbox(options: SandboxOptions, refresh = false): SandboxProbe {
  const key = `${options.bwrap ?? ''}\0${options.python}\0${options.node}`;
  const known = probes.get(key);
  if (known && !refresh) return known;
  const result = probe(options);
  probes.set(key, result);
  return result;
}

function probe(options: SandboxOptions): SandboxProbe {
  if (process.platform !== 'linux')
    return { available: false, reason: `bubblewrap needs Linux; this is ${process.platform}` };
  if (!seccompSupported())
    return { available: false, reason: `no seccomp filter is written for the ${process.arch} architecture` };
  const prlimit = findExecutable('prlimit');
  if (!prlimit) return { available: false, reason: 'prlimit (util-linux) is not installed' };
  const bwrap = options.bwrap
    ? existsSync(options.bwrap)
      ? options.bwrap
      : undefined
    : findExecutable('bwrap');
  if (!bwrap) {
    return {
      available: false,
      reason: 'bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)',
    };
  }
  const masked = thirdPartyDirs(options);
  const trueCommand = findExecutable('true') ?? '/usr/bin/true';
  const identity = dropRoot();
  const seccomp = seccompDescriptor('single');
  let result: ReturnType<typeof spawnSync>;
  try {
    result = spawnSync(
      bwrap,
      [...bubblewrapArgs(prlimit, options, memoryPlan(options.limits, 'rlimit_as'), masked), trueCommand],
      {
        env: {},
        ...identity,
        stdio: ['ignore', 'pipe', 'pipe', seccomp],
        timeout: 10_000,
        encoding: 'utf8',
      },
    );
  } finally {
    closeSync(seccomp);
  }
  if (result.error)
    return { available: false, reason: `bubblewrap could not start: ${result.error.message}` };
  if (result.status !== 0) {
    const detail =
      String(result.stderr || '')
        .trim()
        .split('\n')
        .pop() ?? '';
    const hint = /namespace|uid map|Operation not permitted|Permission denied/i.test(detail)
      ? ' (user namespaces look disabled: check kernel.unprivileged_userns_clone / user.max_user_namespaces)'
      : /disable-userns|unrecognized option/i.test(detail)
        ? ' (bubblewrap 0.8 or later is needed for --disable-userns)'
        : '';
    return {
      available: false,
      reason: `bubblewrap failed to start a sandbox: ${detail || `exit ${result.status}`}${hint}`,
    };
  }
  return { available: true, bwrap, prlimit, masked };
}
