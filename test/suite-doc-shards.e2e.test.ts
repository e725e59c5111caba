/**
 * `assay suite run --shard i/3` on a suite of two cells, fewer than the shards: the first cell is run as
 * two doc slices (shards 0 and 1, as `assay run --shard j/2` would within the cell), the second whole
 * (shard 2); shard 0 takes its index from a Slurm array's variables (`--shard auto`). `assay suite merge`
 * must refuse while a shard is missing, then assemble cells whose results equal an unsharded suite run's
 * except for timing, with the same sample logs byte for byte, and the shards' response caches gathered.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readSuiteCellRecord } from '../src/results/suite-cell-record.js';
import { runCli } from './support/cli.js';
import { tempDir } from './support/helpers.js';
import { type Json, NO_SCHEDULER, withoutTiming } from './support/shards.js';
import { writeAlwaysATask } from './support/suite-fixtures.js';

/** A finished cell of a suite: its results (parsed) and its sample logs (text, by file name without time). */
function cell(dir: string, suite: string, taskSet: string) {
  const folder = path.join(dir, 'suites', suite, 'm1', taskSet);
  const record = readSuiteCellRecord(path.join(folder, 'cell.json'));
  if (!record?.results_file) throw new Error(`${suite}/${taskSet} is not finished`);
  const resultsFile = path.resolve(folder, record.results_file);
  const runFolder = path.dirname(resultsFile);
  const samples = Object.fromEntries(
    readdirSync(runFolder)
      .filter((name) => name.startsWith('samples_'))
      .map((name) => [name.replace(/_[^_]+\.jsonl$/, ''), readFileSync(path.join(runFolder, name), 'utf8')]),
  );
  return { record, results: JSON.parse(readFileSync(resultsFile, 'utf8')) as Json, samples };
}

function cachedAnswers(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT key FROM responses ORDER BY key').all() as { key: string }[]).map(
      (row) => row.key,
    );
  } finally {
    db.close();
  }
}

describe('assay suite run --shard with fewer cells than shards', () => {
  it('splits a cell into doc slices, refuses a merge with a shard missing, and merges into the unsharded cells', () => {
    const dir = tempDir('assay-suite-doc-shards-');
    writeAlwaysATask(dir, 'alpha', 11);
    writeAlwaysATask(dir, 'beta', 7);
    writeFileSync(
      path.join(dir, 'suite.yaml'),
      `version: 1
settings: { gen_kwargs: { max_gen_toks: 2 } }
models:
  - { name: m1, model: dummy, model_args: { seed: 3 } }
tasks:
  - { name: alpha, task: alpha.jsonl }
  - { name: beta, task: beta.jsonl }
`,
    );
    const run = (args: string[], env: Record<string, string | undefined> = {}) =>
      runCli(['suite', ...args], { cwd: dir, env: { ...NO_SCHEDULER, ...env } });

    const whole = run(['run', 'suite.yaml', '--suite', 'whole', '--quiet']);
    expect(whole.status, whole.stderr).toBe(0);

    // Array task 0 of `sbatch --array=0-2`: the first of alpha's two doc slices.
    const first = run(['run', 'suite.yaml', '--suite', 's', '--shard', 'auto'], {
      SLURM_ARRAY_TASK_ID: '0',
      SLURM_ARRAY_TASK_COUNT: '3',
      SLURM_ARRAY_TASK_MIN: '0',
      SLURM_ARRAY_TASK_MAX: '2',
    });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain('suite: 1 cells, 1 to run, 0 skipped');
    expect(first.stderr).toContain('m1 × alpha (docs 0/2): running');
    const shards = path.join(dir, 'suites', 's', 'shards');
    expect(readSuiteCellRecord(path.join(shards, '0-of-3', 'm1', 'alpha', 'cell.json'))?.slice).toEqual({
      index: 0,
      count: 2,
    });
    // Its run took alpha's docs 0, 2, 4, … (doc id mod 2 = 0), as `assay run --shard 0/2`.
    const slice = cell(dir, 's/shards/0-of-3', 'alpha');
    expect(slice.results.config.shard).toBe('0/2');
    expect(
      slice.samples.samples_alpha
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { doc_id: number }).doc_id),
    ).toEqual([0, 2, 4, 6, 8, 10]);

    const second = run(['run', 'suite.yaml', '--suite', 's', '--shard', '1/3', '--quiet']);
    expect(second.status, second.stderr).toBe(0);
    expect(readSuiteCellRecord(path.join(shards, '1-of-3', 'm1', 'alpha', 'cell.json'))?.slice).toEqual({
      index: 1,
      count: 2,
    });

    // Shard 2 has not run: the merge is refused, naming it, and writes no cell.
    const early = run(['merge', 's']);
    expect(early.status).toBe(2);
    expect(early.stderr).toContain('suite s: shard 2-of-3 missing from');
    expect(readdirSync(path.join(dir, 'suites', 's')).sort()).toEqual(['shards']);

    const third = run(['run', 'suite.yaml', '--suite', 's', '--shard', '2/3', '--quiet']);
    expect(third.status, third.stderr).toBe(0);
    const beta = readSuiteCellRecord(path.join(shards, '2-of-3', 'm1', 'beta', 'cell.json'));
    expect(beta?.status).toBe('done');
    expect(beta?.slice).toBeUndefined();
    expect(readdirSync(path.join(shards, '2-of-3', 'm1')).filter((entry) => !entry.includes('.'))).toEqual([
      'beta',
    ]);

    const merged = run(['merge', 's']);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stderr).toContain('merged 3 shards into');
    expect(merged.stderr).toContain(': 2 cells merged\n');

    for (const taskSet of ['alpha', 'beta']) {
      const single = cell(dir, 'whole', taskSet);
      const assembled = cell(dir, 's', taskSet);
      expect(assembled.record.slice).toBeUndefined();
      expect(assembled.record.settings_hash).toBe(single.record.settings_hash);
      expect(assembled.record.errored_samples).toBe(single.record.errored_samples);
      // Key order too: the files read the same, not just hold the same values.
      expect(JSON.stringify(withoutTiming(assembled.results), null, 2), taskSet).toBe(
        JSON.stringify(withoutTiming(single.results), null, 2).replaceAll('/suites/whole/', '/suites/s/'),
      );
      expect(Object.keys(assembled.samples)).toEqual([`samples_${taskSet}`]);
      expect(assembled.samples, taskSet).toEqual(single.samples);
    }
    expect(cell(dir, 's', 'alpha').results.config.shard ?? null).toBeNull();

    // The shards' response caches, gathered per model: every answer the unsharded suite stored.
    const answers = cachedAnswers(path.join(dir, 'suites', 'whole', 'm1', 'responses.sqlite'));
    // At least one request per doc of the 11 + 7.
    expect(answers.length).toBeGreaterThanOrEqual(18);
    expect(cachedAnswers(path.join(dir, 'suites', 's', 'm1', 'responses.sqlite'))).toEqual(answers);

    // A rerun after the merge, sharded or not, finds every cell finished and runs nothing; so does a merge again.
    const again = run(['run', 'suite.yaml', '--suite', 's', '--shard', '1/3']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain('suite: 1 cells, 0 to run, 1 skipped');
    const unsharded = run(['run', 'suite.yaml', '--suite', 's']);
    expect(unsharded.status, unsharded.stderr).toBe(0);
    expect(unsharded.stderr).toContain('suite: 2 cells, 0 to run, 2 skipped');
    const resultsFiles = () =>
      readdirSync(path.join(dir, 'suites', 's', 'm1', 'alpha'), { recursive: true }).filter((entry) =>
        String(entry).includes('results_'),
      );
    const before = resultsFiles();
    expect(before).toHaveLength(1);
    expect(run(['merge', 's', '--quiet']).status).toBe(0);
    expect(resultsFiles()).toEqual(before);
    // Ten CLI runs: about 30 s alone, more beside other test files on two cores.
  }, 240_000);
});
