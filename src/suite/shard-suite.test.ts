import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/helpers.js';
import { writeAlwaysATask } from '../../test/support/suite-fixtures.js';
import { readSuiteCellRecord } from '../results/suite-cell-record.js';
import { runSuite } from './run-suite.js';
import { mergeSuite, shardLocation } from './shard-suite.js';
import type { SuiteEvent } from './suite-events.js';
import { suiteFolder } from './suite-folder.js';

/** Shard `index` of 3's own suite folder. */
function shardFolder(suitesDirectory: string, index: number) {
  const at = shardLocation(suitesDirectory, 's', { index, count: 3 });
  return suiteFolder(at.directory, at.name);
}

describe('mergeSuite with cells run as doc slices', () => {
  it('leaves out a cell with a slice unfinished, naming it, and merges it once the slice has run', async () => {
    const dir = tempDir('assay-suite-slices-');
    writeAlwaysATask(dir, 'alpha', 9);
    writeAlwaysATask(dir, 'beta', 5);
    const suiteFile = path.join(dir, 'suite.yaml');
    writeFileSync(
      suiteFile,
      `version: 1
settings: { gen_kwargs: { max_gen_toks: 2 } }
models:
  - { name: m1, model: dummy, model_args: { seed: 1 } }
tasks:
  - { name: alpha, task: alpha.jsonl }
  - { name: beta, task: beta.jsonl }
`,
    );
    const suitesDirectory = path.join(dir, 'suites');
    const run = (index: number, events: SuiteEvent[] = []) =>
      runSuite({
        suiteFile,
        suiteName: 's',
        suitesDirectory,
        shard: { index, count: 3 },
        listener: (event) => events.push(event),
      });
    for (const index of [0, 1, 2]) await run(index);
    // Shard 1 killed before its slice finished: no record.
    const shard1 = shardFolder(suitesDirectory, 1);
    rmSync(shard1.cellRecord('m1', 'alpha'));

    const partial = await mergeSuite({ name: 's', suitesDirectory });
    expect(partial.cells).toEqual([
      {
        model: 'm1',
        taskSet: 'alpha',
        status: 'missing',
        shard: null,
        slices: { count: 2, shards: [0], missing: [1] },
      },
      { model: 'm1', taskSet: 'beta', status: 'merged', shard: 2 },
    ]);
    const merged = suiteFolder(suitesDirectory, 's');
    expect(readSuiteCellRecord(merged.cellRecord('m1', 'alpha'))).toBeUndefined();

    // Shard 1 again: its slice runs (the rest of the suite is not its part).
    const events: SuiteEvent[] = [];
    const again = await run(1, events);
    expect(again.cells.map((cell) => [cell.taskSet, cell.status])).toEqual([['alpha', 'done']]);
    expect(events.find((event) => event.type === 'cell-start')).toMatchObject({
      taskSet: 'alpha',
      slice: { index: 1, count: 2 },
    });
    const complete = await mergeSuite({ name: 's', suitesDirectory });
    expect(complete.cells[0]).toEqual({
      model: 'm1',
      taskSet: 'alpha',
      status: 'merged',
      shard: null,
      slices: { count: 2, shards: [0, 1], missing: [] },
    });
    const record = readSuiteCellRecord(merged.cellRecord('m1', 'alpha'));
    expect(record?.status).toBe('done');
    expect(record?.slice).toBeUndefined();
    // The slices' own records: the merged cell started with the first and took their time together.
    const slices = [0, 1].map((index) =>
      readSuiteCellRecord(shardFolder(suitesDirectory, index).cellRecord('m1', 'alpha')),
    );
    expect(record?.started_at).toBe(slices.map((slice) => slice?.started_at ?? '').sort()[0]);
    expect(record?.seconds).toBeCloseTo((slices[0]?.seconds ?? 0) + (slices[1]?.seconds ?? 0), 9);
  });
});

/** A finished cell's sample logs (text, by file name without its time) and its results' metric values. */
function finishedCell(suitesDirectory: string, suite: string, taskSet: string) {
  const folder = suiteFolder(suitesDirectory, suite);
  const record = readSuiteCellRecord(folder.cellRecord('m1', taskSet));
  if (!record?.results_file) throw new Error(`${suite}/${taskSet} is not finished`);
  const resultsFile = path.resolve(path.dirname(folder.cellRecord('m1', taskSet)), record.results_file);
  const runFolder = path.dirname(resultsFile);
  const samples = Object.fromEntries(
    readdirSync(runFolder)
      .filter((name) => name.startsWith('samples_'))
      .map((name) => [name.replace(/_[^_]+\.jsonl$/, ''), readFileSync(path.join(runFolder, name), 'utf8')]),
  );
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as {
    results: unknown;
    'n-samples': unknown;
  };
  return { samples, results: results.results, n: results['n-samples'] };
}

describe('a suite whose large task set declares shard_slices', () => {
  it('runs that task set as doc slices on different shards beside whole cells, and merges into the unsharded run', async () => {
    const dir = tempDir('assay-suite-declared-slices-');
    writeAlwaysATask(dir, 'big', 11);
    writeAlwaysATask(dir, 'beta', 5);
    writeAlwaysATask(dir, 'gamma', 4);
    const suiteFile = path.join(dir, 'suite.yaml');
    writeFileSync(
      suiteFile,
      `version: 1
settings: { gen_kwargs: { max_gen_toks: 2 } }
models:
  - { name: m1, model: dummy, model_args: { seed: 1 } }
tasks:
  - { name: big, task: big.jsonl, shard_slices: 2 }
  - { name: beta, task: beta.jsonl }
  - { name: gamma, task: gamma.jsonl }
`,
    );
    const suitesDirectory = path.join(dir, 'suites');
    // Three cells on two shards: big's two slices on shards 0 and 1, then beta and gamma.
    const started: Array<[number, string, unknown]> = [];
    for (const index of [0, 1])
      await runSuite({
        suiteFile,
        suiteName: 's',
        suitesDirectory,
        shard: { index, count: 2 },
        listener: (event) => {
          if (event.type === 'cell-start') started.push([index, event.taskSet, event.slice]);
        },
      });
    expect(started).toEqual([
      [0, 'big', { index: 0, count: 2 }],
      [0, 'beta', undefined],
      [1, 'big', { index: 1, count: 2 }],
      [1, 'gamma', undefined],
    ]);
    const merged = await mergeSuite({ name: 's', suitesDirectory });
    expect(merged.cells.map((cell) => [cell.taskSet, cell.status])).toEqual([
      ['big', 'merged'],
      ['beta', 'merged'],
      ['gamma', 'merged'],
    ]);
    await runSuite({ suiteFile, suiteName: 'whole', suitesDirectory });
    for (const taskSet of ['big', 'beta', 'gamma']) {
      const sharded = finishedCell(suitesDirectory, 's', taskSet);
      const whole = finishedCell(suitesDirectory, 'whole', taskSet);
      expect(sharded.samples, taskSet).toEqual(whole.samples);
      expect(sharded.results, taskSet).toEqual(whole.results);
      expect(sharded.n, taskSet).toEqual(whole.n);
    }
    expect(Object.keys(finishedCell(suitesDirectory, 's', 'big').samples)).toEqual(['samples_big']);
  });
});

describe('a sharded suite with a judged task set', () => {
  it('refuses to cut a judged cell into doc slices before any shard runs (assay merge cannot rebuild a judge block)', async () => {
    const dir = tempDir('assay-suite-judged-slices-');
    const judge = {
      model: 'dummy',
      prompt: 'Grade {{response}} against {{target}}. Score:',
      verdict: { type: 'score', min: 1, max: 5 },
    };
    const lines = [0, 1, 2, 3].map((n) =>
      JSON.stringify({
        id: n,
        prompt: `What is ${n} + 1?`,
        targets: [String(n + 1)],
        metric: 'llm_judge',
        ...(n === 0 ? { extras: { judge } } : {}),
      }),
    );
    writeFileSync(path.join(dir, 'judged.jsonl'), `${lines.join('\n')}\n`);
    const suiteFile = path.join(dir, 'suite.yaml');
    writeFileSync(
      suiteFile,
      `version: 1
settings: { gen_kwargs: { max_gen_toks: 2 } }
models:
  - { name: m1, model: dummy, model_args: { seed: 1 } }
tasks:
  - { name: judged, task: judged.jsonl }
`,
    );
    const suitesDirectory = path.join(dir, 'suites');
    // One cell, two shards: the plan cuts it into two doc slices, whose merge assay merge refuses.
    await expect(
      runSuite({ suiteFile, suiteName: 's', suitesDirectory, shard: { index: 0, count: 2 } }),
    ).rejects.toThrow(
      'task set judged: its tasks have llm_judge metrics (judged), and this sharded run would cut its cells into doc slices, whose merge cannot rebuild the judge statistics (agreement, PPI++, usage); run it with no more shards than cells (1), or the judged task set unsharded (`tasksToRun`)',
    );
    // Nothing was run or written for the shard.
    expect(() => readdirSync(path.join(suitesDirectory, 's', 'shards'))).toThrow();
  });
});

describe('mergeSuite again after one doc slice reran', () => {
  it('does not keep the cell merged from the slices before (a rerun slice is not merged into it silently)', async () => {
    const dir = tempDir('assay-suite-slice-rerun-');
    writeAlwaysATask(dir, 'alpha', 9);
    const suiteFile = path.join(dir, 'suite.yaml');
    writeFileSync(
      suiteFile,
      `version: 1
settings: { gen_kwargs: { max_gen_toks: 2 } }
models:
  - { name: m1, model: dummy, model_args: { seed: 1 } }
tasks:
  - { name: alpha, task: alpha.jsonl }
`,
    );
    const suitesDirectory = path.join(dir, 'suites');
    const run = (index: number) =>
      runSuite({ suiteFile, suiteName: 's', suitesDirectory, shard: { index, count: 2 } });
    for (const index of [0, 1]) await run(index);
    const first = await mergeSuite({ name: 's', suitesDirectory });
    expect(first.cells.map((cell) => cell.status)).toEqual(['merged']);
    const merged = suiteFolder(suitesDirectory, 's');
    const before = readFileSync(merged.cellRecord('m1', 'alpha'), 'utf8');
    const files = () => readdirSync(merged.cellFolder('m1', 'alpha'), { recursive: true }).sort();
    const mergedFiles = files();
    // Merged again with nothing new: the cell is kept as it is (no second results file).
    expect((await mergeSuite({ name: 's', suitesDirectory })).cells.map((cell) => cell.status)).toEqual([
      'merged',
    ]);
    expect(files()).toEqual(mergedFiles);

    // The task file changes: shard 1 reruns its slice (its merged cell and its own slice are stale), shard 0
    // has not run again yet.
    const file = path.join(dir, 'alpha.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('Answer:', 'Answer now:'));
    const again = await run(1);
    expect(again.cells.map((cell) => [cell.taskSet, cell.status])).toEqual([['alpha', 'done']]);

    // The merged cell is not the earlier merge reported as merged from these slices: slice 1 ran another
    // task file than slice 0, which the merge refuses, naming the cell.
    await expect(mergeSuite({ name: 's', suitesDirectory })).rejects.toThrow(
      /shard 1\/2 \(.*alpha.*\) was not run like shard 0\/2 .*: manifest\.tasks\.alpha\.sha256 is/,
    );
    expect(readFileSync(merged.cellRecord('m1', 'alpha'), 'utf8')).toBe(before);
  });
});
