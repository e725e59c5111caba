/**
 * Code sandbox figures (issue 6): the overhead of one sandboxed run of a trivial program against a
 * plain unsandboxed spawn of the same interpreter and program (the baseline, measured in the same run),
 * and 164 HumanEval-sized problems × 10 samples of trivial solutions through the worker pool.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { passAtKRequest, scoreCodeRequest } from '../src/sandbox/code-score.js';
import { CodeSandbox } from '../src/sandbox/sandbox.js';
import { median } from './median.js';

const TRIVIAL =
  'def add(a, b):\n    return a + b\n\n\ndef check(candidate):\n    assert candidate(1, 2) == 3\n\n\ncheck(add)\n';

/** The baseline: the same interpreter reading the same program on stdin, with no sandbox and no rlimits. */
function plainRun(python: string, source: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-I', '-S', '-B', '-'], { stdio: ['pipe', 'ignore', 'ignore'] });
    child.stdin.end(source);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`exit ${code}`)),
    );
  });
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
  // Warm the page cache for both paths before timing either.
  for (let i = 0; i < 3; i++) {
    await plainRun(python, TRIVIAL);
    await sandbox.run({ language: 'python', source: TRIVIAL });
  }
  const runs = 40;
  const plain: number[] = [];
  const sandboxed: number[] = [];
  // Interleaved, so that machine load drifts affect both series alike.
  for (let i = 0; i < runs; i++) {
    plain.push(await plainRun(python, TRIVIAL));
    const result = await sandbox.run({ language: 'python', source: TRIVIAL });
    if (result.termination !== 'exited' || result.exitCode !== 0)
      throw new Error(`sandboxed run failed: ${result.stderr}`);
    sandboxed.push(result.durationMs);
  }
  const overhead = sandboxed.map((ms, i) => ms - plain[i]);
  report(
    `sandbox overhead per trivial Python run: median ${median(overhead).toFixed(1)} ms (target < 60 ms); sandboxed ${median(sandboxed).toFixed(1)} ms vs plain spawn ${median(plain).toFixed(1)} ms; ratio ${(median(sandboxed) / median(plain)).toFixed(2)}×`,
  );

  const workers = Math.min(2, os.availableParallelism());
  const pool = CodeSandbox.create({ workers });
  const problems = 164;
  const samples = 10;
  const started = performance.now();
  const scores = await Promise.all(
    Array.from({ length: problems }, async () => {
      const request = passAtKRequest(
        'python',
        Array.from({ length: samples }, () => TRIVIAL),
        [1, 10],
      );
      const results = await Promise.all(request.programs.map((program) => pool.run(program)));
      return scoreCodeRequest(request, results, pool.options.limits).metrics['pass@1'];
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const passRate = scores.reduce((a, b) => a + b, 0) / problems;
  report(
    `${problems} problems × ${samples} samples of trivial solutions on ${workers} workers: ${seconds.toFixed(1)} s (target < 60 s), pass@1 ${passRate.toFixed(3)}; ${((seconds * 1000) / (problems * samples)).toFixed(1)} ms per program`,
  );
}
