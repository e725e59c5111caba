/**
 * The issue's "done when": the lesson's five fixture tasks (examples/lesson/*.jsonl, in the lesson's
 * format: io_pairs, targets ["ok"]) run unchanged, in process, with a scripted adapter that answers them
 * all right (every task 1.0) and one that answers nothing (every task 0.0). The code task runs in the
 * real sandbox.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedAdapter, SilentAdapter } from '../examples/lesson/adapters.js';
import type { ModelBackend } from '../src/models/backend.js';
import { simpleEvaluate } from '../src/run/evaluate.js';
import { probeSandbox } from '../src/sandbox/bubblewrap.js';
import { sandboxOptions } from '../src/sandbox/sandbox.js';
import { repoRoot } from './support/helpers.js';
import { requireComponent } from './support/require-component.js';

const lesson = path.join(repoRoot, 'examples', 'lesson');
const tasks = readdirSync(lesson)
  .filter((name) => name.endsWith('.jsonl'))
  .sort()
  .map((name) => path.join(lesson, name));

const EXPECTED_METRICS = {
  arithmetic: 'exact_match',
  'code-exec': 'code_exec',
  generation: 'substring_contains',
  'multiple-choice': 'multiple_choice',
  summary: 'rouge_l',
};

async function run(model: ModelBackend) {
  const outputPath = await mkdtemp(path.join(os.tmpdir(), 'assay-lesson-'));
  const output = await simpleEvaluate({
    model,
    tasks,
    confirmRunUnsafeCode: true,
    sandbox: { limits: { timeoutMs: 5000, cpuSeconds: 5 } },
    outputPath,
  });
  const scores = Object.fromEntries(
    output.taskResults.map((task) => [
      task.name,
      [task.metrics[0].metric, task.metrics[0].value, task.metrics[0].n],
    ]),
  );
  const leaderboard = JSON.parse(readFileSync(output.files?.leaderboard ?? '', 'utf8')) as {
    overall?: unknown;
  };
  return { scores, overall: leaderboard.overall, output };
}

const bubblewrap = requireComponent('bubblewrap', probeSandbox(sandboxOptions()).available);

describe.skipIf(!bubblewrap)('the lesson’s five tasks, unchanged', () => {
  it('are the five tasks of the lesson, one metric each, five examples each', () => {
    expect(tasks.map((task) => path.basename(task, '.jsonl'))).toEqual(Object.keys(EXPECTED_METRICS));
  });

  it('score 1.0 on every task with the scripted adapter, and 0.0 with the silent one', async () => {
    const [right, silent] = await Promise.all([run(new ScriptedAdapter()), run(new SilentAdapter())]);
    const all = (value: number) =>
      Object.fromEntries(
        Object.entries(EXPECTED_METRICS).map(([task, metric]) => [task, [metric, value, 5]]),
      );
    expect(right.scores).toEqual(all(1));
    expect(silent.scores).toEqual(all(0));
    // The leaderboard's overall, where it is a number, is the mean of these.
    if (typeof right.overall === 'number') expect(right.overall).toBe(1);
    if (typeof silent.overall === 'number') expect(silent.overall).toBe(0);
    // Every code answer ran, in the sandbox, and passed all its pairs (or, silent, defined no f).
    const execution = (output: typeof right.output) =>
      output.samples['code-exec'].map((line) => (line.execution as Array<{ status: string }>)[0].status);
    expect(execution(right.output)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
    expect(execution(silent.output)).toEqual(['error', 'error', 'error', 'error', 'error']);
    expect(right.output.results.errors.samples + silent.output.results.errors.samples).toBe(0);
  }, 60_000);
});
