/**
 * The results table `assay run` prints: by default lm-eval's columns, then each metric's 95% interval and
 * n as the results file holds them, then the notes; `--table lm-eval` prints lm-eval's table alone, for
 * people who diff it.
 */
import path from 'node:path';
import { readResultsFile } from 'assay/results';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, tempDir } from './support/helpers.js';

const task = 'examples/tasks/medqa/medqa_mini.yaml';

describe('assay run’s results table', () => {
  it('shows the interval and n the results file holds; --table lm-eval keeps lm-eval’s table alone', async () => {
    const out = tempDir();
    const shown = await runCliInProcess(['run', '--model', 'dummy', '--tasks', task, '--output_path', out]);
    expect(shown.status, shown.stderr).toBe(0);
    const lmEval = await runCliInProcess(['run', '--model', 'dummy', '--tasks', task, '--table', 'lm-eval']);
    expect(lmEval.status, lmEval.stderr).toBe(0);

    const results = readResultsFile(findOne(path.join(out, 'dummy'), /^results_.*\.json$/));
    const [low, high] = results.results.medqa_mini['acc_ci,none'] as [number, number];
    const n = results.stats?.medqa_mini['acc,none'].n as number;
    expect(n).toBe(results['n-samples'].medqa_mini.effective);

    const lines = shown.stdout.split('\n');
    const plain = lmEval.stdout.split('\n');
    // lm-eval's table: the banner, header, rule and a row per metric, and nothing after it.
    expect(plain).toHaveLength(6);
    expect(plain[1]).toBe('|  Tasks   |Version|Filter|n-shot| Metric |   |Value |   |Stderr|');
    expect(plain[5]).toBe('');
    // The default table is lm-eval's, each line continued by the two columns.
    for (const [index, line] of plain.slice(1, 5).entries())
      expect(lines[index + 1].startsWith(line)).toBe(true);
    expect(lines[1].slice(plain[1].length)).toBe('    95% CI    | n |');
    expect(lines[3].slice(plain[3].length)).toBe(`[${low.toFixed(3)}, ${high.toFixed(3)}]|  ${n}|`);
    // 8 docs: an interval far wider than ±10 points, and the note says so.
    expect(high - low).toBeGreaterThan(0.2);
    expect(lines).toContain('95% CI: Wilson score (0/1 scores). n: the docs each metric covers.');
    expect(lines.some((line) => line.startsWith("medqa_mini: acc's 95% interval"))).toBe(true);
  });

  it('refuses an unknown --table before any work', async () => {
    const result = await runCliInProcess(['run', '--model', 'dummy', '--tasks', task, '--table', 'wide']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('assay: error: --table must be assay or lm-eval, got "wide"\n');
    expect(result.stdout).toBe('');
  });
});
