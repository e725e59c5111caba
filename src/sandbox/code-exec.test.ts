/**
 * The JSONL code_exec metric through the real loader, evaluator, code stage and sandbox: f is called on
 * each test's input, and the score is the fraction of tests matched (return value, and stdout when given).
 */

import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { requireComponent } from '../../test/support/require-component.js';
import type { ModelBackend } from '../models/backend.js';
import { scriptedBackend } from '../models/scripted/scripted-backend.js';
import { simpleEvaluate } from '../run/evaluate.js';
import { probeSandbox } from './bubblewrap.js';
import { extractCode, ioProgram, judgeIoAnswers, scoreIoTests } from './io-tests.js';
import { classifyRun } from './outcome.js';
import { CodeSandbox, sandboxOptions, UNSAFE_WARNING } from './sandbox.js';
import type { Language } from './types.js';

const probe = probeSandbox(sandboxOptions());
const bubblewrap = requireComponent('bubblewrap', probe);
const describeSandbox = describe.skipIf(!bubblewrap);

const example = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../examples/tasks/code-exec.jsonl',
);
const LIMITS = { timeoutMs: 2000, cpuSeconds: 2 };

function backendFor(answers: (prompt: string) => string): ModelBackend {
  return scriptedBackend({
    name: 'fixture',
    info: { name: 'fixture', revision: 'fixture', numericFormat: 'none' },
    generate: (request) => answers(request.context),
  });
}

describe('extractCode', () => {
  it('takes the first fenced block, else the whole answer', () => {
    expect(extractCode('Here:\n```python\ndef f(x):\n    return x\n```\nDone')).toBe(
      'def f(x):\n    return x',
    );
    expect(extractCode('def f(x): return x')).toBe('def f(x): return x');
  });
});

describeSandbox('io tests in the sandbox', () => {
  const sandbox = CodeSandbox.create({ limits: LIMITS });
  async function score(language: Language, prediction: string, tests: Parameters<typeof ioProgram>[2]) {
    const run = await sandbox.runIo(ioProgram(language, prediction, tests));
    const judged = judgeIoAnswers(run.answered, language, tests);
    return scoreIoTests(classifyRun(run, sandbox.options.limits), judged, tests.length);
  }

  it('scores the fraction of pairs matched, with the first mismatch as the reason', async () => {
    const tests = [
      { input: [2], output: 4 },
      { input: [3], output: 9 },
      { input: [-1], output: 1 },
      { input: [0], output: 1 },
    ];
    expect(await score('python', 'def f(x):\n    return x * x\n', tests)).toEqual({
      score: 0.75,
      outcome: { status: 'failed', message: 'test 3: expected 1, got 0 (3/4 tests passed)' },
    });
    expect(await score('javascript', 'function f(x) { return x * x; }', tests.slice(0, 3))).toEqual({
      score: 1,
      outcome: { status: 'passed' },
    });
  });

  it('compares stdout when a test gives one, and tuples equal lists', async () => {
    const tests = [
      { input: ['Ada'], output: null, stdout: 'Hello, Ada!\n' },
      { input: ['Bob'], stdout: 'Hello, Bob!\n' },
    ];
    expect(await score('python', 'def f(name):\n    print(f"Hello, {name}!")\n', tests)).toEqual({
      score: 1,
      outcome: { status: 'passed' },
    });
    expect(await score('python', 'def f(name):\n    print("hi")\n', tests)).toMatchObject({ score: 0 });
    expect(
      await score('javascript', 'const f = (name) => { console.log(`Hello, ${name}!`); };', tests),
    ).toEqual({
      score: 1,
      outcome: { status: 'passed' },
    });
    expect(
      await score('python', 'def f(a, b):\n    return (b, a)\n', [{ input: [1, 2], output: [2, 1] }]),
    ).toMatchObject({
      score: 1,
    });
    // True is not 1: a boolean answer must be a boolean.
    expect(await score('python', 'def f(x):\n    return True\n', [{ input: [0], output: 1 }])).toMatchObject({
      score: 0,
    });
  });

  it('keeps the tests that passed before a hang, and reports the timeout', async () => {
    const tests = [
      { input: [1], output: 1 },
      { input: [2], output: 2 },
      { input: [3], output: 3 },
    ];
    expect(
      await score('python', 'def f(x):\n    while x == 3:\n        pass\n    return x\n', tests),
    ).toEqual({
      score: 2 / 3,
      outcome: { status: 'timed_out', message: 'timed out after 2000 ms (wall clock) (2/3 tests passed)' },
    });
  });

  it('scores 0 with the reason when there is no f or the code does not parse', async () => {
    expect(await score('python', 'def g(x):\n    return x\n', [{ input: [1], output: 1 }])).toEqual({
      score: 0,
      outcome: {
        status: 'error',
        message: 'NameError: the prediction defines no function f (0/1 tests passed)',
      },
    });
    const broken = await score('python', 'def f(x) return x', [{ input: [1], output: 1 }]);
    expect(broken.score).toBe(0);
    expect(broken.outcome.status).toBe('error');
    expect(broken.outcome.message).toMatch(/^SyntaxError/);
  });
});

describeSandbox('code_exec JSONL task', () => {
  const solutions: Record<string, string> = {
    'x squared': '```python\ndef f(x):\n    return x ** 2\n```',
    'larger of a and b': 'def f(a, b):\n    return a if a > b else a',
    'prints "Hello': 'def f(name):\n    print(f"Hello, {name}!")',
    'sorted by length': 'function f(words) { return [...words].sort((a, b) => a.length - b.length); }',
  };
  const answer = (prompt: string) =>
    Object.entries(solutions).find(([key]) => prompt.includes(key))?.[1] ?? '';

  it('averages the per-line fractions and logs each line’s outcome', async () => {
    const output = await simpleEvaluate({
      model: backendFor(answer),
      tasks: [example],
      confirmRunUnsafeCode: true,
      sandbox: { limits: LIMITS },
    });
    const [metric] = output.taskResults[0].metrics;
    expect([metric.metric, metric.value, metric.n]).toEqual(['code_exec', (1 + 0.5 + 1 + 1) / 4, 4]);
    expect(output.samples['code-exec'].map((line) => [line.code_exec, line.execution])).toEqual([
      [1, [{ status: 'passed' }]],
      [0.5, [{ status: 'failed', message: 'test 0: expected 2, got 1 (1/2 tests passed)' }]],
      [1, [{ status: 'passed' }]],
      [1, [{ status: 'passed' }]],
    ]);
    expect(output.results.configs['code-exec']).toMatchObject({ unsafe_code: true });
  });

  it('needs --confirm_run_unsafe_code', async () => {
    await expect(simpleEvaluate({ model: backendFor(answer), tasks: [example] })).rejects.toThrow(
      'task code-exec is marked unsafe_code',
    );
  });

  it('runs with rlimits only when asked, and the manifest says so loudly', async () => {
    const warnings: string[] = [];
    const output = await simpleEvaluate({
      model: backendFor(answer),
      tasks: [example],
      confirmRunUnsafeCode: true,
      unsafeCodeWithoutSandbox: true,
      sandbox: { limits: LIMITS },
      logger: { warn: (message) => warnings.push(message) },
    });
    expect(output.taskResults[0].metrics[0].value).toBe((1 + 0.5 + 1 + 1) / 4);
    expect(output.results.manifest.code_execution).toMatchObject({
      isolation: 'rlimits_only',
      warning: UNSAFE_WARNING,
    });
    expect(warnings).toContain(UNSAFE_WARNING);
  });
});

describeSandbox('a JSONL file that mixes metrics', () => {
  it('scores the mean of its lines’ own scores, code_exec with io_pairs among them', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-mixed-'));
    const file = path.join(directory, 'mixed.jsonl');
    await writeFile(
      file,
      [
        '{"id": "arith", "prompt": "compute: 2 + 2", "targets": ["4"], "metric": "exact_match"}',
        '{"id": "sum", "prompt": "summarize: the cat sat down", "targets": ["the cat sat down"], "metric": "rouge_l"}',
        '{"id": "code-00", "prompt": "python: write a function f that doubles its input", "targets": ["ok"], "metric": "code_exec", "extras": {"io_pairs": [[1, 2], [3, 6], [5, 10], [0, 0]]}}',
        '',
      ].join('\n'),
    );
    const answers: Record<string, string> = {
      'compute: 2 + 2': '4',
      // [the, cat, down] against [the, cat, sat, down]: F1 6/7.
      'summarize: the cat sat down': 'The cat down.',
      // Right on 3 of 4 pairs (0 → 0 fails).
      'python: write a function f that doubles its input': 'def f(x):\n    return x * 2 if x else 1\n',
    };
    const output = await simpleEvaluate({
      model: backendFor((prompt) => answers[prompt] ?? ''),
      tasks: [file],
      confirmRunUnsafeCode: true,
      sandbox: { limits: LIMITS },
    });
    const entry = output.results.results.mixed;
    // Before, the file reported each metric over its own lines and the first one (n: 1) stood for the task.
    expect(entry['score,none']).toBeCloseTo((1 + 6 / 7 + 3 / 4) / 3, 15);
    expect(output.taskResults[0].metrics.map((metric) => [metric.metric, metric.n])).toEqual([
      ['score', 3],
      ['exact_match', 1],
      ['rouge_l', 1],
      ['code_exec', 1],
    ]);
    expect(entry['code_exec,none']).toBe(0.75);
    expect(output.samples.mixed.map((line) => [line.doc_id, line.score])).toEqual([
      [0, 1],
      [1, 6 / 7],
      [2, 0.75],
    ]);
  });
});

describe('without bubblewrap', () => {
  it('refuses with the reason and the way out', () => {
    expect(() => CodeSandbox.create({ bwrap: '/nonexistent/bwrap' })).toThrow(
      'cannot run model-written code: the sandbox is unavailable: bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap). Install bubblewrap, or pass `unsafeCodeWithoutSandbox` to run it with rlimits only (unsafe: it can read and change your files and reach the network)',
    );
  });
});
