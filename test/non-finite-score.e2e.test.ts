/**
 * A score that is not a finite number is an error naming the task and the metric (issue 28 P7): a mean
 * over per-doc values of 1e308 overflows to Infinity, which JSON writes as null. The run must stop with
 * that message and leave no results file, instead of printing `Infinity` and writing `acc: null`.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { tempDir } from './support/helpers.js';
import { testInterpreters } from './support/python-interpreters.js';
import { requireComponent } from './support/require-component.js';

const DATA = Array.from({ length: 4 }, (_, i) => JSON.stringify({ q: `q${i}`, a: 'x' })).join('\n');

function taskFolder(utilsName: string, utils: string): string {
  const dir = tempDir('assay-overflow-');
  writeFileSync(path.join(dir, 'data.jsonl'), DATA);
  writeFileSync(path.join(dir, utilsName), utils);
  writeFileSync(
    path.join(dir, 'huge.yaml'),
    [
      'task: huge',
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      '    test: data.jsonl',
      'test_split: test',
      'output_type: generate_until',
      'doc_to_text: "{{q}}"',
      'doc_to_target: a',
      'process_results: !function utils.process_results',
      'metric_list:',
      '  - metric: acc',
      '    aggregation: mean',
      '    higher_is_better: true',
      '',
    ].join('\n'),
  );
  return dir;
}

function expectRefused(dir: string): void {
  const out = tempDir('assay-overflow-out-');
  const run = runCli([
    'run',
    '--model',
    'dummy',
    '--tasks',
    'huge',
    '--include_path',
    dir,
    '--output_path',
    out,
  ]);
  expect(run.status).toBe(1);
  expect(run.stderr).toContain(
    'task huge: metric acc (filter none) aggregates to Infinity with mean (its 4 values overflow a float: one is 1e+308); a score must be a finite number',
  );
  expect(run.stdout).not.toContain('Infinity');
  // Nothing written: no results file with a null score.
  const model = path.join(out, 'dummy');
  expect(existsSync(model) ? readdirSync(model).filter((name) => name.startsWith('results_')) : []).toEqual(
    [],
  );
}

describe('a score that overflows', () => {
  it('from a TypeScript process_results is an error naming task and metric, and nothing is written', () => {
    expectRefused(
      taskFolder(
        'utils.ts',
        'export function process_results(): Record<string, number> {\n  return { acc: 1e308 };\n}\n',
      ),
    );
  });

  const interpreters = testInterpreters();
  const present = requireComponent('python3', interpreters.length > 0);
  it.skipIf(!present)('from a Python process_results likewise', () => {
    expectRefused(taskFolder('utils.py', 'def process_results(doc, results):\n    return {"acc": 1e308}\n'));
  });
});
