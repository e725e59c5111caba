/**
 * Code sandbox figures (issues 6 and 16), all measured in the same run:
 * - the baseline: a plain unsandboxed spawn of the interpreter on a trivial HumanEval-style program;
 * - before issue 16: that program under the previous launcher (bubblewrap + prlimit as they were, the
 *   verdict being the exit status), rebuilt here from its old command line;
 * - after: the same problem as a checked program (the trusted checker forks the program's process,
 *   the test runs apart from it), and the bare new launcher (seccomp, pid 1, capped tmpfs) on its own;
 * - throughput: 164 HumanEval-sized problems × 10 trivial samples through the worker pool, before and after.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findExecutable } from '../src/sandbox/bubblewrap.js';
import { runCodeRequest } from '../src/sandbox/code-score.js';
import { passAtKRequest } from '../src/sandbox/code-score-request.js';
import { CodeSandbox } from '../src/sandbox/sandbox.js';
import type { CheckedProgram } from '../src/sandbox/types.js';
import { median } from './median.js';

const PROMPT = 'def add(a, b):\n    """Return the sum of a and b."""\n';
const COMPLETION = '    return a + b\n';
const TEST = 'def check(candidate):\n    assert candidate(1, 2) == 3\n\n\ncheck(add)\n';
const WHOLE = `${PROMPT}${COMPLETION}\n${TEST}`;
const CHECKED: CheckedProgram = {
  language: 'python',
  program: `${PROMPT}${COMPLETION}`,
  test: TEST,
  prelude: PROMPT,
  entryPoint: 'add',
};

interface Spawned {
  command: string;
  args: string[];
  uid?: number;
}

function timed({ command, args, uid }: Spawned, source: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: {},
      ...(uid === undefined ? {} : { uid, gid: uid }),
    });
    child.stdin.end(source);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command} exited ${code}`)),
    );
  });
}

/** The launcher before issue 16: its namespaces, mounts and rlimits, and the exit status as the verdict. */
function previousLauncher(python: string): Spawned | undefined {
  const bwrap = findExecutable('bwrap');
  const prlimit = findExecutable('prlimit');
  if (!bwrap || !prlimit) return undefined;
  const tops = ['/bin', '/sbin', '/lib', '/lib32', '/lib64'].filter((dir) => existsSync(dir));
  const mounts = tops.flatMap((top) =>
    lstatSync(top).isSymbolicLink()
      ? ['--symlink', path.posix.relative('/', realpathSync(top)), top]
      : ['--ro-bind', top, top],
  );
  const args = [
    ...['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--clearenv'],
    ...['--setenv', 'PATH', '/usr/bin:/bin', '--setenv', 'HOME', '/tmp', '--setenv', 'LANG', 'C.UTF-8'],
    ...['--hostname', 'sandbox', '--ro-bind', '/usr', '/usr'],
    ...mounts,
    ...['--proc', '/proc', '--dev', '/dev', '--size', String(64 * 1024 ** 2), '--tmpfs', '/tmp'],
    ...['--remount-ro', '/', '--chdir', '/tmp', prlimit, '--cpu=10', `--as=${4 * 1024 ** 3}`, '--nproc=64'],
    ...[`--fsize=${16 * 1024 ** 2}`, '--nofile=64', '--core=0', '--', python, '-I', '-S', '-B', '-'],
  ];
  return { command: bwrap, args, ...(process.getuid?.() === 0 ? { uid: 65534 } : {}) };
}

async function throughput(run: () => Promise<boolean>): Promise<{ seconds: number; passRate: number }> {
  const problems = 164;
  const samples = 10;
  const started = performance.now();
  const passed = await Promise.all(Array.from({ length: problems * samples }, () => run()));
  return {
    seconds: (performance.now() - started) / 1000,
    passRate: passed.filter(Boolean).length / passed.length,
  };
}

export async function runSandboxBench(report: (line: string) => void): Promise<void> {
  let sandbox: CodeSandbox;
  try {
    sandbox = CodeSandbox.create({ workers: 1 });
  } catch (error) {
    report(`code sandbox: not measured (${(error as Error).message})`);
    return;
  }
  const python = sandbox.options.python;
  const plain: Spawned = { command: python, args: ['-I', '-S', '-B', '-'] };
  const before = previousLauncher(python);
  if (!before) throw new Error('bubblewrap and prlimit are needed');
  const check = async () => {
    const started = performance.now();
    const outcome = await sandbox.check(CHECKED);
    if (outcome.status !== 'passed') throw new Error(`checked run failed: ${JSON.stringify(outcome)}`);
    return performance.now() - started;
  };
  const launcher = async () => {
    const result = await sandbox.run({ language: 'python', source: WHOLE });
    if (result.termination !== 'exited' || result.exitCode !== 0) throw new Error(result.stderr);
    return result.durationMs;
  };
  // Warm the page cache for every path before timing any.
  for (let i = 0; i < 3; i++) {
    await timed(plain, WHOLE);
    await timed(before, WHOLE);
    await check();
    await launcher();
  }
  const runs = 40;
  const times = {
    plain: [] as number[],
    before: [] as number[],
    after: [] as number[],
    launcher: [] as number[],
  };
  // Interleaved, so that machine load drifts affect every series alike.
  for (let i = 0; i < runs; i++) {
    times.plain.push(await timed(plain, WHOLE));
    times.before.push(await timed(before, WHOLE));
    times.after.push(await check());
    times.launcher.push(await launcher());
  }
  const base = median(times.plain);
  const line = (label: string, series: number[]) =>
    `${label}: median ${median(series).toFixed(1)} ms, overhead ${(median(series) - base).toFixed(1)} ms (${(median(series) / base).toFixed(2)}× the plain spawn)`;
  report(
    `sandbox, one trivial HumanEval-style program; plain unsandboxed spawn ${base.toFixed(1)} ms (baseline)`,
  );
  report(`  before (previous launcher, exit status as the verdict) — ${line('', times.before).slice(2)}`);
  report(
    `  after (trusted checker, test apart from the program) — ${line('', times.after).slice(2)} (target < 60 ms)`,
  );
  report(`  after, the new launcher alone on the whole program — ${line('', times.launcher).slice(2)}`);

  const workers = Math.min(2, os.availableParallelism());
  const pool = CodeSandbox.create({ workers });
  let active = 0;
  const queue: Array<() => void> = [];
  const slot = async <T>(work: () => Promise<T>): Promise<T> => {
    if (active >= workers) await new Promise<void>((resolve) => queue.push(resolve));
    else active++;
    try {
      return await work();
    } finally {
      const next = queue.shift();
      if (next) next();
      else active--;
    }
  };
  const old = await throughput(() => slot(() => timed(before, WHOLE).then(() => true)));
  const request = passAtKRequest([CHECKED], [1]);
  const now = await throughput(async () => (await runCodeRequest(pool, request)).metrics['pass@1'] === 1);
  const per = (seconds: number) => ((seconds * 1000) / 1640).toFixed(1);
  report(
    `164 problems × 10 samples of trivial solutions on ${workers} workers: before ${old.seconds.toFixed(1)} s (${per(old.seconds)} ms per program), after ${now.seconds.toFixed(1)} s (${per(now.seconds)} ms per program, pass@1 ${now.passRate.toFixed(3)}); ratio ${(now.seconds / old.seconds).toFixed(2)}×`,
  );
}
