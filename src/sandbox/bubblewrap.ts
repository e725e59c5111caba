/**
 * Command lines for running one program: inside bubblewrap, or (only on request) under rlimits alone.
 * The program's source is fed on stdin (`python3 -`, `node -`), so no host file is ever written for it
 * and there is no argument-length limit.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
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

export function prlimitArgs(limits: SandboxLimits): string[] {
  return [
    `--cpu=${limits.cpuSeconds}`,
    `--as=${limits.memoryBytes}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileSizeBytes}`,
    `--nofile=${limits.openFiles}`,
    '--core=0',
    '--',
  ];
}

export function interpreterArgs(language: Language, options: SandboxOptions): string[] {
  // -I: isolated mode (ignores PYTHON* variables and the user site directory); -S: no site module, so
  // only the standard library is importable, which halves start-up (~40 → ~20 ms) and is all that
  // HumanEval/MBPP need; -B: no .pyc writes.
  if (language === 'python') return [options.python, '-I', '-S', '-B', '-'];
  return [
    options.node,
    `--max-old-space-size=${Math.max(64, Math.floor(options.limits.memoryBytes / 4 / 1024 ** 2))}`,
    '-',
  ];
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

export function bubblewrapPlan(
  bwrap: string,
  prlimit: string,
  language: Language,
  options: SandboxOptions,
): SpawnPlan {
  return {
    command: bwrap,
    args: [...bubblewrapArgs(prlimit, options), ...interpreterArgs(language, options)],
    ...dropRoot(),
  };
}

/** bwrap's arguments up to the sandboxed command: namespaces, mounts, environment, then prlimit. */
function bubblewrapArgs(prlimit: string, options: SandboxOptions): string[] {
  return [
    '--unshare-all',
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
    String(options.limits.tmpBytes),
    '--tmpfs',
    '/tmp',
    ...SHELLS.filter((shell) => existsSync(shell) && shell.startsWith('/usr/')).flatMap((shell) => [
      '--ro-bind',
      '/dev/null',
      shell,
    ]),
    '--remount-ro',
    '/',
    '--chdir',
    '/tmp',
    prlimit,
    ...prlimitArgs(options.limits),
  ];
}

/** rlimits only: the program sees the host's filesystem and network. Used only with --unsafe_code_without_sandbox. */
export function rlimitsOnlyPlan(prlimit: string, language: Language, options: SandboxOptions): SpawnPlan {
  const [command, ...rest] = [prlimit, ...prlimitArgs(options.limits), ...interpreterArgs(language, options)];
  return { command, args: rest, ...dropRoot() };
}

function dropRoot(): { uid?: number; gid?: number } {
  return process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
}

export type SandboxProbe =
  | { available: true; bwrap: string; prlimit: string }
  | { available: false; reason: string };

const probes = new Map<string, SandboxProbe>();

/**
 * Whether bubblewrap can start here: installed, and user namespaces allowed. Runs `true` in the same
 * sandbox a program gets, once per process (per bubblewrap path).
 */
export function probeSandbox(options: SandboxOptions, refresh = false): SandboxProbe {
  const key = options.bwrap ?? '';
  const known = probes.get(key);
  if (known && !refresh) return known;
  const result = probe(options);
  probes.set(key, result);
  return result;
}

function probe(options: SandboxOptions): SandboxProbe {
  if (process.platform !== 'linux')
    return { available: false, reason: `bubblewrap needs Linux; this is ${process.platform}` };
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
  const trueCommand = findExecutable('true') ?? '/usr/bin/true';
  const identity = dropRoot();
  const result = spawnSync(bwrap, [...bubblewrapArgs(prlimit, options), trueCommand], {
    env: {},
    ...identity,
    timeout: 10_000,
    encoding: 'utf8',
  });
  if (result.error)
    return { available: false, reason: `bubblewrap could not start: ${result.error.message}` };
  if (result.status !== 0) {
    const detail = (result.stderr || '').trim().split('\n').pop() ?? '';
    const hint = /namespace|uid map|Operation not permitted|Permission denied/i.test(detail)
      ? ' (user namespaces look disabled: check kernel.unprivileged_userns_clone / user.max_user_namespaces)'
      : '';
    return {
      available: false,
      reason: `bubblewrap failed to start a sandbox: ${detail || `exit ${result.status}`}${hint}`,
    };
  }
  return { available: true, bwrap, prlimit };
}
